"""The engine's refusals as CommandErrors (realtime/errors.py), in the site's words."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.rule_messages import translated_reason
from nardy import IllegalMove
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
    "turn_not_complete": _("Play every step of the turn first, then confirm it."),
    "cube_not_allowed": _("This match is played without the doubling cube."),
    "cube_offered": _("A double is offered and awaits an answer."),
    "crawford_game": _("No doubling in the Crawford game."),
    "not_cube_owner": _("The cube is your opponent's: only they may raise it."),
    "cube_at_maximum": _("The cube cannot be raised further."),
    "no_cube_offer": _("No double is offered."),
    "not_abortable": _("Both players have moved: the match can no longer be aborted."),
    "opponent_present": _("Your opponent is at the table."),
    "correspondence_no_claim": _(
        "A correspondence match is never claimed: its days per turn are the only limit."
    ),
    "reconnect_window": _("Your opponent may still come back: %(seconds)s s left."),
    "not_invited": _("This challenge is for another player."),
    "not_found": _("This invitation link is not valid."),
    "guest_not_rated": _("Guests play casual games; sign up to play rated."),
    "outside_range": _("Your rating is outside the range this challenge asks for."),
}

# The codes the engine gives for more than one reason: the site's words by the engine's sentence.
_BY_REASON = {
    "this challenge is no longer open": _("This challenge is no longer open."),
    "this challenge has expired": _("This challenge has expired."),
    "you cannot accept your own challenge": _("You cannot accept your own challenge."),
    "this account is not active": _("This account is not active."),
    "only the creator can change this seed": _("Only the creator can change this seed."),
    "only the creator can cancel a challenge": _("Only the creator can cancel a challenge."),
    "the seeds are fixed once the match started": _(
        "The seeds are fixed once the match has started."
    ),
    "a rematch is offered after the match": _("A rematch is offered after the match."),
    "the rematch has already started": _("The rematch has already started."),
    "there is no rematch offer": _("There is no rematch offer."),
}


def refused(error: IllegalMove) -> CommandError:
    """The CommandError for an engine refusal (a refused step is an IllegalMove without a code;
    the match's refusals are MatchRuleErrors with one)."""
    code = getattr(error, "code", "illegal_step")
    message = _BY_REASON.get(str(error)) or _MESSAGES.get(code)
    if message is None:
        return CommandError(code, translated_reason(str(error)))
    params = getattr(error, "params", None)
    return CommandError(code, str(message) % params if params else str(message))
