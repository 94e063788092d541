"""What every socket of the site shares, whichever app it belongs to (docs/architecture.md,
"Architecture").

Above `config` and below every app: the socket base class (`socket.SiteSocket`), the caps on open
sockets (`socket_limits`), the language of a socket (`language`), close codes (`close_codes`), a
user's channel-layer group (`groups`) and the refusal every service raises (`errors.CommandError`).
It imports no app of the site.
"""
