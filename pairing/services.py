"""Every write to the pairing pool (docs/architecture.md "How code is shaped here": keyword-only, a
transaction
and row locks inside, side effects after commit).

Exactly once: whoever runs the pairing of a pool — the socket of a player who
just joined, in any Daphne process, or the beat sweep in the Celery worker — first takes the
pool's PostgreSQL advisory lock, then locks the free entries (`select_for_update`), pairs them
with the pure function (pairing/logic.py), and in the same transaction starts each match and
deletes the two entries. A second pairing of the same pool waits for the lock and finds those
entries gone; a `PairedWait` row per wait id makes a second match from one wait impossible at
the database level as well. The locks and their one order: pairing/locks.py.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import OperationalError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from config import metrics
from games.events import LOBBY_GROUP
from games.fairness import commitment
from games.models import Match, MatchStatus
from games.next_seed import COMMITMENT_PATTERN, take_committed_seed, take_next_seed
from games.services.lifecycle import client_seed_or_new, match_start_paired
from moderation.eligibility import blocked_pair_predicate, refuse_pool
from pairing import liveness
from pairing.locks import lock_player, lock_pool, rolled_back
from pairing.logic import CONFIRM_SECONDS, Waiting, pair_up, window
from pairing.models import PairedWait, PoolEntry, Proposal
from pairing.pools import Pool
from pairing.selectors import abort_record, pool_sizes
from ratings.selectors import ratings_of
from realtime.errors import CommandError
from realtime.groups import notify_user
from realtime.publisher import GroupMessage, publish

log = logging.getLogger(__name__)


def gone_seconds() -> float:
    return settings.POOL_GONE_SECONDS


def _pool_filter(pool: Pool) -> Q:
    return Q(
        rule_set_name=pool.rule_set_name,
        length=pool.length,
        turn_seconds=pool.turn_seconds,
        rated=pool.rated,
    )


def status_payload(entry: PoolEntry, now: datetime) -> dict[str, Any]:
    """What the waiting player is told about their wait (docs/protocol.md `pool_waiting`)."""
    waited = max(0.0, (now - entry.joined_at).total_seconds())
    accepted = window(waited)
    return {
        "type": "pool_waiting",
        "pool": Pool.of(entry).key,
        "waited": round(waited, 1),
        "window": None if accepted is None else round(accepted),
        "rating": round(entry.rating),
        "proposal": entry.proposal_id,
        # The commitment to the server seed of a match this wait may start (games/fairness).
        "server_seed_hash": commitment(entry.server_seed),
        "client_seed": entry.client_seed,
    }


# --- Joining and leaving -------------------------------------------------------------------------


def _playing(user) -> bool:
    return Match.objects.filter(
        Q(creator=user) | Q(opponent=user), status=MatchStatus.ACTIVE
    ).exists()


def _server_seed(user_id: int, server_seed_hash: str | None) -> str:
    """The server seed a new wait takes: the one whose commitment the joining page showed
    (games/next_seed.py); refused when that one is gone (used by another tab or form)."""
    if server_seed_hash is None:
        return take_next_seed(user_id)
    seed = take_committed_seed(user_id, server_seed_hash)
    if seed is None:
        raise CommandError(
            "seed_changed",
            _(
                "The server seed shown on this page was used or replaced (another tab?). Check "
                "the new one and join again."
            ),
        )
    return seed


def pool_join(
    *, user, pool: Pool, client_seed: str | None = None, server_seed_hash: str | None = None
) -> PoolEntry:
    """Wait in `pool` (leaving any other pool), then try to pair the pool at once. Takes the
    player's lock, so two tabs joining at once make one entry, then the old pool's. Joining the
    pool one already waits in keeps one's place (and its seeds). ``client_seed`` is the
    browser's (games/fairness); the server draws one when it is missing and refuses a malformed
    one. ``server_seed_hash`` is the commitment the page showed before the client seed was sent:
    the new wait plays on exactly that seed, or the join is refused (`seed_changed`); a client
    seed needs it."""
    seed = client_seed_or_new(client_seed)
    if server_seed_hash is not None and not (
        isinstance(server_seed_hash, str) and COMMITMENT_PATTERN.fullmatch(server_seed_hash)
    ):
        raise CommandError("bad_field", _("server_seed_hash must be 64 hexadecimal digits."))
    if client_seed and server_seed_hash is None:
        raise CommandError(
            "bad_field",
            _("Send the server seed hash your page shows together with your client seed."),
        )
    now = timezone.now()
    if not user.is_active:
        raise CommandError("account_inactive", _("This account is deactivated."))
    refuse_pool(user, rated=pool.rated)
    record = abort_record(user.pk, now)
    if record.kept_out_until is not None:
        minutes = max(1, round((record.kept_out_until - now).total_seconds() / 60))
        raise CommandError(
            "abort_cooldown",
            _(
                "You aborted %(aborts)s of your last 10 matches; you can look for an opponent "
                "again in %(minutes)s min."
            )
            % {"aborts": record.aborts, "minutes": minutes},
        )
    if _playing(user):
        raise CommandError("in_a_match", _("Finish your match in progress first."))
    with transaction.atomic():
        lock_player(user.pk)
        entry = PoolEntry.objects.filter(user=user).first()
        if entry is not None and entry.proposal_id is not None:
            raise CommandError("proposal_pending", _("Answer the opponent you were offered first."))
        if entry is not None and Pool.of(entry) == pool:
            liveness.mark_alive_now(user.pk)
            return entry
        if entry is not None:  # moving to another pool: out of the old one under its lock
            lock_pool(Pool.of(entry))
            PoolEntry.objects.filter(user=user, proposal__isnull=True).delete()
            if PoolEntry.objects.filter(user=user).exists():  # paired meanwhile into an offer
                raise CommandError(
                    "proposal_pending", _("Answer the opponent you were offered first.")
                )
            if _playing(user):  # paired meanwhile into a match
                raise CommandError("in_a_match", _("Finish your match in progress first."))
        entry = PoolEntry.objects.create(
            user=user,
            rule_set_name=pool.rule_set_name,
            length=pool.length,
            turn_seconds=pool.turn_seconds,
            rated=pool.rated,
            rating=ratings_of([user.pk])[user.pk].value,
            joined_at=now,
            client_seed=seed,
            # The one the Play page committed to; taken last, once the wait is sure to be made.
            server_seed=_server_seed(user.pk, server_seed_hash),
        )
        liveness.mark_alive_now(user.pk)
    try:
        pool_pair(pool=pool)
    except OperationalError as error:
        if not rolled_back(error):
            raise
        # The wait is saved; the sweep pairs the pool within POOL_SWEEP_SECONDS.
        log.warning("pairing %s after a join was rolled back", pool.key, exc_info=True)
    return entry


def pool_leave(*, user, reason: str = "left") -> bool:
    """Stop waiting; a pending proposal counts as declined. False when not waiting."""
    entry = PoolEntry.objects.filter(user=user).first()
    if entry is None:
        return False
    if entry.proposal_id is not None:
        proposal_answer(user=user, proposal_id=entry.proposal_id, accept=False)
        return True
    with transaction.atomic():
        lock_pool(Pool.of(entry))
        deleted, _rows = PoolEntry.objects.filter(user=user, proposal__isnull=True).delete()
        if deleted:
            notify_user(user.pk, {"type": "pool_left", "reason": reason})
    return bool(deleted)


# --- Pairing -------------------------------------------------------------------------------------


def pool_pair(*, pool: Pool) -> int:
    """Pair what can be paired in `pool` now; returns the number of pairs made (a pair 400
    points or more apart becomes a proposal). Takes the pool's advisory lock, then locks the free
    entries."""
    with transaction.atomic():
        lock_pool(pool)
        now = timezone.now()
        entries = list(
            PoolEntry.objects.select_for_update(of=("self",))
            .filter(_pool_filter(pool), proposal__isnull=True)
            .select_related("user")
            .order_by("joined_at")
        )
        if len(entries) < 2:
            return 0
        by_user = {entry.user_id: entry for entry in entries}
        playing = set(
            Match.objects.filter(status=MatchStatus.ACTIVE)
            .filter(Q(creator_id__in=by_user) | Q(opponent_id__in=by_user))
            .values_list("creator_id", "opponent_id")
            .iterator()
        )
        busy = {user_id for pair in playing for user_id in pair} & set(by_user)
        if busy:  # they started a match another way (an accepted challenge): out of the pool
            PoolEntry.objects.filter(user_id__in=busy).delete()
            for user_id in busy:
                notify_user(user_id, {"type": "pool_left", "reason": "in_a_match"})
        alive = liveness.alive_among(sorted(set(by_user) - busy), within=gone_seconds())
        waiting = [
            Waiting(entry.user_id, entry.rating, (now - entry.joined_at).total_seconds())
            for entry in entries
            if entry.user_id in alive
        ]
        pairs = pair_up(waiting, blocked_pair_predicate(list(by_user)))
        for pair in pairs:
            first, second = by_user[pair.first.user_id], by_user[pair.second.user_id]
            if pair.needs_confirmation:
                _propose(first, second, now)
            else:
                try:
                    _start(pool, first, second, now)
                except CommandError:  # one started a match another way meanwhile: not paired,
                    continue  # nothing written; pairing/hook_answers.py takes them out
    return len(pairs)


def _propose(first: PoolEntry, second: PoolEntry, now: datetime) -> None:
    proposal = Proposal.objects.create(expires_at=now + timedelta(seconds=CONFIRM_SECONDS))
    PoolEntry.objects.filter(user_id__in=(first.user_id, second.user_id)).update(
        proposal=proposal, accepted=False
    )
    for me, them in ((first, second), (second, first)):
        notify_user(
            me.user_id,
            {
                "type": "pool_proposal",
                "proposal": proposal.pk,
                "opponent": them.user.username,
                "rating": round(them.rating),
                "gap": round(abs(them.rating - me.rating)),
                "seconds": CONFIRM_SECONDS,
            },
        )


def _start(pool: Pool, first: PoolEntry, second: PoolEntry, now: datetime) -> Match:
    earlier = min((first, second), key=lambda entry: (entry.joined_at, entry.user_id))
    match = match_start_paired(
        first_id=first.user_id,
        second_id=second.user_id,
        rule_set_name=pool.rule_set_name,
        length=pool.length,
        turn_seconds=pool.turn_seconds,
        rated=pool.rated,
        client_seeds=(first.client_seed, second.client_seed),
        server_seed=earlier.server_seed,
    )
    # The primary key is the wait: a second match from the same wait fails here, whatever raced.
    PairedWait.objects.bulk_create(
        [
            PairedWait(
                wait_id=entry.wait_id,
                user_id=entry.user_id,
                match=match,
                waited_seconds=(now - entry.joined_at).total_seconds(),
            )
            for entry in (first, second)
        ]
    )
    PoolEntry.objects.filter(user_id__in=(first.user_id, second.user_id)).delete()
    for entry in (first, second):
        notify_user(entry.user_id, {"type": "pool_matched", "match_id": match.pk})
    return match


# --- Confirming a pair 400 points or more apart --------------------------------------------------


def proposal_answer(*, user, proposal_id: int, accept: bool) -> Match | None:
    """Accept or decline the opponent offered. Both accepting starts the match; a decline takes
    the decliner out of the pool and returns the other to it at their place. Takes the pool's
    lock, then the proposal's entries."""
    entry = PoolEntry.objects.filter(user=user).first()
    if entry is None or entry.proposal_id != proposal_id:
        raise CommandError("no_proposal", _("This offer is no longer open."))
    pool = Pool.of(entry)
    with transaction.atomic():
        lock_pool(pool)
        entries = list(
            PoolEntry.objects.select_for_update(of=("self",))
            .filter(proposal_id=proposal_id)
            .select_related("user")
            .order_by("joined_at")
        )
        mine = next((entry for entry in entries if entry.user_id == user.pk), None)
        if mine is None:
            raise CommandError("no_proposal", _("This offer is no longer open."))
        if not accept:
            _end_proposal(proposal_id, entries, leaving={user.pk}, reason="declined")
            return None
        mine.accepted = True
        mine.save(update_fields=["accepted"])
        if len(entries) == 2 and all(entry.accepted for entry in entries):
            match = _start(pool, entries[0], entries[1], timezone.now())
            Proposal.objects.filter(pk=proposal_id).delete()
            return match
        other = next((entry for entry in entries if entry.user_id != user.pk), None)
        if other is not None:
            notify_user(other.user_id, {"type": "pool_opponent_accepted", "proposal": proposal_id})
    return None


