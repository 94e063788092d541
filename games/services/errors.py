"""The engine's refusals as CommandErrors (realtime/errors.py), in the site's words."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.rule_messages import translated_reason
from games.rules import IllegalMove
from realtime.errors import CommandError

# The engine's refusals by code, in the site's words. `illegal_step` keeps the engine's own
# explanation (which rule the step breaks), translated by games/rule_messages.py.
_MESSAGES = {
    "match_not_active": _("This match is not being played."),
    "not_your_turn": _("It is not your turn."),
    "already_rolled": _("The dice are already rolled."),
    "not_rolled": _("Roll the dice first."),
    "undo_not_allowed": _("In this rule set every step is final."),
    "nothing_to_undo": _("There is no step to take back."),
    "cube_not_allowed": _("This match is played without the doubling cube."),
    "cube_offered": _("A double is offered and awaits an answer."),
    "crawford_game": _("No doubling in the Crawford game."),
    "not_cube_owner": _("The cube is your opponent's: only they may raise it."),
    "cube_at_maximum": _("The cube cannot be raised further."),
    "no_cube_offer": _("No double is offered."),
    "not_abortable": _("Both players have moved: the match can no longer be aborted."),
}


def refused(error: IllegalMove) -> CommandError:
    """The CommandError for an engine refusal (a refused step is an IllegalMove without a code;
    the match's refusals are MatchRuleErrors with one)."""
    code = getattr(error, "code", "illegal_step")
    message = _MESSAGES.get(code)
    return CommandError(
        code, str(message) if message is not None else translated_reason(str(error))
    )
