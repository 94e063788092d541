from django import forms
from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.models import (
    MATCH_LENGTHS,
    RESERVE_SECONDS_CHOICES,
    TURN_SECONDS_CHOICES,
    HeadException,
    Opening,
    RuleSetName,
)
from games.rules.ruleset import PRESETS

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


points_label = lazy(_points_label, str)
seconds_label = lazy(_seconds_label, str)
minutes_label = lazy(_minutes_label, str)


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

    # Only players inside the range may accept (issue 15); either end may stay empty.
    min_rating = forms.IntegerField(
        label=_("Opponent's rating from"), required=False, min_value=0, max_value=MAX_RATING
    )
    max_rating = forms.IntegerField(
        label=_("Opponent's rating up to"), required=False, min_value=0, max_value=MAX_RATING
    )

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("rated") and not cleaned.get("turn_seconds"):
            self.add_error("turn_seconds", _("Untimed play is for casual matches only."))
        lowest, highest = cleaned.get("min_rating"), cleaned.get("max_rating")
        if lowest is not None and highest is not None and lowest > highest:
            self.add_error("max_rating", _("The lowest rating is above the highest."))
        if cleaned.get("private") and (lowest is not None or highest is not None):
            self.add_error("min_rating", _("A rating range is for open challenges only."))
        return cleaned

    def service_arguments(self) -> dict:
        """The cleaned settings as `match_create`'s keywords."""
        data = self.cleaned_data
        return {
            "rule_set_name": data["rule_set_name"],
            "length": data["length"],
            "turn_seconds": data["turn_seconds"] or None,
            "reserve_seconds": data["reserve_seconds"],
            "rated": data["rated"],
            "head_exception": data["head_exception"],
            "opening": data["opening"],
            **{
                name: data[name]
                for name in ("private", "min_rating", "max_rating")
                if name in self.fields
            },
        }


class DirectChallengeForm(MatchCreateForm):
    """The Play page's settings, for a challenge to one player (no link, no rating range)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in ("private", "min_rating", "max_rating"):
            del self.fields[name]
