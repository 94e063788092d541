from django import forms
from django.utils.translation import gettext_lazy as _

from moderation.models import MAX_REPORT_TEXT, ReportReason


class ReportForm(forms.Form):
    """A report on a player. `match` is either the one match the page came from (a match page's
    link, fixed and hidden) or the reporter's choice among their latest matches together, or none
    (a profile's link): only a listed value is accepted, so a typed or stale id is refused here,
    and moderation.services.report_create checks the target's part in it again."""

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
    match = forms.TypedChoiceField(
        label=_("Which match is it about?"),
        required=False,
        coerce=int,
        empty_value=None,
        widget=forms.RadioSelect,
        error_messages={
            "invalid_choice": _("Choose one of your matches together, or no particular match.")
        },
    )

    def __init__(
        self,
        *args,
        fixed_match: tuple[int, str] | None = None,
        choices: list[tuple[int, str]] = (),
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        for each in self.fields.values():
            # Greek asks with ";", which Django does not know as a question mark: no ":" after it.
            if str(each.label).endswith(";"):
                each.label_suffix = ""
        field = self.fields["match"]
        if fixed_match is not None:
            field.choices = [fixed_match]
            field.initial = fixed_match[0]
            field.widget = forms.HiddenInput()
            field.required = True
        else:
            field.choices = [("", _("No particular match")), *choices]
            field.initial = ""
            if not choices:  # nothing to choose: the page says the report is about the player
                field.widget = forms.HiddenInput()
