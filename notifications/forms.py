from django import forms
from django.utils.translation import gettext_lazy as _

from notifications.models import Kind


class NotificationKindsForm(forms.Form):
    """The preferences page's section: which kinds ring the bell (notifications/models.py;
    "a friend started playing" is off until chosen). Browser notifications are a separate
    opt-in of the browser's own, the Notify me button of a match page."""

    kinds = forms.MultipleChoiceField(
        label=_("Tell me in the bell when"),
        choices=Kind.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
