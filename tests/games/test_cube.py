"""The doubling cube and the new rule options through the services, the database, the export and
the match socket."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from games import selectors, services
from games.forms import MatchCreateForm
from games.models import Game, Match, Turn
from tests.factories import make_user

from .conftest import cookie_for
from .test_consumers import connect, next_of_type


def cube_match(players, fixed_dice, **options) -> Match:
    """An accepted match to 3 with the cube; the creator (seat 0) won the opening 6-2 (White)."""
    creator, opponent = players
    match = services.match_create(creator=creator, length=3, doubling_cube=True, **options)
    fixed_dice(6, 2)
    services.match_accept(user=opponent, match_id=match.pk)
    match.refresh_from_db()
    return match


def current_game(match: Match) -> Game:
    return match.games.order_by("-number").first()


@pytest.mark.django_db
def test_offer_take_redouble_drop_are_stored_scored_and_exported(players, fixed_dice, client):
    white, black = players
    match = cube_match(players, fixed_dice)
    with pytest.raises(services.CommandError) as refused:
        services.game_cube_double(user=black, match_id=match.pk, version=match.version)
    assert refused.value.code == "not_your_turn"
    services.game_cube_double(user=white, match_id=match.pk, version=match.version)
    match.refresh_from_db()
    game = current_game(match)
    assert (game.cube_offer, game.cube_value) == (0, 1)
    for user, command, code in [
        (white, services.game_roll, "cube_offered"),  # the doubler waits for the answer
        (white, services.game_cube_take, "not_your_turn"),  # and cannot answer it
        (black, services.game_cube_double, "not_your_turn"),
    ]:
        with pytest.raises(services.CommandError) as refused:
            command(user=user, match_id=match.pk, version=match.version)
        assert refused.value.code == code
    with pytest.raises(services.CommandError) as refused:
        services.game_cube_take(user=black, match_id=match.pk, version=match.version - 1)
    assert refused.value.code == "stale_version"
    services.game_cube_take(user=black, match_id=match.pk, version=match.version)
    match.refresh_from_db()
    game = current_game(match)
    assert (game.cube_offer, game.cube_value, game.cube_owner) == (None, 2, 1)
    # White rolls and plays its turn: the move log keeps the double with it.
    fixed_dice(3, 1)
    services.game_roll(user=white, match_id=match.pk, version=match.version)
    for step in ([24, 21, 3], [21, 20, 1]):
        match.refresh_from_db()
        services.game_step_play(
            user=white, match_id=match.pk, version=match.version, step=_step(step)
        )
    assert list(Turn.objects.filter(game=game).values_list("doubled_to", flat=True)) == [2]
    # Black owns the cube and redoubles to 4; White drops and loses the game at 2.
    match.refresh_from_db()
    services.game_cube_double(user=black, match_id=match.pk, version=match.version)
    match.refresh_from_db()
    fixed_dice(5, 1)  # next game: the winner starts (no opening roll); a roll is not drawn yet
    services.game_cube_drop(user=white, match_id=match.pk, version=match.version)
    match.refresh_from_db()
    game.refresh_from_db()
    assert (game.result, game.points, game.winner_side) == ("drop", 2, "b")
    assert match.scores == (0, 2) and match.status == "active"
    # Black needs one point now: game 2 is the Crawford game.
    assert match.crawford_game == 2
    second = current_game(match)
    assert second.number == 2 and second.seat_of_side(second.turn) == 1
    with pytest.raises(services.CommandError) as refused:
        services.game_cube_double(user=black, match_id=match.pk, version=match.version)
    assert refused.value.code == "crawford_game"
    services.match_resign(user=white, match_id=match.pk)
    exported = selectors.match_export(Match.objects.get(pk=match.pk))
    first = exported["games"][0]
    assert first["result"] == "drop" and first["points"] == 2
    assert first["cube"] == {"value": 2, "owner": 1, "crawford": False}
    assert first["turns"][0]["doubled_to"] == 2
    assert exported["games"][1]["cube"]["crawford"] is True
    assert exported["match"]["rules"]["doubling_cube"] is True
    assert exported["match"]["rules"]["cube_raise"] == "geometric"
    # The replay page and its JSON download show the cube too.
    client.force_login(white)
    replay = client.get(f"/matches/{match.pk}/replay/").content.decode()
    assert '"doubled_taken": "(doubles to {n}, taken)"' in replay
    assert '"drop_result": "double declined"' in replay
    download = client.get(f"/matches/{match.pk}/export.json").json()
    assert download["games"][0]["turns"][0]["doubled_to"] == 2
    assert download["games"][0]["result"] == "drop"


def _step(values):
    from nardy import Step

    return Step(*values)


@pytest.mark.django_db
def test_a_timeout_on_an_offer_is_a_drop_and_a_counted_timeout(players, fixed_dice):
    white, black = players
    match = cube_match(players, fixed_dice, turn_seconds=30)
    services.game_cube_double(user=white, match_id=match.pk, version=match.version)
    game = current_game(match)
    assert game.turn_deadline is not None
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    fixed_dice(4, 1)
    services.game_deadline_enforce(match_id=match.pk, game_id=game.pk, turn_number=game.turn_number)
    match.refresh_from_db()
    game.refresh_from_db()
    assert (game.result, game.points, game.winner_side) == ("drop", 1, "w")
    assert match.scores == (1, 0) and match.timeouts_opponent == 1


@pytest.mark.django_db
def test_cube_options_are_validated_everywhere(players):
    creator, _ = players
    with pytest.raises(services.CommandError) as refused:
        services.match_create(creator=creator, doubling_cube=True)  # Traditional: 1 point
    assert refused.value.code == "bad_field"
    form = MatchCreateForm(
        {"rule_set_name": "traditional", "length": "", "turn_seconds": 60, "reserve_seconds": 0,
         "rated": "on", "head_exception": "classic", "opening": "reroll", "single_die": "larger",
         "block_release": "ahead", "game_starter": "winner", "doubling_cube": "on",
         "cube_raise": "geometric"}
    )  # fmt: skip
    assert not form.is_valid() and "length" in form.errors
    match = services.match_create(creator=creator, length=5, doubling_cube=True,
                                  cube_raise="arithmetic", crawford=False)  # fmt: skip
    assert (match.rules.cube_raise, match.rules.crawford) == ("arithmetic", False)
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.filter(pk=match.pk).update(length=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(
            match=match, number=1, white_seat=0, start_board=[0] * 24, board=[0] * 24,
            turn_board=[0] * 24, turn="w", turn_started_at=timezone.now(), cube_value=0,
        )  # fmt: skip


@pytest.mark.django_db
def test_the_challenge_and_match_pages_show_the_options(client, players):
    creator, opponent = players
    match = services.match_create(
        creator=creator, length=3, doubling_cube=True, cube_raise="arithmetic",
        single_die="choice", block_release="home", game_starter="opening_roll",
    )  # fmt: skip
    client.force_login(opponent)
    page = client.get(match.get_absolute_url()).content.decode()
    for text in ("arithmetic (1, 2, 3, 4 …)", "the player chooses the die",
                 "once an opposing checker has reached its home",
                 "a new opening roll before every game", "Crawford rule"):  # fmt: skip
        assert text in page
    client.force_login(creator)
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'id="double-button"' in page and "arithmetic (1, 2, 3, 4 …)" in page
    assert selectors.lobby_state()["open"][0]["cube"] is True
    play = client.get("/play/").content.decode()
    assert "Traditional · doubling cube" in play
    for field in ("single_die", "block_release", "game_starter", "doubling_cube", "cube_raise",
                  "crawford"):  # fmt: skip
        assert f'name="{field}"' in play


@pytest.mark.django_db(transaction=True)
async def test_a_cube_match_played_to_its_end_over_sockets(fixed_dice, client):
    white, black = (
        await sync_to_async(make_user)("cube_w"),
        await sync_to_async(make_user)("cube_b"),
    )
    match = await sync_to_async(services.match_create)(
        creator=white, length=3, doubling_cube=True, crawford=False
    )
    await sync_to_async(fixed_dice)(6, 1)
    await sync_to_async(services.match_accept)(user=black, match_id=match.pk)
    white_cookie = await sync_to_async(cookie_for)(client, white)
    black_cookie = await sync_to_async(cookie_for)(client.__class__(), black)
    sockets = {
        "w": await connect(match.pk, white_cookie),
        "b": await connect(match.pk, black_cookie),
    }
    spectator = await connect(match.pk)
    snapshot = await next_of_type(spectator, "snapshot")
    for socket in sockets.values():
        await next_of_type(socket, "snapshot")
    version = snapshot["version"]
    assert snapshot["state"]["game"]["cube"]["may_double"] is True
    seen: list[tuple[str, dict]] = []

    async def command(side: str, payload: dict, until: str) -> None:
        """Send a command and follow the spectator's events up to the kind ``until``."""
        nonlocal version
        await sockets[side].send_json_to({**payload, "version": version, "id": "c"})
        while True:
            message = await spectator.receive_json_from(timeout=5)
            if message["type"] != "event":
                continue
            version = message["version"]
            seen.append((message["kind"], message["detail"]))
            if message["kind"] == until:
                return

    # Game 1: White doubles, Black drops (1-0). Game 2, started by White: the same (2-0).
    for _ in range(2):
        await command("w", {"type": "double"}, "cube_offer")
        await command("b", {"type": "drop"}, "started")
    # Game 3: White doubles, Black takes (cube 2, Black's); a take sent again is refused.
    await command("w", {"type": "double"}, "cube_offer")
    await command("b", {"type": "take"}, "cube_take")
    await sockets["b"].send_json_to({"type": "take", "version": version, "id": "again"})
    while (answer := await sockets["b"].receive_json_from(timeout=5))["type"] != "error":
        assert answer["type"] in ("event", "ack", "presence"), answer
    assert answer["code"] == "no_cube_offer"
    # White plays its turn; Black, the cube's owner, redoubles to 4 and White drops (2-2).
    await sync_to_async(fixed_dice)(3, 1)
    await command("w", {"type": "roll"}, "rolled")
    await command("w", {"type": "step", "step": [24, 21, 3]}, "step")
    await command("w", {"type": "step", "step": [21, 20, 1]}, "turn")
    assert seen[-1][1]["doubled_to"] == 2  # the move log shows the double
    await command("b", {"type": "double"}, "cube_offer")
    assert seen[-1][1] == {"seat": 1, "side": "b", "value": 4, "by_server": False}
    await command("w", {"type": "drop"}, "started")
    # Game 4, started by the black player (White now): it doubles, the other drops: 2-3.
    await command("b", {"type": "double"}, "cube_offer")
    await command("w", {"type": "drop"}, "match_over")
    results = [detail for kind, detail in seen if kind == "game_over"]
    assert [(r["winner"], r["result"], r["points"]) for r in results] == [
        ("w", "drop", 1), ("w", "drop", 1), ("b", "drop", 2), ("w", "drop", 1),
    ]  # fmt: skip
    final = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert final.status == "finished" and final.end_reason == "finished"
    assert final.scores == (2, 3) and final.winner_id == black.pk
    for socket in (*sockets.values(), spectator):
        await socket.disconnect()


