"""The pool's services on PostgreSQL and Redis: joining, pairing at once and as windows widen,
the 400-point confirmation, leaving, the page gone, abort and its cooldown, and
races between threads."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from prometheus_client import REGISTRY

from games import services as game_services
from games.models import Match
from games.services import CommandError
from pairing import services
from pairing.models import PairedWait, PoolEntry, Proposal
from pairing.pools import Pool
from tests.factories import make_user
from tests.pairing.conftest import TRADITIONAL_1_60, backdate, gone, rated
from tests.threads import run_together

# Transactional unless a test says plain `django_db`: threads, after-commit work and other
# connections see only committed rows; the plain ones need none and end in a rollback (faster).
pytestmark = pytest.mark.django_db(transaction=True)


def matches_of(user) -> list[Match]:
    return list(Match.objects.filter(paired_waits__user=user).distinct())


@pytest.mark.django_db
def test_two_close_players_are_paired_at_once_into_one_started_match():
    first, second = rated("ana", 1500), rated("bogdan", 1560)
    services.pool_join(user=first, pool=TRADITIONAL_1_60)
    assert PoolEntry.objects.filter(user=first).exists()
    services.pool_join(user=second, pool=TRADITIONAL_1_60)
    (match,) = matches_of(first)
    assert {match.creator_id, match.opponent_id} == {first.pk, second.pk}
    assert match.creator_id == first.pk  # the longer wait takes seat 0
    assert (match.status, match.rated, match.turn_seconds, match.length) == ("active", True, 60, 1)
    assert match.games.count() == 1
    assert not PoolEntry.objects.exists()
    assert PairedWait.objects.filter(match=match).count() == 2


@pytest.mark.django_db
def test_a_paired_match_rolls_on_both_browsers_seeds_and_the_first_joiners_server_seed():
    """Provably fair dice (docs/rules.md, Platform rules): each join brings the browser's client
    seed and draws a server seed whose hash the waiting player is told; the pair plays on the
    earlier joiner's server seed, drawn before the later joiner's client seed existed."""
    from games import selectors
    from games.fairness import commitment, verify_export
    from games.next_seed import next_seed_commitment
    from games.protocol import fairness_state

    first, second = rated("ana", 1500), rated("bogdan", 1560)
    services.pool_join(
        user=first, pool=TRADITIONAL_1_60, client_seed="ana-browser_1",
        server_seed_hash=next_seed_commitment(first.pk),
    )  # fmt: skip
    entry = PoolEntry.objects.get(user=first)
    told = services.status_payload(entry, timezone.now())
    assert told["client_seed"] == "ana-browser_1"
    assert told["server_seed_hash"] == commitment(entry.server_seed)
    assert entry.server_seed not in str(told)
    services.pool_join(
        user=second, pool=TRADITIONAL_1_60, client_seed="bogdan-2",
        server_seed_hash=next_seed_commitment(second.pk),
    )  # fmt: skip
    (match,) = matches_of(first)
    assert (match.client_seed_creator, match.client_seed_opponent) == ("ana-browser_1", "bogdan-2")
    assert match.server_seed == entry.server_seed
    assert match.dice_source == "fair"
    assert fairness_state(match)["server_seed"] is None  # not before the end
    game_services.match_resign(user=second, match_id=match.pk)
    match.refresh_from_db()
    report = verify_export(selectors.match_export(match))
    assert report.ok and report.checks, report.problems  # the opening roll at least, recomputed


@pytest.mark.parametrize("seed", ["", "a:b", "x" * 65, "ш", 7, None, ["s"], {"s": 1}])
@pytest.mark.django_db
def test_a_malformed_client_seed_is_refused_or_replaced_and_joins_nothing(seed):
    user = rated("ana", 1500)
    if seed in ("", None):  # missing: the server draws one, as for a challenge
        services.pool_join(user=user, pool=TRADITIONAL_1_60, client_seed=seed)
        assert len(PoolEntry.objects.get(user=user).client_seed) == 32
        return
    with pytest.raises(CommandError) as refused:
        services.pool_join(user=user, pool=TRADITIONAL_1_60, client_seed=seed)
    assert refused.value.code == "bad_field"
    assert not PoolEntry.objects.exists()


@pytest.mark.django_db
def test_players_far_apart_wait_until_both_windows_reach_the_gap():
    first, second = rated("ana", 1500), rated("bogdan", 1750)
    services.pool_join(user=first, pool=TRADITIONAL_1_60)
    services.pool_join(user=second, pool=TRADITIONAL_1_60)
    assert PoolEntry.objects.count() == 2  # 250 apart: outside ±100
    backdate(first, 16)
    services.pools_sweep()
    assert PoolEntry.objects.count() == 2  # the newcomer's window is still ±100
    backdate(second, 16)  # both at ±260 now
    services.pools_sweep()
    assert not PoolEntry.objects.exists()
    assert len(matches_of(first)) == 1


@pytest.mark.django_db
def test_different_pools_never_pair():
    first, second = rated("ana", 1500), rated("bogdan", 1500)
    services.pool_join(user=first, pool=TRADITIONAL_1_60)
    services.pool_join(user=second, pool=Pool("traditional", 1, 60, False))
    assert PoolEntry.objects.count() == 2


@pytest.mark.django_db
def test_a_player_waits_in_one_pool_and_rejoining_keeps_the_place():
    player = rated("ana", 1500)
    entry = services.pool_join(user=player, pool=TRADITIONAL_1_60)
    again = services.pool_join(user=player, pool=TRADITIONAL_1_60)
    assert (again.wait_id, again.joined_at) == (entry.wait_id, entry.joined_at)
    moved = services.pool_join(user=player, pool=Pool("tournament", 5, 90, True))
    assert PoolEntry.objects.get().rule_set_name == "tournament"
    assert moved.wait_id != entry.wait_id


def far_pair():
    first, second = rated("ana", 1300), rated("bogdan", 1800)
    services.pool_join(user=first, pool=TRADITIONAL_1_60)
    services.pool_join(user=second, pool=TRADITIONAL_1_60)
    backdate(first, 40)
    backdate(second, 31)
    services.pools_sweep()
    proposal = Proposal.objects.get()
    assert set(proposal.entries.values_list("user_id", flat=True)) == {first.pk, second.pk}
    assert not Match.objects.exists()
    return first, second, proposal


@pytest.mark.django_db
def test_a_gap_of_400_or_more_starts_only_when_both_confirm():
    first, second, proposal = far_pair()
    assert services.proposal_answer(user=first, proposal_id=proposal.pk, accept=True) is None
    assert not Match.objects.exists()
    match = services.proposal_answer(user=second, proposal_id=proposal.pk, accept=True)
    assert match is not None and match.status == "active"
    assert not PoolEntry.objects.exists() and not Proposal.objects.exists()


@pytest.mark.django_db
def test_a_decline_returns_the_other_to_the_pool_at_its_place(monkeypatch):
    first, second, proposal = far_pair()
    told: list[tuple[int, str]] = []
    monkeypatch.setattr(
        services, "notify_user", lambda user_id, payload: told.append((user_id, payload["type"]))
    )
    place = PoolEntry.objects.get(user=first).joined_at
    services.proposal_answer(user=first, proposal_id=proposal.pk, accept=True)
    services.proposal_answer(user=second, proposal_id=proposal.pk, accept=False)
    entry = PoolEntry.objects.get()  # the decliner left the pool
    assert (entry.user_id, entry.joined_at, entry.proposal_id, entry.accepted) == (
        first.pk, place, None, False,
    )  # fmt: skip
    assert not Match.objects.exists() and not Proposal.objects.exists()
    # Each is told, by their own id (a deleted row object no longer knows its user).
    assert told[0] == (second.pk, "pool_opponent_accepted")
    assert sorted(told[1:]) == sorted([(second.pk, "pool_left"), (first.pk, "pool_requeued")])


@pytest.mark.django_db
def test_silence_for_15_seconds_returns_the_one_who_accepted():
    first, second, proposal = far_pair()
    services.proposal_answer(user=second, proposal_id=proposal.pk, accept=True)
    Proposal.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    services.pools_sweep()
    entry = PoolEntry.objects.get()
    assert entry.user_id == second.pk and entry.proposal_id is None
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_answers_to_an_offer_that_is_gone_are_refused_and_change_nothing():
    first, second, proposal = far_pair()
    stranger = rated("cezar", 1500)
    with pytest.raises(CommandError) as refused:
        services.proposal_answer(user=stranger, proposal_id=proposal.pk, accept=True)
    assert refused.value.code == "no_proposal"
    services.proposal_answer(user=first, proposal_id=proposal.pk, accept=False)
    with pytest.raises(CommandError):
        services.proposal_answer(user=second, proposal_id=proposal.pk, accept=True)
    assert PoolEntry.objects.get().user_id == second.pk


@pytest.mark.django_db
def test_a_player_whose_page_is_gone_leaves_the_pool():
    stays, leaves = rated("ana", 1500), rated("bogdan", 2100)
    services.pool_join(user=stays, pool=TRADITIONAL_1_60)
    services.pool_join(user=leaves, pool=TRADITIONAL_1_60)
    backdate(stays, 10)
    backdate(leaves, 10)
    gone(leaves)
    services.pools_sweep()
    assert list(PoolEntry.objects.values_list("user_id", flat=True)) == [stays.pk]


@pytest.mark.django_db
def test_gone_players_are_not_paired_even_before_the_sweep_removes_them():
    first, second = rated("ana", 1500), rated("bogdan", 1500)
    services.pool_join(user=first, pool=TRADITIONAL_1_60)
    gone(first)
    services.pool_join(user=second, pool=TRADITIONAL_1_60)
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_leaving_the_pool(pool_settings):
    player = rated("ana", 1500)
    services.pool_join(user=player, pool=pool_settings)
    assert services.pool_leave(user=player) is True
    assert services.pool_leave(user=player) is False
    assert not PoolEntry.objects.exists()


@pytest.mark.django_db
def test_a_player_in_a_match_cannot_join_and_pool_sizes_are_counted():
    first, second = rated("ana", 1500), rated("bogdan", 1500)
    services.pool_join(user=first, pool=TRADITIONAL_1_60)
    services.pool_join(user=second, pool=TRADITIONAL_1_60)
    with pytest.raises(CommandError) as refused:
        services.pool_join(user=first, pool=TRADITIONAL_1_60)
    assert refused.value.code == "in_a_match"
    waiting = rated("cezar", 1500)
    services.pool_join(user=waiting, pool=Pool("tournament", 5, 60, True))
    assert services.pools_sweep() == {"tournament.5.60.rated": 1}
    gauge = {"pool": "tournament.5.60.rated"}
    assert REGISTRY.get_sample_value("nardy_pairing_pool_waiting", gauge) == 1
    services.pool_leave(user=waiting)
    assert services.pools_sweep() == {}
    assert REGISTRY.get_sample_value("nardy_pairing_pool_waiting", gauge) == 0


def test_many_threads_pairing_one_pool_make_each_wait_end_in_at_most_one_match():
    players = [rated(f"p{index}", 1500 + index) for index in range(24)]
    run_together(*[lambda p=p: services.pool_join(user=p, pool=TRADITIONAL_1_60) for p in players])
    run_together(*[lambda: services.pool_pair(pool=TRADITIONAL_1_60) for _ in range(6)])
    for player in players:
        in_matches = Match.objects.filter(paired_waits__user=player).count()
        waiting = PoolEntry.objects.filter(user=player).count()
        assert in_matches + waiting == 1, player.username
    assert PairedWait.objects.count() == 2 * Match.objects.count()


# --- Abort before the start ----------------------------------------------------------------------


@pytest.fixture
def started(fixed_dice):
    first, second = make_user("ana"), make_user("bogdan")
    match = game_services.match_create(creator=first, turn_seconds=60)
    fixed_dice(6, 2)
    game_services.match_accept(user=second, match_id=match.pk)
    return match, first, second


@pytest.mark.django_db
def test_either_player_may_abort_before_each_has_moved(started):
    match, first, second = started
    game_services.match_abort(user=second, match_id=match.pk)
    match.refresh_from_db()
    assert (match.status, match.end_reason, match.winner_id) == ("aborted", "aborted", None)
    assert match.aborted_by_seat == 1


@pytest.mark.django_db
def test_aborting_three_of_the_last_ten_keeps_a_player_out_of_the_pool(fixed_dice):
    quitter = make_user("quitter")
    for index in range(3):
        other = make_user(f"other{index}")
        match = game_services.match_create(creator=other, turn_seconds=60)
        fixed_dice(6, 2)
        game_services.match_accept(user=quitter, match_id=match.pk)
        game_services.match_abort(user=quitter, match_id=match.pk)
    with pytest.raises(CommandError) as refused:
        services.pool_join(user=quitter, pool=TRADITIONAL_1_60)
    assert refused.value.code == "abort_cooldown"
    assert not PoolEntry.objects.exists()
    Match.objects.update(finished_at=timezone.now() - timedelta(minutes=6))
    services.pool_join(user=quitter, pool=TRADITIONAL_1_60)  # the few minutes are over
    assert PoolEntry.objects.filter(user=quitter).exists()
