"""The site's limits and paces, each read from the environment: sockets, the computer, guests,
reconnection, pairing, challenges, analysis, chat, tournaments, reports, blocks, calls."""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

from .base import env_list

# Each WebSocket may send this many messages per window, then it is closed with 4008 (lila-ws's
# figure for a play socket, where it closes with 1008). Browser tests that click faster than any
# person raise it.
SOCKET_RATE_LIMIT_MESSAGES = int(os.environ.get("SOCKET_RATE_LIMIT_MESSAGES", "100"))
SOCKET_RATE_LIMIT_WINDOW_SECONDS = float(os.environ.get("SOCKET_RATE_LIMIT_WINDOW_SECONDS", "20"))
# Open sockets per signed-in user and per client address, across all Daphne processes
# (accounts/socket_limits.py); 0 switches a cap off. An address may be a whole school's NAT.
SOCKETS_PER_USER = int(os.environ.get("SOCKETS_PER_USER", "30"))
SOCKETS_PER_ADDRESS = int(os.environ.get("SOCKETS_PER_ADDRESS", "200"))
# Snapshots a match socket may ask for per minute (each is a database read on the threads that
# also run players' moves); resynchronisations the server starts itself are not counted.
SNAPSHOT_REQUESTS_PER_MINUTE = int(os.environ.get("SNAPSHOT_REQUESTS_PER_MINUTE", "20"))
# The computer's pace: seconds before each step of a bot's turn, and before its first.
BOT_STEP_SECONDS = float(os.environ.get("BOT_STEP_SECONDS", "0.6"))
BOT_THINK_SECONDS = float(os.environ.get("BOT_THINK_SECONDS", "1.0"))
# Guests (accounts/guests.py): how many one client address may create per hour, and how long an
# unused guest account is kept.
GUESTS_PER_ADDRESS_PER_HOUR = int(os.environ.get("GUESTS_PER_ADDRESS_PER_HOUR", "10"))
GUEST_UNUSED_DAYS = int(os.environ.get("GUEST_UNUSED_DAYS", "30"))
# A player whose last socket to an active match closed has this long to come back before the
# opponent may claim the match (reason `abandoned`; docs/rules.md, Platform rules, Disconnects).
RECONNECT_WINDOW_SECONDS = int(os.environ.get("RECONNECT_WINDOW_SECONDS", "60"))
# Quick pairing (pairing/): a waiting player whose Play page has not been seen for this long
# (socket closed, network gone) leaves the pool.
POOL_GONE_SECONDS = float(os.environ.get("POOL_GONE_SECONDS", "6"))
# A direct challenge lapses after this long unanswered.
DIRECT_CHALLENGE_SECONDS = int(os.environ.get("DIRECT_CHALLENGE_SECONDS", "120"))
# Correspondence matches (docs/rules.md, Platform rules, Correspondence) a player may have open at
# once, being played or offered by them: many is normal, a thousand is a flood.
CORRESPONDENCE_MATCHES_MAX = int(os.environ.get("CORRESPONDENCE_MATCHES_MAX", "100"))
# A correspondence challenge stays open this many days (a direct one too: its player may be away).
CORRESPONDENCE_CHALLENGE_DAYS = int(os.environ.get("CORRESPONDENCE_CHALLENGE_DAYS", "7"))
# Private invite links a player may create per hour.
PRIVATE_CHALLENGES_PER_HOUR = int(os.environ.get("PRIVATE_CHALLENGES_PER_HOUR", "20"))
# New post-match analyses a user may ask for per hour (analysis/services.py); asking for one
# already stored or queued is free.
ANALYSIS_REQUESTS_PER_HOUR = int(os.environ.get("ANALYSIS_REQUESTS_PER_HOUR", "10"))
# A rated match queues its own analysis when it ends only with at least this many logged turns
# (both players' together; a 1-point match has about 90), and at most ANALYSIS_AUTO_PER_HOUR
# such analyses are queued site-wide in any hour: at the match budget's most (4,000,000
# positions, about 36 s of a core) 60 fill 36 minutes of the one analysis worker, leaving the
# rest for players' requests (docs/security.md, "Security notes"). Players may ask for the others.
ANALYSIS_AUTO_MIN_TURNS = int(os.environ.get("ANALYSIS_AUTO_MIN_TURNS", "20"))
ANALYSIS_AUTO_PER_HOUR = int(os.environ.get("ANALYSIS_AUTO_PER_HOUR", "60"))
# Chat: at most CHAT_MESSAGES_PER_WINDOW messages per user in any
# CHAT_WINDOW_SECONDS, across all their tabs and matches (chat/services.py).
CHAT_MESSAGES_PER_WINDOW = int(os.environ.get("CHAT_MESSAGES_PER_WINDOW", "5"))
CHAT_WINDOW_SECONDS = float(os.environ.get("CHAT_WINDOW_SECONDS", "10"))
# Tournaments players may create per day (tournaments/services/players.py).
TOURNAMENTS_PER_PLAYER_PER_DAY = int(os.environ.get("TOURNAMENTS_PER_PLAYER_PER_DAY", "3"))
# Following (friends/services.py): how many players one may follow. A Friends page reads them all
# with one query and one Redis round trip, so this bounds its cost.
FOLLOWS_PER_USER = int(os.environ.get("FOLLOWS_PER_USER", "300"))
# Notifications (notifications/services.py): at most this many from one sender to one recipient
# in a clock hour (the rest are dropped: a flood of challenges or match starts rings the bell no
# more), and the newest NOTIFICATIONS_KEPT of each user kept.
NOTIFICATIONS_PER_SENDER_PER_HOUR = int(os.environ.get("NOTIFICATIONS_PER_SENDER_PER_HOUR", "20"))
NOTIFICATIONS_KEPT = int(os.environ.get("NOTIFICATIONS_KEPT", "100"))
# Reports: at most this many per reporter in 24 hours (moderation/services.py).
REPORTS_PER_DAY = int(os.environ.get("REPORTS_PER_DAY", "10"))
# A player's block list is capped (each block is read by every chat socket of theirs).
MAX_BLOCKS = int(os.environ.get("MAX_BLOCKS", "500"))

