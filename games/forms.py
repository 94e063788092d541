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
        if cleaned.get("rated") and not cleaned.get("turn_seconds"):
            self.add_error("turn_seconds", _("Untimed play is for casual matches only."))
        return cleaned
