"""Correspondence matches (docs/rules.md, Platform rules, Correspondence) as services on
PostgreSQL: made like any match, kept by the deadline sweep with no task of their own, missed
turns counted in a row, a limit on open ones, and the hooks that notify."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import hooks, services
from games.effects import AfterCommit
from games.models import Game, Match, MatchStatus, Turn
from games.services.challenges import challenge_direct
from games.services.clocks import matches_close_stale
from games.services.starts import correspondence_open_count
from games.tasks import sweep_deadlines
from nardy import Step
from realtime.errors import CommandError
from tests.factories import make_user

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def correspondence(creator, *, days: int = 3, **settings):
    return services.match_create(
        creator=creator, time_control="correspondence", move_days=days, turn_seconds=None,
        **settings,
    )  # fmt: skip


@pytest.fixture
def corr_match(players, fixed_dice):
    """A rated 3-days-per-move match: the creator won the opening roll 6-2 and plays White."""
    creator, opponent = players
    match = correspondence(creator)
    fixed_dice(6, 2)
    services.match_accept(user=opponent, match_id=match.pk, token=match.invite_token)
    match.refresh_from_db()
    return match


def current_game(match) -> Game:
    return Game.objects.filter(match=match).order_by("-number").first()


def pass_the_deadline(match, by: timedelta = timedelta(seconds=1)) -> Game:
    """How tests drive a clock here: the open turn's start and deadline moved back, as if its
    days had gone by (tests/games/timing.py does the same with seconds)."""
    game = current_game(match)
    shift = game.turn_deadline - timezone.now() + by
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=game.turn_started_at - shift, turn_deadline=game.turn_deadline - shift
    )
    game.refresh_from_db()
    return game


def play_own_turn(user, match_id: int, fixed_dice) -> None:
    match = Match.objects.get(pk=match_id)
    fixed_dice(4, 3)
    version = services.game_roll(user=user, match_id=match_id, version=match.version).version
    version = services.game_step_play(
        user=user, match_id=match_id, version=version, step=Step(24, 20, 4)
    ).version
    services.game_step_play(user=user, match_id=match_id, version=version, step=Step(20, 17, 3))


def effects_of(callbacks):
    return [callback.effects for callback in callbacks if isinstance(callback, AfterCommit)]


def test_a_correspondence_match_has_days_per_turn_and_no_task_of_its_own(
    players, fixed_dice, django_capture_on_commit_callbacks
):
    creator, opponent = players
    match = correspondence(creator, days=2, rated=True)
    assert match.rated and match.move_days == 2 and match.turn_seconds is None
    fixed_dice(6, 2)
    heard = []

    def receiver(sender, **kwargs):
        heard.append(kwargs)

    hooks.correspondence_turn_due.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            services.match_accept(user=opponent, match_id=match.pk, token=match.invite_token)
    finally:
        hooks.correspondence_turn_due.disconnect(receiver)
    game = current_game(match)
    assert game.turn_deadline == game.turn_started_at + 2 * DAY
    effects = effects_of(callbacks)
    # No eta task (days ahead, past the broker's visibility timeout), no reconnect window.
    assert effects and not any(part.deadlines or part.began for part in effects)
    assert [(due.user_id, due.deadline) for part in effects for due in part.turns_due] == [
        (creator.pk, game.turn_deadline)
    ]
    assert heard == [{"signal": hooks.correspondence_turn_due, "user_id": creator.pk,
                      "match_id": match.pk, "deadline": game.turn_deadline}]  # fmt: skip


def test_live_and_correspondence_play_do_not_keep_each_other_out(players, fixed_dice):
    creator, opponent = players
    live = services.match_create(creator=creator, turn_seconds=60)
    fixed_dice(6, 2)
    services.match_accept(user=opponent, match_id=live.pk, token=live.invite_token)
    # Both are in a live match, and start correspondence matches beside it, both ways round.
    for first, second in ((creator, opponent), (opponent, creator)):
        challenge = correspondence(first, private=True)
        fixed_dice(6, 2)
        services.match_accept(user=second, match_id=challenge.pk, token=challenge.invite_token)
        assert Match.objects.get(pk=challenge.pk).status == MatchStatus.ACTIVE
    assert Match.objects.get(pk=live.pk).status == MatchStatus.ACTIVE
    # And one more live match is still refused: the live one counts, the others do not.
    third = make_user()
    other = services.match_create(creator=third, turn_seconds=60)
    with pytest.raises(CommandError) as refused:
        services.match_accept(user=creator, match_id=other.pk, token=other.invite_token)
    assert refused.value.code == "in_a_match"


def test_a_correspondence_start_leaves_the_players_other_challenges_open(players, fixed_dice):
    creator, opponent = players
    live_challenge = services.match_create(creator=opponent, turn_seconds=60)
    challenge = correspondence(creator)
    fixed_dice(6, 2)
    services.match_accept(user=opponent, match_id=challenge.pk, token=challenge.invite_token)
    assert Match.objects.get(pk=live_challenge.pk).status == MatchStatus.OPEN


def test_the_sweep_plays_a_turn_whose_days_ran_out(
    corr_match, players, fixed_dice, django_capture_on_commit_callbacks
):
    creator, opponent = players
    pass_the_deadline(corr_match)
    fixed_dice(6, 5)
    heard = []

    def receiver(sender, **kwargs):
        heard.append(kwargs["user_id"])

    hooks.correspondence_turn_due.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            assert sweep_deadlines() == 1
    finally:
        hooks.correspondence_turn_due.disconnect(receiver)
    turn = Turn.objects.get(game__match=corr_match)
    assert turn.by_server and list(turn.dice) == [6, 5]
    match = Match.objects.get(pk=corr_match.pk)
    assert (match.timeouts_creator, match.status) == (1, MatchStatus.ACTIVE)
    game = current_game(match)
    assert game.turn == "b" and game.turn_deadline > timezone.now() + 3 * DAY - timedelta(minutes=1)
    assert heard == [opponent.pk]  # the opponent's turn now waits


def test_the_third_missed_turn_in_a_row_loses_and_a_turn_played_starts_the_count_again(
    corr_match, players, fixed_dice
):
    white, black = players

    def miss(seat_user) -> Match:
        match = Match.objects.get(pk=corr_match.pk)
        pass_the_deadline(match)
        fixed_dice(2, 1)
        sweep_deadlines()
        return Match.objects.get(pk=corr_match.pk)

    assert miss(white).timeouts_creator == 1
    play_own_turn(black, corr_match.pk, fixed_dice)
    assert miss(white).timeouts_creator == 2
    play_own_turn(black, corr_match.pk, fixed_dice)
    # White plays a turn of their own: two missed turns, but not in a row any more.
    play_own_turn(white, corr_match.pk, fixed_dice)
    match = Match.objects.get(pk=corr_match.pk)
    assert match.timeouts_creator == 0 and match.status == MatchStatus.ACTIVE
    play_own_turn(black, corr_match.pk, fixed_dice)
    for expected in (1, 2):
        assert miss(white).timeouts_creator == expected
        play_own_turn(black, corr_match.pk, fixed_dice)
    match = miss(white)
    assert (match.status, match.end_reason, match.winner) == ("finished", "timeouts", black)


def test_a_live_clock_still_counts_the_whole_match(active_match, players, fixed_dice):
    """The reset is the correspondence clock's only: on the turn clock a turn played keeps the
    count (docs/rules.md, Platform rules, Timed play)."""
    white, black = players
    pass_the_deadline(active_match)
    fixed_dice(2, 1)
    sweep_deadlines()
    play_own_turn(black, active_match.pk, fixed_dice)
    play_own_turn(white, active_match.pk, fixed_dice)
    assert Match.objects.get(pk=active_match.pk).timeouts_creator == 1


def test_out_of_turn_and_replayed_commands_change_nothing(corr_match, players, fixed_dice):
    white, black = players
    version = corr_match.version
    with pytest.raises(CommandError) as refused:
        services.game_roll(user=black, match_id=corr_match.pk, version=version)
    assert refused.value.code == "not_your_turn"
    fixed_dice(4, 3)
    services.game_roll(user=white, match_id=corr_match.pk, version=version)
    with pytest.raises(CommandError):  # the same roll sent again
        services.game_roll(user=white, match_id=corr_match.pk, version=version)
    stranger = make_user()
    with pytest.raises(CommandError):
        services.game_roll(user=stranger, match_id=corr_match.pk, version=None)
    match = Match.objects.get(pk=corr_match.pk)
    assert match.version == version + 1 and current_game(match).dice == [4, 3]


def test_no_abandon_claim_in_a_correspondence_match(corr_match, players):
    _, black = players
    with pytest.raises(CommandError) as refused:
        services.match_claim_abandoned(user=black, match_id=corr_match.pk)
    assert refused.value.code == "correspondence_no_claim"
    assert Match.objects.get(pk=corr_match.pk).status == MatchStatus.ACTIVE


def test_the_stale_closer_leaves_correspondence_matches_alone(corr_match, players):
    creator, _ = players
    long_ago = timezone.now() - timedelta(days=6)
    open_challenge = correspondence(make_user())
    Match.objects.filter(pk__in=[corr_match.pk, open_challenge.pk]).update(
        last_activity_at=long_ago
    )
    matches_close_stale()
    assert Match.objects.get(pk=corr_match.pk).status == MatchStatus.ACTIVE
    assert Match.objects.get(pk=open_challenge.pk).status == MatchStatus.OPEN


@pytest.mark.parametrize(
    "settings_given",
    [
        {"move_days": 4},
        {"move_days": 0},
        {"move_days": -1},
        {"move_days": 10**9},
        {"move_days": "3"},
        {"move_days": [3]},
        {"move_days": None},
        {"move_days": 3, "time_control": "turn", "turn_seconds": 60},
        {"move_days": 3, "time_control": "omerta"},
    ],
)
def test_days_per_move_other_than_offered_are_refused(players, settings_given):
    creator, _ = players
    arguments = {"time_control": "correspondence", "turn_seconds": None, **settings_given}
    with pytest.raises(CommandError) as refused:
        services.match_create(creator=creator, **arguments)
    assert refused.value.code == "bad_field"
    assert not Match.objects.exists()


def test_a_guest_cannot_make_a_correspondence_match(db):
    guest = make_user(is_guest=True)
    with pytest.raises(CommandError) as refused:
        correspondence(guest, rated=False)
    assert refused.value.code == "guest_not_allowed"


def test_open_correspondence_matches_are_limited(players, fixed_dice, settings):
    settings.CORRESPONDENCE_MATCHES_MAX = 2
    creator, opponent = players
    for _ in range(2):
        challenge = correspondence(creator, private=True)
        fixed_dice(6, 2)
        services.match_accept(user=opponent, match_id=challenge.pk, token=challenge.invite_token)
    assert correspondence_open_count(creator.pk) == 2
    # A third: refused to its creator when made, and to either player when accepted.
    with pytest.raises(CommandError) as refused:
        correspondence(creator, private=True)
    assert refused.value.code == "too_many_correspondence"
    newcomer = make_user()
    offered = correspondence(newcomer, private=True)
    with pytest.raises(CommandError) as refused:
        services.match_accept(user=creator, match_id=offered.pk, token=offered.invite_token)
    assert refused.value.code == "too_many_correspondence"
    assert "Open correspondence matches are limited to 2" in refused.value.message
    # One of the creator's ends: room for one again.
    finished = Match.objects.filter(creator=creator, status=MatchStatus.ACTIVE).first()
    services.match_resign(user=creator, match_id=finished.pk)
    waiting = correspondence(creator, private=True)
    assert correspondence_open_count(creator.pk) == 2  # one being played, this one offered
    settings.CORRESPONDENCE_MATCHES_MAX = 1
    with pytest.raises(CommandError) as refused:
        services.match_accept(user=newcomer, match_id=waiting.pk, token=waiting.invite_token)
    assert refused.value.code == "too_many_correspondence"
    assert "Your opponent" in refused.value.message
    # The challenge being accepted is not counted twice: at 2 it starts.
    settings.CORRESPONDENCE_MATCHES_MAX = 2
    fixed_dice(6, 2)
    services.match_accept(user=newcomer, match_id=waiting.pk, token=waiting.invite_token)
    assert Match.objects.get(pk=waiting.pk).status == MatchStatus.ACTIVE


def test_a_thousand_open_correspondence_matches_are_refused_past_the_limit(
    players, fixed_dice, settings
):
    """A flood: the player keeps making challenges; past the limit every one is refused."""
    settings.CORRESPONDENCE_MATCHES_MAX = 5
    settings.PRIVATE_CHALLENGES_PER_HOUR = 10_000
    creator, _ = players
    made = refused = 0
    for _ in range(1000):
        try:
            correspondence(creator, private=True)
            made += 1
        except CommandError as error:
            assert error.code == "too_many_correspondence"
            refused += 1
    assert (made, refused) == (5, 995)
    assert Match.objects.filter(creator=creator).count() == 5


def test_a_direct_correspondence_challenge_waits_days_with_no_expiry_task(
    players, settings, monkeypatch, django_capture_on_commit_callbacks
):
    from games import tasks

    creator, opponent = players
    scheduled = []
    monkeypatch.setattr(
        tasks.expire_challenge, "apply_async", lambda *args, **kwargs: scheduled.append(kwargs)
    )
    with django_capture_on_commit_callbacks(execute=True):
        live = challenge_direct(creator=opponent, invited=creator, turn_seconds=60)
    assert len(scheduled) == 1  # a live one has its two minutes' task
    services.match_cancel(user=opponent, match_id=live.pk)
    with django_capture_on_commit_callbacks(execute=True):
        challenge = challenge_direct(
            creator=creator, invited=opponent, time_control="correspondence", move_days=5,
            turn_seconds=None,
        )  # fmt: skip
    left = challenge.expires_at - timezone.now()
    assert timedelta(days=settings.CORRESPONDENCE_CHALLENGE_DAYS) - left < timedelta(minutes=1)
    assert len(scheduled) == 1  # left to the beat's sweep


def test_a_rated_correspondence_match_moves_the_correspondence_rating_only(
    corr_match, players, django_capture_on_commit_callbacks
):
    from moderation.services import match_annul
    from ratings.models import CorrespondenceRating, CorrespondenceRatingChange, Rating
    from ratings.selectors import ratings_of

    white, black = players
    services.match_resign(user=white, match_id=corr_match.pk)
    assert not Rating.objects.filter(user__in=players).exists()  # the live board is untouched
    rows = {row.user_id: row for row in CorrespondenceRating.objects.all()}
    assert rows[black.pk].rating > 1500 > rows[white.pk].rating
    assert (rows[black.pk].wins, rows[black.pk].matches, rows[white.pk].matches) == (1, 1, 1)
    shown = ratings_of([black.pk], correspondence=True)[black.pk]
    assert shown.value == round(rows[black.pk].rating)
    assert ratings_of([black.pk])[black.pk].value == 1500
    # Annulled: taken back exactly, once.
    staff = make_user(is_staff=True, is_superuser=True)
    match_annul(moderator=staff, match_id=corr_match.pk, reason="test")
    rows = {row.user_id: row for row in CorrespondenceRating.objects.all()}
    assert rows[black.pk].rating == rows[white.pk].rating == 1500
    assert rows[black.pk].matches == rows[black.pk].wins == rows[white.pk].matches == 0
    # No correspondence match of theirs counts now: no last rated one either.
    assert rows[black.pk].last_rated_at is None and rows[white.pk].last_rated_at is None
    assert CorrespondenceRatingChange.objects.filter(reverted_at__isnull=True).count() == 0
    # Applying it again (a late hook) changes nothing: the match was applied once.
    from ratings.services import rating_apply_match

    corr_match.refresh_from_db()
    assert rating_apply_match(match=corr_match, winner_id=black.pk, loser_id=white.pk) == {}
    assert CorrespondenceRating.objects.get(user=black).rating == 1500
    assert not Rating.objects.filter(user__in=players).exists()


FORM = {
    "rule_set_name": "traditional", "length": "", "turn_seconds": "60", "reserve_seconds": "0",
    "rated": "on", "head_exception": "classic", "opening": "reroll",
}  # fmt: skip


def test_the_play_form_makes_a_correspondence_match(client, players):
    creator, _ = players
    client.force_login(creator)
    client.post("/matches/new/", {**FORM, "time_control": "correspondence", "move_days": "5"})
    match = Match.objects.get(creator=creator)
    assert (match.time_control, match.move_days, match.turn_seconds, match.rated) == (
        "correspondence", 5, None, True,
    )  # fmt: skip


@pytest.mark.parametrize("days", ["4", "0", "-3", "x" * 10_000, "1e9", ""])
def test_the_play_form_refuses_days_it_does_not_offer(client, players, days):
    creator, _ = players
    client.force_login(creator)
    page = client.post(
        "/matches/new/", {**FORM, "time_control": "correspondence", "move_days": days}
    )
    assert page.status_code == 400 and not Match.objects.exists()


def test_days_posted_with_a_live_clock_are_dropped(client, players):
    creator, _ = players
    client.force_login(creator)
    client.post("/matches/new/", {**FORM, "time_control": "turn", "move_days": "3"})
    match = Match.objects.get(creator=creator)
    assert (match.time_control, match.move_days, match.turn_seconds) == ("turn", None, 60)


def test_tournaments_are_never_correspondence(players):
    from tournaments.services.players import tournament_create

    creator, _ = players
    with pytest.raises(CommandError) as refused:
        tournament_create(
            user=creator, name="slow", rule_set_name="traditional", length=1,
            time_control="correspondence", turn_seconds=60, rated=False, minutes=60,
            starts_at=timezone.now() + timedelta(minutes=10), private=False,
        )  # fmt: skip
    assert refused.value.code == "bad_field"
