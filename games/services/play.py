"""The board commands: the mover's roll, step, undo and double, the opponent's take or drop.

Each runs through `runners.play`: the command checks the player and the version they saw and lets
the engine (nardy/match) decide, on the match as read and written in two statements when
nobody else wrote it meanwhile, else under the match lock in a transaction. A refused command
raises `CommandError` and changes nothing.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.models import Match
from games.services.context import Locked
from games.services.runners import play
from nardy import Step
from nardy import match as engine
from realtime.errors import CommandError


def _seat_at_version(context: Locked, user, version: int | None, *, mover: bool = True) -> int:
    """The player's seat (the mover's unless ``mover`` is False: the engine checks who may
    answer a double), refusing a command sent for a board that has changed since."""
    seat = context.seat_of(user)
    if mover:
        context.ask(lambda state: engine.require_mover(state, seat))
    if version is not None and version != context.match.version:
        raise CommandError(
            "stale_version",
            _("The board has changed since (version %(now)s, you sent %(sent)s).")
            % {"now": context.match.version, "sent": version},
        )
    return seat


def game_roll(*, user, match_id: int, version: int | None) -> Match:
    """The mover rolls; a roll with no legal step is shown and the turn passes by itself."""

    def command(context: Locked) -> None:
        seat = _seat_at_version(context, user, version)
        context.run(
            lambda state: engine.roll(
                state, seat=seat, dice=context.dice, now=context.now,
                **context.automation(),
            )
        )  # fmt: skip

    return play(match_id, command, version=version)


def game_step_play(*, user, match_id: int, version: int | None, step: Step) -> Match:
    """Play one step of the mover's turn; when no step is left the turn passes by itself.
    A refused step changes nothing."""

    def command(context: Locked) -> None:
        seat = _seat_at_version(context, user, version)
        context.run(
            lambda state: engine.step(
                state, seat=seat, step=step, dice=context.dice, now=context.now,
                confirm=context.confirm_seats(), **context.automation(),
            )
        )  # fmt: skip

    return play(match_id, command, version=version)


def game_turn_confirm(*, user, match_id: int, version: int | None) -> Match:
    """Confirm the whole turn played ("confirm my turn"): it passes as a last step would have
    passed it. A turn not complete is refused and nothing changes."""

    def command(context: Locked) -> None:
        seat = _seat_at_version(context, user, version)
        context.run(
            lambda state: engine.confirm(
                state, seat=seat, dice=context.dice, now=context.now, **context.automation()
            )
        )

    return play(match_id, command, version=version)


def game_turn_undo(*, user, match_id: int, version: int | None) -> Match:
    """Take back the last step of the turn (rule sets with undo only)."""

    def command(context: Locked) -> None:
        seat = _seat_at_version(context, user, version)
        context.run(lambda state: engine.undo(state, seat=seat))

    return play(match_id, command, version=version)


def game_cube_double(*, user, match_id: int, version: int | None) -> Match:
    """The mover offers, before rolling, to raise the stake (nardy/cube.py); the turn
    clock passes to the opponent until they answer."""

    def command(context: Locked) -> None:
        seat = _seat_at_version(context, user, version)
        context.run(lambda state: engine.double(state, seat=seat, now=context.now))

    return play(match_id, command, version=version)


def _cube_answer(answer, *, user, match_id: int, version: int | None) -> Match:
    def command(context: Locked) -> None:
        seat = _seat_at_version(context, user, version, mover=False)
        context.run(
            lambda state: answer(
                state, seat=seat, now=context.now, dice=context.dice, **context.automation()
            )
        )  # fmt: skip

    return play(match_id, command, version=version)


def game_cube_take(*, user, match_id: int, version: int | None) -> Match:
    """The opponent takes the offered double: the cube is raised and theirs."""
    return _cube_answer(engine.take, user=user, match_id=match_id, version=version)


def game_cube_drop(*, user, match_id: int, version: int | None) -> Match:
    """The opponent drops the offered double and loses the game at the stake before it; the
    match ends or the next game starts."""
    return _cube_answer(engine.drop, user=user, match_id=match_id, version=version)
