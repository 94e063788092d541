from django import forms
from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import BotLevel
from games.models import (
    RESERVE_SECONDS_CHOICES,
    TURN_SECONDS_CHOICES,
    BlockRelease,
    CubeRaise,
    GameStarter,
    HeadException,
    Opening,
    RuleSetName,
    SingleDie,
    TimeControl,
)
from nardy.ruleset import CORRESPONDENCE_DAYS, MATCH_LENGTHS, PRESETS

MAX_RATING = 3000  # a rating range's ends (PositiveSmallIntegerField columns)

# "Traditional 1, Tournament 5": each preset's usual length, from the engine's presets.
USUAL = format_lazy(
    ", ".join(["{}"] * len(RuleSetName.choices)),
    *[
        format_lazy("{label} {length}", label=label, length=PRESETS[value].match_length)
        for value, label in RuleSetName.choices
    ],
)


# Choice labels are translated when rendered, not at import, with the language's plural form.
def _points_label(points: int) -> str:
    return ngettext("%(points)d point", "%(points)d points", points) % {"points": points}


def _seconds_label(seconds: int) -> str:
    return ngettext("%(seconds)d second", "%(seconds)d seconds", seconds) % {"seconds": seconds}


def _minutes_label(minutes: int) -> str:
    return ngettext("%(minutes)d minute", "%(minutes)d minutes", minutes) % {"minutes": minutes}


def _days_label(days: int) -> str:
    return ngettext("%(days)d day per move", "%(days)d days per move", days) % {"days": days}


points_label = lazy(_points_label, str)
seconds_label = lazy(_seconds_label, str)
minutes_label = lazy(_minutes_label, str)
days_label = lazy(_days_label, str)


# What a guest may not ask for: rated play and private invites (direct challenges).
GUEST_REFUSED_FIELDS = ("rated", "private")
# The rule-set options (docs/rules.md: A turn, Who starts, the doubling cube), passed to
# `match_create` as they are (empty keeps the engine default).
RULE_OPTION_FIELDS = (
    "single_die", "block_release", "game_starter", "doubling_cube", "cube_raise", "crawford",
)  # fmt: skip


