"""Playing the computer through the services (games/services/bots.py): the bot acts through the
engine like a person, one step per call, schedules itself after commit, answers rematches, and
guests play it casual only. The real worker and sockets: tests/integration/test_bot_matches.py."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.db.models import Q

from games import services
from games.effects import AfterCommit
from games.models import Match, MatchStatus, Turn
from games.services.bots import bot_account, bot_act
from games.services.runners import locked
from nardy import choose_rest_of_turn, net
from ratings.models import Rating
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def _bot_seat(match: Match) -> int:
    return 0 if match.creator.is_bot else 1


def _play_person_turn(match_id: int, person) -> None:
    """The person rolls and plays its turn step by step (the Club chooser picks the steps)."""
    from django.db import transaction

    with transaction.atomic():
        context = locked(match_id)
        game, version = context.game, context.match.version
    if game.phase == "roll":
        services.game_roll(user=person, match_id=match_id, version=version)
        return
    with transaction.atomic():
        context = locked(match_id)
        turn = context.state.turn_state()
        version = context.match.version
    step = choose_rest_of_turn(turn)[0]
    services.game_step_play(user=person, match_id=match_id, version=version, step=step)


def _play_out(match: Match, person) -> Match:
    """Alternate the bot (through `bot_act`, as its Celery task would) and the person until
    the match ends."""
    for _ in range(3000):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            return match
        game = match.games.order_by("-number").first()
        mover_seat = game.white_seat if game.turn == "w" else 1 - game.white_seat
        if match.player_id(mover_seat) == person.pk:
            _play_person_turn(match.pk, person)
        else:
            bot_act(match_id=match.pk, version=match.version)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("level", ["beginner", "club", "master", "expert"])
def test_a_whole_match_against_each_level(level, fixed_dice, django_capture_on_commit_callbacks):
    person = make_user("human")
    with django_capture_on_commit_callbacks(execute=False):
        match = services.match_create_vs_bot(user=person, level=level, turn_seconds=60)
    assert match.status == MatchStatus.ACTIVE and match.opponent.bot_level == level
    assert not match.rated and match.private
    match = _play_out(match, person)
    assert match.status == MatchStatus.FINISHED and match.end_reason == "finished"
    bot = bot_account(level)
    bot_turns = Turn.objects.filter(game__match=match, player=bot)
    assert bot_turns.exists() and not bot_turns.filter(by_server=True).exists()
    # A casual match: nobody's rating moved.
    assert not Rating.objects.filter(user__in=[person, bot]).exclude(matches=0).exists()


def test_the_bot_is_scheduled_after_commit_while_it_is_to_act(
    fixed_dice, django_capture_on_commit_callbacks
):
    person = make_user("starter")
    fixed_dice(2, 6)  # the opening roll: the bot (seat 1) rolls 6 and starts
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        match = services.match_create_vs_bot(user=person, level="club", turn_seconds=30)
    # The bot rolls automatically (its account's auto-roll) and its first step is scheduled.
    assert _scheduled_bot_work(callbacks) == 1, callbacks
    match.refresh_from_db()
    game = match.games.get()
    assert game.white_seat == 1 and game.phase == "move"
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        bot_act(match_id=match.pk, version=match.version)
    match.refresh_from_db()
    assert match.games.get().steps  # one step played
    assert _scheduled_bot_work(callbacks) == 1


def test_a_stale_bot_task_does_nothing(fixed_dice):
    person = make_user("p1")
    fixed_dice(2, 6)
    match = services.match_create_vs_bot(user=person, level="beginner", turn_seconds=None)
    match.refresh_from_db()
    version = match.version
    bot_act(match_id=match.pk, version=version - 1)
    match.refresh_from_db()
    assert match.version == version
    bot_act(match_id=10**9, version=1)  # a match that is gone: nothing happens


def test_the_bot_offers_a_rematch_and_accepts_the_persons(fixed_dice):
    person = make_user("again")
    match = services.match_create_vs_bot(user=person, level="beginner", turn_seconds=60)
    services.match_resign(user=person, match_id=match.pk)
    match.refresh_from_db()
    bot_act(match_id=match.pk, version=match.version)
    match.refresh_from_db()
    assert match.rematch_offered_by == _bot_seat(match)
    # The bot does not offer twice.
    version = match.version
    bot_act(match_id=match.pk, version=version)
    match.refresh_from_db()
    assert match.version == version
    services.match_rematch_offer(user=person, match_id=match.pk)
    match.refresh_from_db()
    assert match.rematch is not None and match.rematch.status == MatchStatus.ACTIVE
    # And the other way round: the person offers, the bot accepts at once (no task waits).
    services.match_resign(user=person, match_id=match.rematch_id)
    services.match_rematch_offer(user=person, match_id=match.rematch_id)
    second = Match.objects.get(pk=match.rematch_id)
    assert second.rematch is not None and second.rematch.status == MatchStatus.ACTIVE
    assert second.rematch.creator.is_bot  # the accepting side takes seat 0, as between people


def test_a_declined_rematch_is_not_offered_again(fixed_dice):
    person = make_user("enough")
    match = services.match_create_vs_bot(user=person, level="club", turn_seconds=60)
    services.match_resign(user=person, match_id=match.pk)
    match.refresh_from_db()
    bot_act(match_id=match.pk, version=match.version)
    services.match_rematch_decline(user=person, match_id=match.pk)
    match.refresh_from_db()
    version = match.version
    bot_act(match_id=match.pk, version=version)
    match.refresh_from_db()
    assert match.version == version and match.rematch_id is None


def test_the_expert_does_not_start_on_damaged_weights(monkeypatch, fixed_dice, caplog):
    person = make_user("wants_expert")
    good = net._package_bytes()
    try:
        for broken in (None, good[: len(good) // 2], good + b"tampered"):
            monkeypatch.setattr(net, "_package_bytes", lambda broken=broken: broken)
            net.load.cache_clear()
            with pytest.raises(services.CommandError) as refused:
                services.match_create_vs_bot(user=person, level="expert")
            assert refused.value.code == "bot_unavailable"
            assert "Expert level is not available" in refused.value.message
            assert not Match.objects.filter(creator=person).exists()
        assert "weights file" in caplog.text  # the log says why, for the operator
        # The other levels play on.
        match = services.match_create_vs_bot(user=person, level="master")
        assert match.status == MatchStatus.ACTIVE
    finally:
        net.load.cache_clear()


def test_one_match_against_the_computer_at_a_time(fixed_dice):
    person = make_user("busy")
    first = services.match_create_vs_bot(user=person, level="club")
    with pytest.raises(services.CommandError) as refused:
        services.match_create_vs_bot(user=person, level="master")
    assert refused.value.code == "already_playing_bot"
    services.match_resign(user=person, match_id=first.pk)
    # A rematch the bot accepted has the bot in seat 0: it counts too.
    services.match_rematch_offer(user=person, match_id=first.pk)
    rematch = Match.objects.get(pk=first.pk).rematch
    assert rematch.creator.is_bot and rematch.opponent_id == person.pk
    with pytest.raises(services.CommandError):
        services.match_create_vs_bot(user=person, level="master")
    services.match_resign(user=person, match_id=rematch.pk)
    services.match_create_vs_bot(user=person, level="master")


def _finished_with_the_bots_offer(person, level: str = "master") -> Match:
    """A match against the computer the person resigned, and the bot's rematch offer on it."""
    match = services.match_create_vs_bot(user=person, level=level)
    services.match_resign(user=person, match_id=match.pk)
    match.refresh_from_db()
    bot_act(match_id=match.pk, version=match.version)
    match.refresh_from_db()
    assert match.rematch_offered_by == _bot_seat(match)
    return match