def _end_proposal(
    proposal_id: int, entries: list[PoolEntry], *, leaving: set[int], reason: str
) -> None:
    """Those in `leaving` leave the pool; the others wait on, at their place."""
    for entry in entries:
        if entry.user_id in leaving:
            # By id: deleting the row object would clear its primary key, which is the user.
            PoolEntry.objects.filter(user_id=entry.user_id).delete()
            notify_user(entry.user_id, {"type": "pool_left", "reason": reason})
        else:
            entry.proposal = None
            entry.accepted = False
            entry.save(update_fields=["proposal", "accepted"])
            notify_user(entry.user_id, {"type": "pool_requeued", "reason": reason})
    Proposal.objects.filter(pk=proposal_id).delete()


def proposals_expire() -> int:
    """Proposals past their 15 s: whoever did not accept leaves the pool, the other waits on."""
    expired = 0
    due = Proposal.objects.filter(expires_at__lte=timezone.now()).values_list("pk", flat=True)
    for proposal_id in list(due):
        first = PoolEntry.objects.filter(proposal_id=proposal_id).first()
        with transaction.atomic():
            if first is not None:
                lock_pool(Pool.of(first))
            entries = list(
                PoolEntry.objects.select_for_update(of=("self",)).filter(proposal_id=proposal_id)
            )
            still = Proposal.objects.select_for_update().filter(pk=proposal_id).first()
            if still is None or still.expires_at > timezone.now():
                continue
            silent = {entry.user_id for entry in entries if not entry.accepted}
            _end_proposal(proposal_id, entries, leaving=silent, reason="expired")
            expired += 1
    return expired


