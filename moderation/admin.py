"""Moderation in the Django admin: every action calls a service in
moderation/services.py; the rows themselves are read-only here for everyone.

Actions take their reason (and, for mutes and bans, a duration) from the action bar's form
(`ModerationActionForm`); each action needs its own permission (the Moderators group has them,
moderation/migrations/0003_moderators_group.py), and the service checks it again.
"""

from __future__ import annotations

from datetime import timedelta

from allauth.mfa.admin import AuthenticatorAdmin as BaseAuthenticatorAdmin
from allauth.mfa.models import Authenticator
from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseNotAllowed
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.usernames import validate_username
from moderation import hooks, services
from moderation.admin_secrets import SecretColumnsGuard
from moderation.models import AuditEntry, Block, Report, Sanction
from moderation.selectors import report_queue
from moderation.staff_mfa import EnrolmentRefused, enrolment_link_send
from realtime.errors import CommandError

DURATIONS = {
    "1h": timedelta(hours=1),
    "1d": timedelta(days=1),
    "7d": timedelta(days=7),
    "30d": timedelta(days=30),
    "permanent": None,
}


class ModerationActionForm(ActionForm):
    reason = forms.CharField(
        label=_("Reason"), required=False, max_length=1000,
        widget=forms.TextInput(attrs={"size": 40}),
    )  # fmt: skip
    duration = forms.ChoiceField(
        label=_("Duration"), required=False,
        choices=[
            ("1d", _("1 day")), ("1h", _("1 hour")), ("7d", _("7 days")),
            ("30d", _("30 days")), ("permanent", _("permanent (bans only)")),
        ],
    )  # fmt: skip


def action_inputs(request) -> tuple[str, str]:
    return request.POST.get("reason", "").strip(), request.POST.get("duration", "1d")


def ends_at_of(request, *, permanent_allowed: bool):
    """The end a mute or ban gets from the action bar; None for a permanent ban."""
    _, duration = action_inputs(request)
    if duration not in DURATIONS:
        raise CommandError("bad_field", _("Choose a duration."))
    if DURATIONS[duration] is None:
        if not permanent_allowed:
            raise CommandError("bad_field", _("A chat mute needs an end."))
        return None
    return timezone.now() + DURATIONS[duration]


def run_each(modeladmin, request, rows, call) -> None:
    """Call the service for each selected row; say what was done and what was refused."""
    done = 0
    for row in rows:
        try:
            call(row)
        except CommandError as error:
            modeladmin.message_user(request, f"{row}: {error.message}", messages.ERROR)
        except PermissionDenied:
            modeladmin.message_user(request, _("You are not allowed to do that."), messages.ERROR)
            return
        else:
            done += 1
    if done:
        modeladmin.message_user(
            request, _("Done for %(count)s row(s).") % {"count": done}, messages.SUCCESS
        )


class ModerationPermissions:
    """has_<name>_permission for the admin actions' `permissions=[...]`: the permission, and no
    sanction in force on the moderator (moderation/services.py `may_moderate`)."""

    def has_warn_permission(self, request) -> bool:
        return services.may_moderate(request.user, "moderation.warn_user")

    def has_mute_permission(self, request) -> bool:
        return services.may_moderate(request.user, "moderation.mute_user")

    def has_ban_permission(self, request) -> bool:
        return services.may_moderate(request.user, "moderation.ban_user")

    def has_lift_permission(self, request) -> bool:
        return services.may_moderate(request.user, "moderation.lift_sanction")

    def has_annul_permission(self, request) -> bool:
        return services.may_moderate(request.user, "moderation.annul_match")

    def has_close_permission(self, request) -> bool:
        return services.may_moderate(request.user, "moderation.close_report")


