"""coturn's configuration for the calls' TURN server (docs/operations.md "Production",
deploy/coturn/).

`turnserver_conf` writes the `turnserver.conf` of Debian's coturn: TURN REST credentials
(`use-auth-secret` with the site's CALL_TURN_SECRET, which calls/ice.py signs the players'
usernames with), no static users, and the hardening coturn's own example recommends for a public
relay: no relaying to private, loopback, link-local or shared address space (a relay must not
become a way into the server's own network), no multicast peers, no CLI, no software version,
quotas per person and in total (below), TLS 1.2 and newer only. `manage.py turnserver_conf`
prints it from the settings; make prod-check starts coturn with it (tests/integration/test_turn.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Allocations one person holds at once. coturn counts `user-quota` by the username's part after
# the expiry, which calls/ice.py makes the person's id, so this holds for every credential they
# were given, in any match. A browser's peer connection takes one allocation per TURN URL (three
# in docs/operations.md's example: UDP, TCP, TLS) per network it gathers on (one or two), and an ICE
# restart holds the old ones while it gathers new ones: 12 covers that with room.
USER_QUOTA = 12
# Allocations the server holds at once for everyone: with USER_QUOTA each, at least 100 people
# (50 relayed calls with both players relayed) fit even if each holds their whole quota; an honest
# call holds 3-6 per relayed player. Each allocation holds a relay port, so it stays well inside
# the default port range (16,384).
TOTAL_QUOTA = 1200

# Address space no relay may reach (RFC 6890 special-purpose ranges that lead inside a network).
DENIED_PEERS = (
    "0.0.0.0-0.255.255.255",
    "10.0.0.0-10.255.255.255",
    "100.64.0.0-100.127.255.255",
    "127.0.0.0-127.255.255.255",
    "169.254.0.0-169.254.255.255",
    "172.16.0.0-172.31.255.255",
    "192.0.0.0-192.0.0.255",
    "192.168.0.0-192.168.255.255",
    "198.18.0.0-198.19.255.255",
    "::1",
    "64:ff9b::-64:ff9b::ffff:ffff",
    "fc00::-fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    "fe80::-febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
)


@dataclass(frozen=True, kw_only=True)
class TurnServer:
    realm: str
    secret: str
    port: int = 3478
    tls_port: int = 5349
    listening_ips: tuple[str, ...] = ()  # none: every address of the machine
    relay_ips: tuple[str, ...] = ()
    external_ip: str = ""  # "public" or "public/private" behind a 1:1 NAT
    min_port: int = 49152
    max_port: int = 65535
    cert: str = ""  # no certificate: plain TURN over UDP and TCP only
    pkey: str = ""
    log_file: str = "syslog"
    pidfile: str = "/run/turnserver/turnserver.pid"
    user_quota: int = USER_QUOTA
    total_quota: int = TOTAL_QUOTA
    denied_peers: tuple[str, ...] = field(default=DENIED_PEERS)


def turnserver_conf(server: TurnServer) -> str:
    """The text of turnserver.conf for `server`."""
    if not server.secret:
        raise ValueError("the TURN secret is empty: set CALL_TURN_SECRET")
    if any(character in server.secret for character in "\r\n#"):
        raise ValueError("the TURN secret must be one line without '#'")
    if not 1 <= server.user_quota <= server.total_quota:
        # coturn reads 0 as "no quota": never written, nor one person allowed more than all.
        raise ValueError(
            f"the quotas must be 1 <= user quota ({server.user_quota}) <= total quota "
            f"({server.total_quota})"
        )
    lines = [
        "# coturn for Long Nardy's calls: `manage.py turnserver_conf` (calls/turnserver.py)",
        "# wrote it. It holds the shared secret: mode 0640, owner root, group turnserver.",
        f"listening-port={server.port}",
    ]
    lines += [f"listening-ip={ip}" for ip in server.listening_ips]
    lines += [f"relay-ip={ip}" for ip in server.relay_ips]
    if server.external_ip:
        lines.append(f"external-ip={server.external_ip}")
    lines += [
        f"min-port={server.min_port}",
        f"max-port={server.max_port}",
        f"realm={server.realm}",
        "# Short-lived credentials of each person (TURN REST): no static users.",
        "use-auth-secret",
        f"static-auth-secret={server.secret}",
        "fingerprint",
        "no-multicast-peers",
        "no-cli",
        "no-software-attribute",
        "no-rfc5780",
        "no-stun-backward-compatibility",
        "# Relays held at once by one person (the username after its expiry) and by everyone.",
        f"user-quota={server.user_quota}",
        f"total-quota={server.total_quota}",
        "stale-nonce=600",
    ]
    if server.cert and server.pkey:
        lines += [f"tls-listening-port={server.tls_port}", f"cert={server.cert}",
                  f"pkey={server.pkey}", "no-tlsv1", "no-tlsv1_1"]  # fmt: skip
    else:
        lines += ["no-tls", "no-dtls"]
    lines += [f"denied-peer-ip={peer}" for peer in server.denied_peers]
    lines += [f"log-file={server.log_file}", "simple-log", f"pidfile={server.pidfile}"]
    return "\n".join(lines) + "\n"
