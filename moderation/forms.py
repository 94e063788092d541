from django import forms
from django.utils.translation import gettext_lazy as _

from moderation.models import MAX_REPORT_TEXT, ReportReason


class ReportForm(forms.Form):
    reason = forms.ChoiceField(
        label=_("Reason"), choices=ReportReason.choices, widget=forms.RadioSelect
    )
    text = forms.CharField(
        label=_("What happened?"),
        required=False,
        max_length=MAX_REPORT_TEXT,
        widget=forms.Textarea(attrs={"rows": 4, "maxlength": MAX_REPORT_TEXT}),
        help_text=_("A few words for the moderators (at most 500 characters)."),
    )
    match = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