class ReadOnlyAdmin(SecretColumnsGuard, admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


def user_actions(target_of):
    """Warn, mute and ban actions for a changelist whose rows lead to a user (`target_of(row)`,
    with the report the action answers, if any)."""

    @admin.action(description=_("Warn (the reason is shown to the user)"), permissions=["warn"])
    def warn(modeladmin, request, queryset):
        reason = action_inputs(request)[0]
        run_each(modeladmin, request, queryset, lambda row: services.user_warn(
            moderator=request.user, reason=reason, **target_of(row)))  # fmt: skip

    @admin.action(description=_("Mute chat for the chosen duration"), permissions=["mute"])
    def mute(modeladmin, request, queryset):
        reason = action_inputs(request)[0]
        run_each(modeladmin, request, queryset, lambda row: services.user_chat_mute(
            moderator=request.user, reason=reason,
            ends_at=ends_at_of(request, permanent_allowed=False), **target_of(row)))  # fmt: skip

    @admin.action(description=_("Ban for the chosen duration (or permanently)"),
                  permissions=["ban"])  # fmt: skip
    def ban(modeladmin, request, queryset):
        reason = action_inputs(request)[0]
        run_each(modeladmin, request, queryset, lambda row: services.user_ban(
            moderator=request.user, reason=reason,
            ends_at=ends_at_of(request, permanent_allowed=True), **target_of(row)))  # fmt: skip

    return [warn, mute, ban]


def chat_log(match_id: int | None):
    """A match's whole chat as an escaped table (the report queue, the match page)."""
    if match_id is None:
        return "—"
    rows = hooks.match_chat(match_id)  # chat's (moderation/hooks.py)
    if not rows:
        return _("No chat.")
    return format_html(
        "<table><tbody>{}</tbody></table>",
        format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td><b>{}</b></td><td>{}</td></tr>",
            (
                (timezone.localtime(row.created_at).strftime("%H:%M:%S"), row.get_room_display(),
                 row.user.username, row.shown_text)
                for row in rows
            ),
        ),
    )  # fmt: skip


