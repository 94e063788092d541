"""The top of the site (docs/architecture.md, "Architecture"): what gathers many apps.

The root URLs (`urls`), the socket routing (`routing`) and the ASGI application (`asgi`), the
pages that belong to no single app (home, rules, health) and the personal `/ws/me/` socket. Nothing
imports `web`; it may import every app.
"""
