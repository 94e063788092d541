"""Print coturn's turnserver.conf for the calls (calls/turnserver.py; docs/operations.md
"Production"):

    manage.py turnserver_conf --realm nardy.example.org --external-ip 203.0.113.7 \\
        --cert /etc/letsencrypt/live/nardy.example.org/fullchain.pem \\
        --pkey /etc/letsencrypt/live/nardy.example.org/privkey.pem > /etc/turnserver.conf

The shared secret is the site's CALL_TURN_SECRET (the environment, as for every process).
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from calls.turnserver import TOTAL_QUOTA, USER_QUOTA, TurnServer, turnserver_conf


class Command(BaseCommand):
    help = "Print coturn's configuration for the calls' TURN server, with CALL_TURN_SECRET."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--realm", required=True, help="the site's domain, e.g. nardy.example.org"
        )
        parser.add_argument("--port", type=int, default=3478)
        parser.add_argument("--tls-port", type=int, default=5349)
        parser.add_argument("--listening-ip", action="append", default=[], help="repeatable")
        parser.add_argument("--relay-ip", action="append", default=[], help="repeatable")
        parser.add_argument(
            "--external-ip", default="", help="public, or public/private behind NAT"
        )
        parser.add_argument("--min-port", type=int, default=49152)
        parser.add_argument("--max-port", type=int, default=65535)
        parser.add_argument(
            "--cert", default="", help="TLS certificate (TURN over TLS on --tls-port)"
        )
        parser.add_argument("--pkey", default="")
        parser.add_argument(
            "--user-quota", type=int, default=USER_QUOTA,
            help="relays one person holds at once (docs/operations.md, Calls: STUN and TURN)",
        )  # fmt: skip
        parser.add_argument(
            "--total-quota", type=int, default=TOTAL_QUOTA,
            help="relays the server holds at once for everyone",
        )  # fmt: skip
        parser.add_argument("--log-file", default="syslog")
        parser.add_argument("--pidfile", default="/run/turnserver/turnserver.pid")

    def handle(self, *args, **options) -> None:
        try:
            text = turnserver_conf(
                TurnServer(
                    realm=options["realm"],
                    secret=settings.CALL_TURN_SECRET,
                    port=options["port"],
                    tls_port=options["tls_port"],
                    listening_ips=tuple(options["listening_ip"]),
                    relay_ips=tuple(options["relay_ip"]),
                    external_ip=options["external_ip"],
                    min_port=options["min_port"],
                    max_port=options["max_port"],
                    cert=options["cert"],
                    pkey=options["pkey"],
                    user_quota=options["user_quota"],
                    total_quota=options["total_quota"],
                    log_file=options["log_file"],
                    pidfile=options["pidfile"],
                )
            )
        except ValueError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(text, ending="")
