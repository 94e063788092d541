"""The form a player creates a tournament with; the service checks every value again
(tournaments/services/players.py), so the form only turns text into types."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from config.showable_text import validate_showable
from games.models import LIVE_TIME_CONTROL_CHOICES, TURN_SECONDS_CHOICES, RuleSetName
from tournaments.models import MATCH_LENGTHS, MAX_NAME, PLAYER_DURATIONS

# Minutes from now.
STARTS_IN = (5, 15, 30, 60, 120, 360, 1440)


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=MAX_NAME, validators=[validate_showable])
    rule_set_name = forms.ChoiceField(label=_("Rule set"), choices=RuleSetName.choices)
    length = forms.TypedChoiceField(
        label=_("Match length"), coerce=int, choices=[(n, str(n)) for n in MATCH_LENGTHS]
    )
    time_control = forms.ChoiceField(label=_("Clock"), choices=LIVE_TIME_CONTROL_CHOICES)
    turn_seconds = forms.TypedChoiceField(
        label=_("Seconds per turn"), coerce=int, initial=60,
        choices=[(n, str(n)) for n in TURN_SECONDS_CHOICES],
    )  # fmt: skip
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    minutes = forms.TypedChoiceField(
        label=_("Duration (minutes)"), coerce=int, initial=60,
        choices=[(n, str(n)) for n in PLAYER_DURATIONS],
    )  # fmt: skip
    starts_in = forms.TypedChoiceField(
        label=_("Starts in (minutes)"), coerce=int, initial=15,
        choices=[(n, str(n)) for n in STARTS_IN],
    )  # fmt: skip
    private = forms.BooleanField(label=_("Private (only with the link)"), required=False)
