"""A ban while a tournament's pairing wave or a pool seats the banned player
(moderation.services.user_ban against tournaments/services/pairing.py `tournament_pair` and
pairing/services.py `pool_pair`).

The pairing holds the players' tournament rows or the pool's lock, and its new match's foreign
keys are checked at its commit, key-sharing both players' user rows (games/services/starts.py,
the lock order). The ban locks the banned player's user row, then withdraws them from their
tournaments and pools, which waits for the pairing: neither may wait for the other, and the match
the pairing began ends as the banned player's loss once the ban is committed."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from games.models import Match, MatchStatus
from moderation.services import user_ban
from pairing import services as pairing_services
from pairing.pools import Pool
from tests.moderation.conftest import make_moderator
from tests.pairing.conftest import _clean_pairing_keys  # noqa: F401
from tests.threads import run_together
from tests.tournaments.conftest import _clean_changed_set, rated, waiting_arena  # noqa: F401
from tournaments.models import Player
from tournaments.services.pairing import tournament_pair

pytestmark = pytest.mark.django_db(transaction=True)
# _clean_pairing_keys and _clean_changed_set, imported above, are autouse: the pools' and the
# tournaments' Redis keys of this run start and end empty here as in their own tests.


POOL = Pool("traditional", 1, 60, True)


def a_statement_waits_for_a_lock(query: str) -> bool:
    """Whether a statement of this test's database matching `query` (ILIKE) waits for a lock."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock' AND query ILIKE %s",
            [query],
        )
        return cursor.fetchone()[0] > 0


def ban_while_pairing(pair, ana, what_the_ban_waits_for: str) -> None:
    """`pair()` seats `ana` in a new match and holds its transaction open while `ana` is banned;
    it commits once the ban waits for it (a statement matching `what_the_ban_waits_for`)."""
    moderator = make_moderator(f"{ana.username}_mod")
    paired, release = threading.Event(), threading.Event()

    def pairing() -> None:
        with transaction.atomic():  # the pairing's own transaction is a savepoint of this one
            pair()
            paired.set()
            assert release.wait(20)
        # Committed here: the match's foreign keys are checked, key-sharing both user rows.

    def ban() -> None:
        assert paired.wait(20)
        user_ban(moderator=moderator, user=ana, reason="cheating")

    def release_the_pairing_once_the_ban_waits_for_it() -> None:
        assert paired.wait(20)
        deadline = time.monotonic() + 20
        while not a_statement_waits_for_a_lock(what_the_ban_waits_for):
            assert time.monotonic() < deadline, "the ban never waited for the pairing"
            time.sleep(0.02)
        release.set()

    run_together(pairing, ban, release_the_pairing_once_the_ban_waits_for_it)


def assert_ended_as_a_ban(match: Match, winner) -> None:
    assert (match.status, match.end_reason) == (MatchStatus.FINISHED, "banned")
    assert match.winner_id == winner.pk


def test_a_ban_while_a_wave_seats_the_player_deadlocks_neither_and_ends_the_new_match():
    ana, bogdan = rated("wave_ban_ana"), rated("wave_ban_bogdan")
    tournament = waiting_arena([ana, bogdan])

    def wave() -> None:
        assert tournament_pair(tournament_id=tournament.pk) == 1

    # The ban's withdrawal from the tournament waits for the wave's Player rows.
    ban_while_pairing(wave, ana, f"%UPDATE%{Player._meta.db_table}%")
    assert Player.objects.get(user=ana).withdrawn
    assert_ended_as_a_ban(Match.objects.get(tournament_pairing__tournament=tournament), bogdan)


def test_a_ban_while_a_pool_seats_the_player_deadlocks_neither_and_ends_the_new_match():
    ana, bogdan = rated("pool_ban_ana"), rated("pool_ban_bogdan")
    pairing_services.pool_join(user=ana, pool=POOL)

    def join_and_pair() -> None:
        pairing_services.pool_join(user=bogdan, pool=POOL)
        assert Match.objects.filter(paired_waits__user=ana).exists()

    # The ban's leaving the pool waits for the pool's lock, which the pairing holds.
    ban_while_pairing(join_and_pair, ana, "%pg_advisory_xact_lock%")
    assert_ended_as_a_ban(Match.objects.get(paired_waits__user=ana), bogdan)
