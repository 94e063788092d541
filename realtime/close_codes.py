"""The application close codes of the site's sockets (docs/protocol.md).

Autobahn (Daphne) sends only 1000 and 3000-4999, not RFC 6455's 1008, so each is in 4000-4999.
"""

CLOSE_LOGGED_OUT = 4001  # the session ended: logout, deactivation, a password change
CLOSE_BANNED = 4003  # a moderator banned the user
CLOSE_RATE_LIMITED = 4008  # too many messages in the window (settings.SOCKET_RATE_LIMIT_*)
CLOSE_TOO_MANY_SOCKETS = 4029  # the user's or the address's cap (realtime/socket_limits.py)
