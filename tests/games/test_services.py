"""Every match command on PostgreSQL, and every refusal changing nothing."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, Match, Turn
from games.services import CommandError
from nardy import START_BOARD, Step
from tests.factories import make_user
from tests.threads import run_together

pytestmark = pytest.mark.django_db


def state(match_id: int) -> tuple:
    """Everything a command could change, to prove a refusal changed nothing."""
    match = Match.objects.get(pk=match_id)
    game = match.games.order_by("-number").first()
    return (
        match.status, match.version, match.score_creator, match.score_opponent,
        tuple(game.board), game.turn, game.phase, tuple(game.dice or ()), str(game.steps),
        Turn.objects.filter(game__match=match).count(),
    )  # fmt: skip


def refuse(code: str, call, match_id: int, **arguments) -> None:
    before = state(match_id)
    with pytest.raises(CommandError) as refused:
        call(match_id=match_id, **arguments)
    assert refused.value.code == code, refused.value.message
    assert state(match_id) == before


def test_create_and_accept_starts_game_one_with_the_opening_roll(players, fixed_dice):
    creator, opponent = players
    match = services.match_create(creator=creator, rule_set_name="tournament", turn_seconds=90)
    assert match.status == "open"
    assert (match.length, match.six_block, match.undo_allowed) == (5, "every_step", False)
    fixed_dice(3, 3, 2, 5)  # a tie, rolled again: the opponent's 5 beats the creator's 2
    services.match_accept(user=opponent, match_id=match.pk)
    match.refresh_from_db()
    game = match.games.get()
    assert match.status == "active"
    assert game.white_seat == 1
    assert (game.opening_white, game.opening_black, game.opening_ties) == (5, 2, [[3, 3]])
    assert tuple(game.board) == START_BOARD
    assert (game.turn, game.phase) == ("w", "roll")


def test_play_roll_opening_plays_the_opening_numbers(players, fixed_dice):
    creator, opponent = players
    match = services.match_create(creator=creator, opening="play_roll")
    fixed_dice(4, 6)
    services.match_accept(user=opponent, match_id=match.pk)
    game = Game.objects.get(match=match)
    assert game.white_seat == 1
    assert (game.phase, list(game.dice)) == ("move", [6, 4])


def test_creating_refuses_bad_settings_and_a_second_open_challenge(players):
    creator, _ = players
    with pytest.raises(CommandError) as refused:
        services.match_create(creator=creator, length=4)
    assert refused.value.code == "bad_field"
    with pytest.raises(CommandError) as refused:
        services.match_create(creator=creator, turn_seconds=None, rated=True)
    assert refused.value.code == "bad_field"
    services.match_create(creator=creator)
    with pytest.raises(CommandError) as refused:
        services.match_create(creator=creator)
    assert refused.value.code == "already_open"
    assert Match.objects.filter(creator=creator).count() == 1
    services.match_create(creator=creator, private=True, rated=False, turn_seconds=None)


def test_accept_refusals(players, fixed_dice):
    creator, opponent = players
    match = services.match_create(creator=creator, private=True)
    with pytest.raises(CommandError) as refused:
        services.match_accept(user=creator, match_id=match.pk, token=match.invite_token)
    assert refused.value.code == "not_a_player"
    with pytest.raises(CommandError) as refused:
        services.match_accept(user=opponent, match_id=match.pk, token="forged")
    assert refused.value.code == "not_found"
    fixed_dice(1, 2)
    services.match_accept(user=opponent, match_id=match.pk, token=match.invite_token)
    with pytest.raises(CommandError) as refused:
        services.match_accept(user=make_user(), match_id=match.pk, token=match.invite_token)
    assert refused.value.code == "match_not_active"


def test_cancel_only_by_creator_and_only_while_open(players, fixed_dice):
    creator, opponent = players
    match = services.match_create(creator=creator)
    with pytest.raises(CommandError):
        services.match_cancel(user=opponent, match_id=match.pk)
    services.match_cancel(user=creator, match_id=match.pk)
    assert Match.objects.get(pk=match.pk).status == "cancelled"
    with pytest.raises(CommandError):
        services.match_accept(user=opponent, match_id=match.pk)


def test_roll_and_steps_complete_a_turn(active_match, players, fixed_dice):
    white, black = players
    version = active_match.version
    fixed_dice(5, 3)
    match = services.game_roll(user=white, match_id=active_match.pk, version=version)
    game = Game.objects.get(match=match)
    assert (game.phase, list(game.dice)) == ("move", [5, 3])
    match = services.game_step_play(
        user=white, match_id=match.pk, version=match.version, step=Step(24, 19, 5)
    )
    game.refresh_from_db()
    assert game.steps == [[24, 19, 5]] and game.turn == "w"
    match = services.game_step_play(
        user=white, match_id=match.pk, version=match.version, step=Step(19, 16, 3)
    )
    game.refresh_from_db()
    assert (game.turn, game.phase, game.dice, game.steps) == ("b", "roll", None, [])
    turn = Turn.objects.get(game=game)
    assert (turn.number, turn.side, turn.player, list(turn.dice)) == (1, "w", white, [5, 3])
    assert turn.steps == [[24, 19, 5], [19, 16, 3]] and not turn.by_server
    assert game.board[15] == 1 and game.board[23] == 14


def test_refusals_change_nothing(active_match, players, fixed_dice):
    white, black = players
    spectator = make_user("spectator")
    match_id = active_match.pk
    version = active_match.version
    refuse("not_your_turn", services.game_roll, match_id, user=black, version=version)
    refuse("not_a_player", services.game_roll, match_id, user=spectator, version=version)
    refuse("stale_version", services.game_roll, match_id, user=white, version=version - 1)
    refuse("not_rolled", services.game_step_play, match_id, user=white, version=version,
           step=Step(24, 19, 5))  # fmt: skip
    fixed_dice(5, 3)
    version = services.game_roll(user=white, match_id=match_id, version=version).version
    refuse("already_rolled", services.game_roll, match_id, user=white, version=version)
    # Not a die of this roll; through the opponent's head; two checkers from the head.
    refuse("illegal_step", services.game_step_play, match_id, user=white, version=version,
           step=Step(24, 20, 4))  # fmt: skip
    refuse("not_your_turn", services.game_step_play, match_id, user=black, version=version,
           step=Step(24, 19, 5))  # fmt: skip
    refuse("nothing_to_undo", services.game_turn_undo, match_id, user=white, version=version)
    version = services.game_step_play(
        user=white, match_id=match_id, version=version, step=Step(24, 19, 5)
    ).version
    refuse(
        "illegal_step",
        services.game_step_play,
        match_id,
        user=white,
        version=version,
        step=Step(24, 21, 3),
    )  # fmt: skip  (a second checker from the head)
    refuse("not_a_player", services.match_resign, match_id, user=spectator)


def test_a_step_sent_twice_is_applied_once(active_match, players, fixed_dice):
    white, _ = players
    fixed_dice(6, 1)
    version = services.game_roll(
        user=white, match_id=active_match.pk, version=active_match.version
    ).version
    services.game_step_play(
        user=white, match_id=active_match.pk, version=version, step=Step(24, 18, 6)
    )
    refuse("stale_version", services.game_step_play, active_match.pk, user=white, version=version,
           step=Step(24, 18, 6))  # fmt: skip
    game = Game.objects.get(match=active_match)
    assert game.steps == [[24, 18, 6]]
    assert game.board[23] == 14 and game.board[17] == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_step_sent_at_once_from_three_tabs_is_applied_once(
    active_match, players, fixed_dice
):
    """Three threads, three transactions: the first to lock the match plays the step; the others
    then see its version and are refused."""
    white, _ = players
    fixed_dice(6, 1)
    version = services.game_roll(
        user=white, match_id=active_match.pk, version=active_match.version
    ).version
    outcomes = []

    def send() -> None:
        try:
            services.game_step_play(user=white, match_id=active_match.pk, version=version,
                                    step=Step(24, 18, 6))  # fmt: skip
            outcomes.append("applied")
        except CommandError as error:
            outcomes.append(error.code)

    run_together(send, send, send)
    assert sorted(outcomes) == ["applied", "stale_version", "stale_version"]
    game = Game.objects.get(match=active_match)
    assert game.steps == [[24, 18, 6]] and game.board[23] == 14 and game.board[17] == 1
    assert Match.objects.get(pk=active_match.pk).version == version + 1


def test_undo_in_traditional_and_refused_in_tournament(players, fixed_dice):
    white, black = players
    match = services.match_create(creator=white)
    fixed_dice(6, 2)
    services.match_accept(user=black, match_id=match.pk)
    match.refresh_from_db()
    fixed_dice(5, 3)
    version = services.game_roll(user=white, match_id=match.pk, version=match.version).version
    version = services.game_step_play(
        user=white, match_id=match.pk, version=version, step=Step(24, 19, 5)
    ).version
    version = services.game_turn_undo(user=white, match_id=match.pk, version=version).version
    game = Game.objects.get(match=match)
    assert game.steps == [] and tuple(game.board) == START_BOARD and game.phase == "move"

    services.match_resign(user=black, match_id=match.pk)  # one match at a time per player
    tournament = services.match_create(creator=black, rule_set_name="tournament")
    fixed_dice(6, 2)
    services.match_accept(user=white, match_id=tournament.pk)
    tournament.refresh_from_db()
    fixed_dice(5, 3)
    version = services.game_roll(
        user=black, match_id=tournament.pk, version=tournament.version
    ).version
    version = services.game_step_play(
        user=black, match_id=tournament.pk, version=version, step=Step(24, 19, 5)
    ).version
    refuse("undo_not_allowed", services.game_turn_undo, tournament.pk, user=black, version=version)


def test_a_roll_with_no_legal_step_passes_by_itself(active_match, players, fixed_dice):
    white, black = players
    # Black's checkers sit on White's points 18..13 except one — build the position directly.
    game = Game.objects.get(match=active_match)
    board = [0] * 24
    board[23] = 15  # White: all on the head
    for index in (17, 18, 20, 21, 22):  # White's points 18, 19, 21, 22, 23: blocked for 6-5
        board[index] = -2
    board[11] = -5
    game.board = game.turn_board = board
    game.save()
    fixed_dice(6, 5)
    match = services.game_roll(user=white, match_id=active_match.pk, version=active_match.version)
    game.refresh_from_db()
    turn = Turn.objects.get(game=game)
    assert turn.steps == [] and list(turn.dice) == [6, 5]
    assert (game.turn, game.phase) == ("b", "roll")
    assert match.version == active_match.version + 2  # rolled, then the turn passed


def test_auto_roll_preference_rolls_at_turn_start(active_match, players, fixed_dice):
    white, black = players
    black.auto_roll = True
    black.save()
    fixed_dice(5, 3, 2, 1)
    version = services.game_roll(
        user=white, match_id=active_match.pk, version=active_match.version
    ).version
    version = services.game_step_play(
        user=white, match_id=active_match.pk, version=version, step=Step(24, 19, 5)
    ).version
    services.game_step_play(
        user=white, match_id=active_match.pk, version=version, step=Step(19, 16, 3)
    )
    game = Game.objects.get(match=active_match)
    assert (game.turn, game.phase, list(game.dice)) == ("b", "move", [2, 1])


def test_resign_loses_the_match_and_updates_ratings(active_match, players):
    white, black = players
    services.match_resign(user=black, match_id=active_match.pk)
    match = Match.objects.get(pk=active_match.pk)
    assert (match.status, match.winner, match.end_reason) == ("finished", white, "resigned")
    assert white.rating.value > 1500 > black.rating.value
    refuse("match_not_active", services.match_resign, match.pk, user=white)
    refuse("match_not_active", services.game_roll, match.pk, user=white, version=match.version)


def test_leaving_the_table_is_resigning(active_match, players):
    white, black = players
    services.match_resign(user=white, match_id=active_match.pk, left_table=True)
    match = Match.objects.get(pk=active_match.pk)
    assert (match.winner, match.end_reason) == (black, "left")


def test_rematch_offer_accept_and_decline(active_match, players, fixed_dice):
    white, black = players
    with pytest.raises(CommandError):
        services.match_rematch_offer(user=white, match_id=active_match.pk)
    services.match_resign(user=black, match_id=active_match.pk)
    services.match_rematch_offer(user=black, match_id=active_match.pk)
    services.match_rematch_decline(user=white, match_id=active_match.pk)
    match = Match.objects.get(pk=active_match.pk)
    assert match.rematch_offered_by is None and match.rematch_declined
    services.match_rematch_offer(user=white, match_id=active_match.pk)
    fixed_dice(2, 4)
    services.match_rematch_offer(user=black, match_id=active_match.pk)
    match.refresh_from_db()
    rematch = match.rematch
    assert rematch.status == "active" and {rematch.creator, rematch.opponent} == {white, black}
    assert rematch.games.get().white_seat == 1


def play_to_the_end(match_id: int, players, fixed_dice, choose=None) -> None:
    """Both players play the server's own chosen turn (or `choose(mover, turn)`'s steps) until the
    match ends (random dice)."""
    from games.services.state_rows import match_state_of
    from nardy import choose_turn

    if choose is None:

        def choose(mover, turn):
            return choose_turn(turn.start_board, turn.side, turn.dice, turn.first_turn, turn.rules)

    users = {user.pk: user for user in players}
    for _ in range(2000):
        match = Match.objects.get(pk=match_id)
        if match.status != "active":
            return
        game = match.games.order_by("-number").first()
        mover = users[match.player_id(game.seat_of_side(game.turn))]
        if game.phase == "roll":
            services.game_roll(user=mover, match_id=match_id, version=match.version)
            continue
        steps = choose(mover, match_state_of(match, game).turn_state())
        for step in steps[len(game.steps) :]:
            match = services.game_step_play(
                user=mover, match_id=match_id, version=match.version, step=step
            )
    raise AssertionError("the match did not end")


def test_a_three_point_match_is_played_to_its_end(players, fixed_dice):
    white, black = players
    match = services.match_create(creator=white, length=3)
    services.match_accept(user=black, match_id=match.pk)
    play_to_the_end(match.pk, players, fixed_dice)
    match.refresh_from_db()
    assert match.status == "finished" and match.end_reason == "finished"
    winner_seat = match.seat_of(match.winner_id)
    assert match.scores[winner_seat] >= 3 > match.scores[1 - winner_seat]
    games = list(match.games.order_by("number"))
    assert (
        sum(game.points for game in games if game.seat_of_side(game.winner_side) == winner_seat)
        == match.scores[winner_seat]
    )
    for previous, following in zip(games, games[1:], strict=False):
        # The previous winner starts the next game and plays White.
        assert following.white_seat == previous.seat_of_side(previous.winner_side)
        assert following.opening_white is None
    for game in games:
        turns = list(game.turns.order_by("number"))
        assert [turn.number for turn in turns] == list(range(1, len(turns) + 1))
        assert list(turns[-1].board_after) == list(game.board)