@admin.register(Report)
class ReportAdmin(ModerationPermissions, ReadOnlyAdmin):
    """The report queue: open reports first, oldest first."""

    action_form = ModerationActionForm
    list_display = ("id", "status", "reason", "reporter", "target", "match_link", "created_at",
                    "closed_by")  # fmt: skip
    list_filter = ("status", "reason")
    search_fields = ("reporter__username", "target__username", "text")
    readonly_fields = ("reporter", "target", "match_link", "reason", "text", "status",
                       "created_at", "closed_at", "closed_by", "resolution", "chat")  # fmt: skip
    fields = readonly_fields
    actions = [
        "close",
        *user_actions(lambda report: {"user": report.target, "report_id": report.pk}),
        "annul",
    ]

    # The report's own page offers the list's actions too (templates/admin/moderation/report/
    # change_form.html): a moderator reading a report acts on it there, through the same action
    # functions, so the permissions, the services and their audit rows are the list's.
    change_form_template = "admin/moderation/report/change_form.html"

    def get_queryset(self, request):
        return report_queue()

    def get_ordering(self, request):
        return ("open_first", "created_at")

    def get_urls(self):
        act = self.admin_site.admin_view(self.act_view)
        own = [path("<int:report_id>/act/", act, name="moderation_report_act")]
        return own + super().get_urls()

    def change_view(self, request, object_id, form_url="", extra_context=None):
        choices = self.get_action_choices(request, default_choices=[])  # only those allowed
        form = self.action_form(auto_id="report-act-%s")
        form.fields["action"].choices = choices
        for field in form.fields.values():  # posted by the form after the page's own
            field.widget.attrs["form"] = "report-actions"
        extra = {"report_action_form": form if choices else None, **(extra_context or {})}
        return super().change_view(request, object_id, form_url, extra_context=extra)

    def act_view(self, request, report_id: int):
        """Run one of the list's actions on this report alone, then come back to its page."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        actions = self.get_actions(request)  # filtered by the moderator's permissions
        chosen = actions.get(request.POST.get("action", ""))
        back = redirect("admin:moderation_report_change", report_id)
        if chosen is None:
            self.message_user(request, _("You are not allowed to do that."), messages.ERROR)
            return back
        function = chosen[0]
        function(self, request, self.get_queryset(request).filter(pk=report_id))
        return back

    @admin.display(description=_("match"))
    def match_link(self, report: Report):
        if report.match_id is None:
            return "—"
        url = reverse("admin:games_match_change", args=[report.match_id])
        return format_html('<a href="{}">#{}</a>', url, report.match_id)

    @admin.display(description=_("chat of the match"))
    def chat(self, report: Report):
        return chat_log(report.match_id)

    @admin.action(description=_("Close with the reason as resolution"), permissions=["close"])
    def close(self, request, queryset):
        reason = action_inputs(request)[0]
        run_each(self, request, queryset, lambda report: services.report_close(
            moderator=request.user, report_id=report.pk, resolution=reason))  # fmt: skip

    @admin.action(description=_("Annul the reported match"), permissions=["annul"])
    def annul(self, request, queryset):
        reason = action_inputs(request)[0]

        def annul_one(report: Report) -> None:
            if report.match_id is None:
                raise CommandError("not_found", _("No match is attached."))
            services.match_annul(moderator=request.user, match_id=report.match_id,
                                 reason=reason, report_id=report.pk)  # fmt: skip

        run_each(self, request, queryset, annul_one)


@admin.register(Sanction)
class SanctionAdmin(ModerationPermissions, ReadOnlyAdmin):
    action_form = ModerationActionForm
    list_display = ("id", "user", "kind", "created_at", "ends_at", "lifted_at", "created_by",
                    "seen_at", "reason")  # fmt: skip
    list_filter = ("kind", ("created_by", admin.RelatedOnlyFieldListFilter))
    search_fields = ("user__username", "reason")
    actions = ["lift"]

    @admin.action(description=_("Lift early (ban or chat mute)"), permissions=["lift"])
    def lift(self, request, queryset):
        reason = action_inputs(request)[0]
        run_each(self, request, queryset, lambda sanction: services.sanction_lift(
            moderator=request.user, sanction_id=sanction.pk, reason=reason))  # fmt: skip


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """The append-only trail: read-only for everyone, filterable by moderator and target."""

    list_display = ("created_at", "moderator", "action", "target_user", "target_match", "report",
                    "reason")  # fmt: skip
    list_filter = (
        "action",
        ("moderator", admin.RelatedOnlyFieldListFilter),
        ("target_user", admin.RelatedOnlyFieldListFilter),
    )
    search_fields = ("moderator__username", "target_user__username", "reason")
    date_hierarchy = "created_at"

    def get_actions(self, request):
        return {}  # not even "delete selected"


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin):
    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")


# --- Users: the moderators' actions, and staff enrolment (moderation/staff_mfa.py) --------------


class UserRenameForm(UserChangeForm):
    """A changed username follows the same rule as at sign-up (accounts/usernames.py)."""

    def clean_username(self):
        username = self.cleaned_data["username"]
        if "username" in self.changed_data:
            validate_username(username)
        return username


class UserAddForm(AdminUserCreationForm):
    def clean_username(self):
        username = super().clean_username()
        validate_username(username)
        return username


@admin.register(User)
class UserAdmin(SecretColumnsGuard, ModerationPermissions, BaseUserAdmin):
    """Users, with the moderators' warn, mute and ban actions (moderation/services.py). The
    Moderators group only views users: no password or profile field can be changed by it.
    The password hash is a secret column: no filter reads it (moderation/admin_secrets.py); the
    form shows it masked, as Django does."""

    shown_secret_columns = ("password",)
    form = UserRenameForm
    add_form = UserAddForm
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        (_("Play"), {"fields": ("language", "auto_roll", "is_guest", "is_bot", "bot_level")}),
    )
    # Bots and guests are set by the site (migrations and accounts/guests.py), not by hand.
    readonly_fields = ("is_guest", "is_bot", "bot_level")
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser", "is_guest", "is_bot")
    search_fields = ("username", "email")
    action_form = ModerationActionForm
    actions = [*user_actions(lambda user: {"user": user}), "send_enrolment_link"]

    def has_enrol_permission(self, request) -> bool:
        return request.user.is_superuser

    @admin.action(description=_("Send a two-factor enrolment link (staff)"),
                  permissions=["enrol"])  # fmt: skip
    def send_enrolment_link(self, request, queryset):
        """Staff enrol their authenticator only through a link sent to their address
        (moderation/staff_mfa.py): the superuser checks the address named here."""
        for user in queryset:
            try:
                address = enrolment_link_send(request=request, user=user)
            except EnrolmentRefused as refusal:
                self.message_user(request, str(refusal), messages.ERROR)
            else:
                self.message_user(
                    request,
                    _("Sent %(name)s an enrolment link at %(email)s.")
                    % {"name": user.username, "email": address},
                    messages.SUCCESS,
                )


# allauth's own admin shows an authenticator's `data`, the TOTP secret itself, and lets any
# lookup read it: the same admin without that column.
if admin.site.is_registered(Authenticator):
    admin.site.unregister(Authenticator)


@admin.register(Authenticator)
class AuthenticatorAdmin(SecretColumnsGuard, BaseAuthenticatorAdmin):
    pass
