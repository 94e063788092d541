"""ASGI entry point: HTTP through Django, WebSockets through Channels.

`get_asgi_application()` runs before any consumer import so the app registry is ready
(Channels docs; cookiecutter-django).
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.client_address import TrustedProxyMiddleware  # noqa: E402
from config.patches import apply_all  # noqa: E402
from web.routing import websocket_urlpatterns  # noqa: E402

# The client address is resolved first (X-Forwarded-For only from TRUSTED_PROXY_COUNT proxies),
# for pages and sockets alike.
application = TrustedProxyMiddleware(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(
                AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
            ),
        }
    )
)

# Twisted and Autobahn, only where they are the versions the patches were written for: frames sent
# at once, no per-frame debug-line formatting (config/patches/, docs/architecture.md "Patches").
apply_all()

# Everything imported so far lives as long as the process: freeze it out of the collector's full
# passes, which otherwise walk the whole of Django on every generation-2 collection; and collect
# the young generation less often (commands allocate many short-lived objects, in cycles rarely).
gc.collect()
gc.freeze()
gc.set_threshold(10_000, 20, 20)
