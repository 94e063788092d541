from django import forms
from django.conf import settings
from django.forms.models import fields_for_model
from django.utils.text import capfirst
from django.utils.translation import get_language_info
from django.utils.translation import gettext_lazy as _

from accounts import appearance
from accounts.models import User


def own_name(code: str) -> str:
    return capfirst(get_language_info(code)["name_local"])


class PreferencesForm(forms.ModelForm):
    language = forms.ChoiceField(
        label=_("Language"),
        # Each language in its own name, as the footer's selector lists them: a reader finds
        # theirs whatever language the page is in.
        choices=[("", _("the browser's language"))]
        + [(code, own_name(code)) for code, _name in settings.LANGUAGES],
        required=False,
        help_text=_("The language of the site and of the emails we send you."),
    )

    class Meta:
        model = User
        fields = [
            "language", "auto_roll", "play_forced", "confirm_turn", "sounds_muted",
            "correspondence_emails",
        ]  # fmt: skip


class AppearanceForm(forms.Form):
    """Light or dark, the board and the checkers, with the choices the User model offers: the
    preferences page and the visitors' own page post it (accounts/views.py `appearance`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields.update(fields_for_model(User, fields=appearance.FIELDS))