class MatchCreateForm(forms.Form):
    rule_set_name = forms.ChoiceField(
        label=_("Rule set"), choices=RuleSetName.choices, initial=RuleSetName.TRADITIONAL
    )
    length = forms.TypedChoiceField(
        label=_("Match length"),
        coerce=int,
        choices=[("", format_lazy(_("the rule set's usual length ({lengths})"), lengths=USUAL))]
        + [(length, points_label(length)) for length in MATCH_LENGTHS],
        required=False,
        empty_value=None,
    )
    time_control = forms.ChoiceField(
        label=_("Time control"),
        choices=TimeControl.choices,
        initial=TimeControl.TURN,
        required=False,  # an older form (or a script) without it plays the per-turn clock
        help_text=_(
            "NARDEON and Omerta count time their own way; the two fields below are "
            "for seconds per turn only (the Rules page explains each clock)."
        ),
    )
    # The correspondence clock's days per move (docs/rules.md, Platform rules, Correspondence).
    move_days = forms.TypedChoiceField(
        label=_("Days per move (correspondence)"),
        coerce=int,
        choices=[(days, days_label(days)) for days in CORRESPONDENCE_DAYS],
        initial=3,
        required=False,
        empty_value=None,
    )
    turn_seconds = forms.TypedChoiceField(
        label=_("Time per turn"),
        coerce=int,
        choices=[(0, _("untimed (casual only)"))]
        + [(seconds, seconds_label(seconds)) for seconds in TURN_SECONDS_CHOICES],
        initial=60,
    )
    reserve_seconds = forms.TypedChoiceField(
        label=_("Reserve bank"),
        coerce=int,
        choices=[(0, _("none"))]
        + [(seconds, minutes_label(seconds // 60)) for seconds in RESERVE_SECONDS_CHOICES[1:]],
        initial=0,
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    private = forms.BooleanField(
        label=_("Private invite link (only someone with the link can accept)"), required=False
    )
    head_exception = forms.ChoiceField(
        label=_("Head exception"), choices=HeadException.choices, initial=HeadException.CLASSIC
    )
    opening = forms.ChoiceField(
        label=_("Opening roll"), choices=Opening.choices, initial=Opening.REROLL
    )
    # The Ukrainian and Russian pages' variants (docs/rules.md) and the doubling cube; left out,
    # each keeps the engine's default (a form posted without them still creates the usual match).
    single_die = forms.ChoiceField(
        label=_("When only one die can be played"), choices=SingleDie.choices,
        initial=SingleDie.LARGER, required=False,
    )  # fmt: skip
    block_release = forms.ChoiceField(
        label=_("A six-point block is allowed"), choices=BlockRelease.choices,
        initial=BlockRelease.AHEAD, required=False,
    )  # fmt: skip
    game_starter = forms.ChoiceField(
        label=_("Each later game is started by"), choices=GameStarter.choices,
        initial=GameStarter.WINNER, required=False,
    )  # fmt: skip
    doubling_cube = forms.BooleanField(
        label=_("Doubling cube (matches of 3 points or more)"), required=False, initial=False
    )
    cube_raise = forms.ChoiceField(
        label=_("The cube raises the stake"), choices=CubeRaise.choices,
        initial=CubeRaise.GEOMETRIC, required=False,
    )  # fmt: skip
    crawford = forms.BooleanField(
        label=_("Crawford rule (no doubling in the game after a player reaches match point)"),
        required=False, initial=True,
    )  # fmt: skip

    # The choices most players make, shown at once; the rest fold under "More options"
    # (templates/games/_form_fields.html), the client seed among them.
    common_fields: tuple[str, ...] = ("rule_set_name", "length", "turn_seconds", "rated")

    def __init__(self, *args, guest: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.guest = guest
        if guest:  # guests play casual open games only (the services refuse it too)
            for name in GUEST_REFUSED_FIELDS:
                self.fields.pop(name, None)

    # Only players inside the range may accept; either end may stay empty.
    min_rating = forms.IntegerField(
        label=_("Opponent's rating from"), required=False, min_value=0, max_value=MAX_RATING
    )
    max_rating = forms.IntegerField(
        label=_("Opponent's rating up to"), required=False, min_value=0, max_value=MAX_RATING
    )
    # Provably fair dice (games/fairness): the browser fills in a random one (static/js/seed.js).
    client_seed = forms.RegexField(
        label=_("Your client seed for the dice"),
        regex=r"^[A-Za-z0-9_-]{1,64}$",
        max_length=64,
        required=False,
        help_text=_("Public; mixed into every roll. Your browser picks a random one."),
        error_messages={"invalid": _("1 to 64 letters (a–z, A–Z), digits, “_” or “-”.")},
        widget=forms.TextInput(attrs={"data-client-seed": "", "autocomplete": "off"}),
    )

    def clean(self):
        cleaned = super().clean()
        if self.guest and any(self.data.get(name) for name in GUEST_REFUSED_FIELDS):
            raise forms.ValidationError(_("Sign up to play rated or to invite a friend."))
        cleaned["time_control"] = cleaned.get("time_control") or TimeControl.TURN
        if cleaned["time_control"] == TimeControl.CORRESPONDENCE:
            if self.guest:
                raise forms.ValidationError(_("Sign up to play correspondence matches."))
            if not cleaned.get("move_days"):
                self.add_error("move_days", _("Choose the days per move."))
        else:
            cleaned["move_days"] = None  # the field belongs to the correspondence clock
        seed_clock = cleaned["time_control"] != TimeControl.TURN
        if cleaned.get("rated") and not cleaned.get("turn_seconds") and not seed_clock:
            self.add_error("turn_seconds", _("Untimed play is for casual matches only."))
        preset = PRESETS.get(cleaned.get("rule_set_name", ""))
        length = cleaned.get("length") or (preset.match_length if preset else None)
        if cleaned.get("doubling_cube") and length == 1:
            self.add_error("length", _("The doubling cube needs a match of more than one point."))
        lowest, highest = cleaned.get("min_rating"), cleaned.get("max_rating")
        if lowest is not None and highest is not None and lowest > highest:
            self.add_error("max_rating", _("The lowest rating is above the highest."))
        if cleaned.get("private") and (lowest is not None or highest is not None):
            self.add_error("min_rating", _("A rating range is for open challenges only."))
        return cleaned

    def common(self) -> list:
        return [self[name] for name in self.fields if name in self.common_fields]

    def more(self) -> list:
        return [self[name] for name in self.fields if name not in self.common_fields]

    def more_has_errors(self) -> bool:
        """Folded fields with an error are shown unfolded."""
        return self.is_bound and any(field.errors for field in self.more())

    def service_arguments(self) -> dict:
        """The cleaned settings as `match_create`'s keywords."""
        data = self.cleaned_data
        return {
            "rule_set_name": data["rule_set_name"],
            "length": data["length"],
            "turn_seconds": data["turn_seconds"] or None,
            "reserve_seconds": data["reserve_seconds"],
            "rated": data.get("rated", False),  # a guest's form has no such field
            "head_exception": data["head_exception"],
            "opening": data["opening"],
            **{name: data[name] for name in RULE_OPTION_FIELDS},
            **{
                name: data[name]
                for name in (
                    "private",
                    "min_rating",
                    "max_rating",
                    "time_control",
                    "move_days",
                    "client_seed",
                )
                if name in self.fields
            },
        }


class DirectChallengeForm(MatchCreateForm):
    """The Play page's settings, for a challenge to one player (no link, no rating range)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in ("private", "min_rating", "max_rating"):
            self.fields.pop(name, None)


class BotMatchForm(MatchCreateForm):
    """Play the computer: a level, the rule set, length and time; casual unless rated."""

    field_order = ["level", "rule_set_name", "length", "turn_seconds", "rated"]
    common_fields = ("level", "rule_set_name", "length", "turn_seconds")
    # A newcomer's first match is against the gentlest bot.
    level = forms.ChoiceField(label=_("Level"), choices=BotLevel.choices, initial=BotLevel.BEGINNER)
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=False)
    private = None  # a match against the computer is started at once, nobody else joins
    reserve_seconds = None
    # The bots play the turn options but not the cube (nardy/bots.py): their matches have
    # the engine's default options (the rule variants are for matches between people).
    single_die = block_release = game_starter = doubling_cube = cube_raise = crawford = None
    # Matches against the computer keep the per-turn clock (NARDEON and Omerta are for people).
    time_control = move_days = None
    min_rating = max_rating = None  # nobody else accepts: no rating range