def _live_bot_matches(person) -> int:
    return Match.objects.filter(
        Q(creator=person, opponent__is_bot=True) | Q(opponent=person, creator__is_bot=True),
        status=MatchStatus.ACTIVE,
    ).count()


def test_the_bots_rematch_offers_do_not_add_up_to_several_live_matches(fixed_dice):
    """The reported bypass: resign, let the bot offer a rematch, start another match against it,
    repeat; then accept every offer. Only the first acceptance may start a match."""
    person = make_user("collector")
    offers = [_finished_with_the_bots_offer(person) for _ in range(4)]
    refusals = []
    for match in offers:
        try:
            services.match_rematch_offer(user=person, match_id=match.pk)
        except services.CommandError as refused:
            refusals.append(refused.code)
    assert refusals == ["in_a_match"] * 3
    assert _live_bot_matches(person) == 1
    assert sum(Match.objects.get(pk=match.pk).rematch_id is not None for match in offers) == 1


@pytest.mark.django_db(transaction=True)
def test_accepting_the_bots_offers_from_several_tabs_at_once_starts_one_match(fixed_dice):
    from tests.threads import run_together

    person = make_user("many_tabs")
    offers = [_finished_with_the_bots_offer(person, "beginner") for _ in range(4)]
    results: list[object] = []

    def accept(match_id: int):
        def run() -> None:
            try:
                results.append(services.match_rematch_offer(user=person, match_id=match_id))
            except services.CommandError as refused:
                results.append(refused.code)

        return run

    run_together(*(accept(match.pk) for match in offers))
    assert sorted(map(str, results)).count("in_a_match") == 3, results
    assert _live_bot_matches(person) == 1


def _scheduled_bot_work(callbacks) -> int:
    """The bot tasks the captured after-commit work would schedule (games/effects.py)."""
    return sum(
        len(callback.effects.bot_turns)
        for callback in callbacks
        if isinstance(callback, AfterCommit)
    )


def test_offering_and_withdrawing_on_a_finished_bot_match_queues_no_bot_work(
    fixed_dice, django_capture_on_commit_callbacks
):
    """A person playing the computer offers a rematch on an old match and withdraws it, again
    and again: before the fix each offer queued a bot task (and stood for the bot to accept)."""
    person = make_user("spammer")
    old = _finished_with_the_bots_offer(person, "club")
    services.match_rematch_decline(user=person, match_id=old.pk)
    services.match_create_vs_bot(user=person, level="club")  # playing the computer now
    old.refresh_from_db()
    version = old.version
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        for _ in range(5):
            with pytest.raises(services.CommandError) as refused:
                services.match_rematch_offer(user=person, match_id=old.pk)
            assert refused.value.code == "in_a_match"
            with pytest.raises(services.CommandError):
                services.match_rematch_decline(user=person, match_id=old.pk)
    assert _scheduled_bot_work(callbacks) == 0 and not callbacks
    old.refresh_from_db()
    assert old.version == version and old.rematch_offered_by is None