# --- The sweep (Celery beat, every POOL_SWEEP_SECONDS) -------------------------------------------


def pools_sweep() -> dict[str, int]:
    """Expire proposals, take out players whose page is gone, pair every pool with two or more
    free players (their windows widen with time), and publish the pools' sizes."""
    proposals_expire()
    now = timezone.now()
    grace = timedelta(seconds=gone_seconds())
    free = list(
        PoolEntry.objects.filter(proposal__isnull=True, joined_at__lt=now - grace).values_list(
            "user_id", flat=True
        )
    )
    alive = liveness.alive_among(free, within=gone_seconds())
    for user_id in set(free) - alive:
        entry = PoolEntry.objects.filter(user_id=user_id).first()
        if entry is None:
            continue
        with transaction.atomic():
            lock_pool(Pool.of(entry))
            # Checked again under the lock: the page may have come back meanwhile.
            if not liveness.alive_among([user_id], within=gone_seconds()):
                if PoolEntry.objects.filter(user_id=user_id, proposal__isnull=True).delete()[0]:
                    notify_user(user_id, {"type": "pool_left", "reason": "gone"})
    sizes = pool_sizes()
    for key, size in sizes.items():
        if size >= 2:
            pool_pair(pool=Pool.from_key(key))
    sizes = pool_sizes()
    before = liveness.write_counts(sizes)
    metrics.pool_sizes(sizes, before)
    if before != sizes:
        publish([GroupMessage(LOBBY_GROUP, {"type": "pool.counts", "counts": sizes})])
    liveness.forget_stale()
    return sizes
