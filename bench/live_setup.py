"""The live benchmarks' matches, made in bulk (bench/live_load.py's `setup` task, bench/live_matches.py).

2N users, N started casual matches between them and a signed-in session cookie per user. One by
one through the site's own path (a `match_create` challenge, then `match_accept`) and
`Client.force_login`, 1,000 matches took 51 s; here the users and the sessions are one
`bulk_create` each and the matches begin in waves through games' start path for many matches at
once (games/services/starts.py `matches_start_many`, which a tournament's pairing wave uses): the
same rows, events and after-commit work, a few statements per wave. The first `SITE_STARTS`
matches still go through `match_create` + `match_accept`, timed, so the site's own start path is
measured per match beside the bulk one (the figures are printed to setup.log).
"""

from __future__ import annotations

import time
from datetime import timedelta

SITE_STARTS = 10
WAVE = 250  # matches begun per transaction


def setup_matches(
    count: int,
    prefix: str,
    auto_roll: bool,
    turn_seconds: int | None = None,
    length: int | None = None,
    site_starts: int = SITE_STARTS,
) -> dict:
    from django.db import transaction

    from accounts.models import User

    started = time.monotonic()
    users = [
        # Programs play these turns: each ends with its last step ("confirm my turn" off).
        User(
            username=f"{prefix}{index}", email=f"{prefix}{index}@bench.invalid",
            auto_roll=auto_roll, confirm_turn=False, password="!",  # unusable: no hashing
        )
        for index in range(2 * count)
    ]  # fmt: skip
    with transaction.atomic():
        User.objects.bulk_create(users, batch_size=1000)
        users = list(User.objects.filter(username__startswith=prefix).order_by("id"))
        _verified_emails(users)
    cookies = _sessions(users)
    print(f"users and sessions: {len(users)} in {time.monotonic() - started:.1f} s", flush=True)
    pairs = [(users[2 * index], users[2 * index + 1]) for index in range(count)]
    site = min(site_starts, count)
    site_started, site_cpu = time.monotonic(), time.process_time()
    match_ids = [_site_start(pair, turn_seconds, length) for pair in pairs[:site]]
    if site:
        print(
            f"the site's start path (match_create + match_accept), {site} matches: "
            f"{1000 * (time.monotonic() - site_started) / site:.1f} ms and "
            f"{1000 * (time.process_time() - site_cpu) / site:.1f} ms of this process's CPU "
            "per match",
            flush=True,
        )
    bulk_started = time.monotonic()
    for first in range(site, count, WAVE):
        match_ids += _wave(pairs[first : first + WAVE], turn_seconds, length)
    if count > site:
        print(
            f"bulk starts (matches_start_many, {WAVE} a wave), {count - site} matches: "
            f"{1000 * (time.monotonic() - bulk_started) / (count - site):.2f} ms per match",
            flush=True,
        )
    print(f"matches: {len(match_ids)} in {time.monotonic() - started:.1f} s", flush=True)
    matches = [
        {"id": match_id, "cookies": [cookies[first.pk], cookies[second.pk]]}
        for match_id, (first, second) in zip(match_ids, pairs, strict=True)
    ]
    return {"matches": matches, "setup_seconds": time.monotonic() - started}


def _verified_emails(users) -> None:
    from allauth.account.models import EmailAddress

    EmailAddress.objects.bulk_create(
        [EmailAddress(user=u, email=u.email, verified=True, primary=True) for u in users],
        batch_size=1000,
    )


def _sessions(users) -> dict[int, str]:
    """A signed-in session per user, as `django.contrib.auth.login` leaves it (the user's id,
    backend and session hash), written as the session table's rows in one statement: the
    cached_db backend reads a session missing from the cache from its row."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    store = SessionStore()
    expires = timezone.now() + timedelta(seconds=settings.SESSION_COOKIE_AGE)
    backend = settings.AUTHENTICATION_BACKENDS[0]
    keys = {
        user.pk: get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789") for user in users
    }
    Session.objects.bulk_create(
        [
            Session(
                session_key=keys[user.pk],
                session_data=store.encode(
                    {
                        SESSION_KEY: str(user.pk),
                        BACKEND_SESSION_KEY: backend,
                        HASH_SESSION_KEY: user.get_session_auth_hash(),
                    }
                ),
                expire_date=expires,
            )
            for user in users
        ],
        batch_size=1000,
    )
    return keys


def _site_start(pair, turn_seconds: int | None, length: int | None) -> int:
    from games import services

    creator, opponent = pair
    match = services.match_create(
        creator=creator, rated=False, turn_seconds=turn_seconds,
        rule_set_name="traditional", length=length,
    )  # fmt: skip
    services.match_accept(user=opponent, match_id=match.pk)
    return match.pk


def _wave(pairs, turn_seconds: int | None, length: int | None) -> list[int]:
    from django.db import transaction

    from games.fairness import new_client_seed, new_server_seed
    from games.services.lifecycle import chosen_rules
    from games.services.starts import NewMatch, matches_start_many

    rules = chosen_rules("traditional", rated=False, turn_seconds=turn_seconds, length=length)
    news = [
        NewMatch(
            seats=(first.pk, second.pk), rule_set_name="traditional", rules=rules, rated=False,
            turn_seconds=turn_seconds, client_seeds=(new_client_seed(), new_client_seed()),
            server_seed=new_server_seed(),
        )
        for first, second in pairs
    ]  # fmt: skip
    with transaction.atomic():
        begun = matches_start_many(news)
    if len(begun) != len(news):
        raise RuntimeError(f"{len(news) - len(begun)} of a wave's matches did not begin")
    return [context.match.pk for context in begun]