def test_a_persons_offer_to_the_computer_leaves_nothing_for_the_bot_to_answer(
    fixed_dice, django_capture_on_commit_callbacks
):
    """The offer starts the rematch in the person's own command: no offer stands, no bot task
    is queued for the finished match, and there is nothing left to withdraw."""
    person = make_user("quick_again")
    match = services.match_create_vs_bot(user=person, level="club")
    services.match_resign(user=person, match_id=match.pk)
    fixed_dice(2, 6)  # the rematch's opening roll: the person (seat 1 there) moves first
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.match_rematch_offer(user=person, match_id=match.pk)
    match.refresh_from_db()
    assert match.rematch is not None and match.rematch_offered_by is None
    assert _scheduled_bot_work(callbacks) == 0  # the person is to move in the rematch
    with pytest.raises(services.CommandError) as refused:
        services.match_rematch_decline(user=person, match_id=match.pk)
    assert refused.value.code == "match_not_finished"


@pytest.mark.django_db(transaction=True)
def test_concurrent_creates_start_one_match_against_the_computer(settings):
    person = make_user("twotabs")
    results: list[object] = []

    def create() -> None:
        try:
            results.append(services.match_create_vs_bot(user=person, level="beginner"))
        except services.CommandError as error:
            results.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=create) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(isinstance(result, Match) for result in results) == 1
    assert results.count("already_playing_bot") == 3


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"level": "grandmaster"}, "bad_field"),
        ({"level": "club", "rule_set_name": "backgammon"}, "bad_field"),
        ({"level": "club", "length": 4}, "bad_field"),
        ({"level": "club", "rated": True, "turn_seconds": None}, "bad_field"),
    ],
)
def test_bad_settings_are_refused_and_change_nothing(fields, code):
    person = make_user("careless")
    before = Match.objects.count()
    with pytest.raises(services.CommandError) as refused:
        services.match_create_vs_bot(user=person, **fields)
    assert refused.value.code == code
    assert Match.objects.count() == before


def test_a_rated_match_against_the_computer_moves_ratings_but_not_the_wins_boards(fixed_dice):
    person = make_user("ambitious")
    match = services.match_create_vs_bot(user=person, level="master", rated=True, turn_seconds=60)
    services.match_resign(user=person, match_id=match.pk)
    person_rating = Rating.objects.get(user=person)
    bot_rating = Rating.objects.get(user=match.opponent)
    assert person_rating.rating < 1500 < bot_rating.rating
    assert person_rating.matches == 0 and bot_rating.wins == 0  # the wins boards' counters
    from ratings.models import PeriodWins

    assert not PeriodWins.objects.filter(user__in=[person, match.opponent]).exists()
    from ratings.services import rating_revert_match

    assert rating_revert_match(match_id=match.pk) == 2
    person_rating.refresh_from_db()
    assert person_rating.rating == 1500 and person_rating.matches == 0


def test_guests_play_the_computer_casual_only():
    from accounts.guests import guest_create

    guest = guest_create(address="198.51.100.7")
    with pytest.raises(services.CommandError) as refused:
        services.match_create_vs_bot(user=guest, level="club", rated=True)
    assert refused.value.code == "guest_not_rated"
    match = services.match_create_vs_bot(user=guest, level="club")
    assert not match.rated


def test_bots_do_not_challenge():
    with pytest.raises(services.CommandError):
        services.match_create_vs_bot(user=bot_account("club"), level="master")


def test_a_bot_whose_task_was_lost_is_nudged_by_the_sweep(fixed_dice):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Game
    from games.services.bots import bots_nudge_stuck

    person = make_user("patient")
    fixed_dice(2, 6)  # the bot wins the opening roll and is to move
    match = services.match_create_vs_bot(user=person, level="club", turn_seconds=None)
    assert bots_nudge_stuck() == 0  # its turn has just begun: its own task will come
    Game.objects.filter(match=match).update(turn_started_at=timezone.now() - timedelta(minutes=1))
    version = Match.objects.get(pk=match.pk).version
    assert bots_nudge_stuck() == 1
    assert Match.objects.get(pk=match.pk).version == version + 1  # one step played
    # A person's own turn is never nudged.
    other = make_user("slowpoke")
    fixed_dice(6, 2)  # the person starts
    mine = services.match_create_vs_bot(user=other, level="club", turn_seconds=None)
    Game.objects.filter(match=mine).update(turn_started_at=timezone.now() - timedelta(minutes=1))
    before = Match.objects.get(pk=mine.pk).version
    bots_nudge_stuck()
    assert Match.objects.get(pk=mine.pk).version == before