# --- Face to face at the table (calls/): WebRTC between the two players ----------------------
# ICE servers the players' browsers use (calls/ice.py). STUN finds each browser's public address;
# TURN relays the media of players behind symmetric NAT (docs/operations.md "Production",
# deploy/coturn/).
# TURN passwords are never static: a player gets a username "<expiry>:<user>" (the person's,
# whatever the match: coturn's user-quota counts per person) and the base64 HMAC-SHA1 of it under
# CALL_TURN_SECRET, coturn's `use-auth-secret` (its `static-auth-secret` is the same value), valid
# CALL_TURN_TTL_SECONDS; the page asks for new ones before then, given only while the match is
# active, at most CALL_TURN_CREDENTIALS_PER_HOUR sets per person an hour (calls/budgets.py).
CALL_STUN_URLS = env_list("CALL_STUN_URLS")
CALL_TURN_URLS = env_list("CALL_TURN_URLS")
CALL_TURN_SECRET = os.environ.get("CALL_TURN_SECRET", "")
CALL_TURN_TTL_SECONDS = int(os.environ.get("CALL_TURN_TTL_SECONDS", "600"))
# An hour-long call renews about 8 times (static/js/call.js renews at 80 % of the lifetime);
# the rest is for reloads and rejoins.
CALL_TURN_CREDENTIALS_PER_HOUR = int(os.environ.get("CALL_TURN_CREDENTIALS_PER_HOUR", "30"))
if CALL_TURN_URLS and not CALL_TURN_SECRET:
    raise ImproperlyConfigured(
        "CALL_TURN_URLS needs CALL_TURN_SECRET (coturn's static-auth-secret)."
    )
# Call commands (offers, answers, candidates, media states, hang-ups, joins) and the bytes they
# relay, per user and match across all their sockets (calls/budgets.py), in any window; more are
# refused with `rate_limited` and the socket stays open. Chromium's negotiation with audio and
# video sent 15 frames, 8.4 KB (the offerer) and 8 frames, 6.4 KB (the answerer) on the loopback;
# STUN and TURN add a few candidates of 100-300 bytes per network, an ICE restart a new offer.
CALL_SIGNALS_PER_WINDOW = int(os.environ.get("CALL_SIGNALS_PER_WINDOW", "60"))
CALL_SIGNAL_BYTES_PER_WINDOW = int(os.environ.get("CALL_SIGNAL_BYTES_PER_WINDOW", "65536"))
CALL_WINDOW_SECONDS = float(os.environ.get("CALL_WINDOW_SECONDS", "10"))