@pytest.mark.django_db
def test_hostile_create_forms_for_the_new_options_change_nothing(client):
    creator = make_user("cube_forger")
    client.force_login(creator)
    base = {"rule_set_name": "tournament", "length": "3", "turn_seconds": "60",
            "reserve_seconds": "0", "rated": "on", "head_exception": "classic",
            "opening": "reroll"}  # fmt: skip
    for hostile in [
        {"single_die": "x" * 100_000}, {"block_release": "everywhere"},
        {"game_starter": ["winner", "sometimes"]}, {"cube_raise": "exponential"},
        {"cube_raise": '{"nested": [1, [2, [3]]]}'}, {"game_starter": "\x00"},
        {"doubling_cube": "on", "length": "1"}, {"doubling_cube": "on", "length": "2"},
    ]:  # fmt: skip
        response = client.post(reverse("match_create"), {**base, **hostile})
        assert response.status_code == 400, hostile
    assert not Match.objects.exists()
    # Left out, the options keep their defaults; "crawford" unticked turns the rule off.
    response = client.post(reverse("match_create"), {**base, "doubling_cube": "on"})
    match = Match.objects.get(creator=creator)
    assert response.status_code == 302 and match.doubling_cube and not match.crawford
    assert (match.single_die, match.block_release, match.game_starter, match.cube_raise) == (
        "larger", "ahead", "winner", "geometric",
    )  # fmt: skip
