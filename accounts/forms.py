from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class PreferencesForm(forms.ModelForm):
    language = forms.ChoiceField(
        label=_("Language"),
        choices=[("", _("the browser's language"))] + list(settings.LANGUAGES),
        required=False,
        help_text=_("The language of the site and of the emails we send you."),
    )

    class Meta:
        model = User
        fields = ["language", "auto_roll", "play_forced", "confirm_turn", "sounds_muted"]
