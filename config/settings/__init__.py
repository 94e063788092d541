"""Django settings, read from the environment in this one package, a module per concern.

Development (the default) needs nothing set: `make run` / `make test` export DATABASE_URL and
REDIS_URL for the embedded servers they start (config/embedded.py). Production is `DEBUG=0`, which
requires SECRET_KEY and turns on the secure-cookie / proxy settings; see docs/operations.md
"Production".

One module per concern, each reading its part of the environment: base (the apps, middleware,
templates, email, languages, static files), database (PostgreSQL and Redis), celery_schedule (the
queues and the one beat's schedule), limits (the site's limits and paces, calls), accounts
(allauth), security (proxies, probes, HTTPS and headers), logs, and testing: every way a test
run differs from a real site, in one place. No two modules set the same name, so the order below
(alphabetical) does not matter; each module imports by name what it reads from another.
"""

from .accounts import *  # noqa: F403
from .base import *  # noqa: F403
from .celery_schedule import *  # noqa: F403
from .database import *  # noqa: F403
from .limits import *  # noqa: F403
from .logs import *  # noqa: F403
from .security import *  # noqa: F403
from .testing import *  # noqa: F403
