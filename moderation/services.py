"""Every moderation write: blocks, reports, warnings, chat mutes, bans, annulled
matches, lifted sanctions and closed reports. The admin and the pages call these; nothing edits
these rows directly.

Each moderator action checks the moderator's permission, locks the row it changes
(`select_for_update`), writes one append-only AuditEntry in the same transaction, and does its
side effects (closing sockets, publishing the end of a match) after commit.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.locks import user_row_lock
from accounts.models import User
from config.hooks import send_to_all
from config.showable_text import UnshowableText, check_showable
from moderation import hooks
from moderation.models import (
    MAX_REASON_TEXT,
    MAX_REPORT_TEXT,
    AuditAction,
    AuditEntry,
    Block,
    Report,
    ReportReason,
    ReportStatus,
    Sanction,
    SanctionKind,
)
from moderation.selectors import restricted
from moderation.warning_flags import flag_unseen_warning
from realtime.close_codes import CLOSE_BANNED
from realtime.errors import CommandError
from realtime.groups import close_user_sockets, user_message
from realtime.publisher import publish_on_commit

# --- Blocks (players) ----------------------------------------------------------------------------


def _tell_sockets_blocks_changed(*user_ids: int) -> None:
    """After commit, open match sockets of both users re-read whose chat they hide
    (games/consumers.py)."""
    publish_on_commit([user_message(id_, {"type": "moderation.blocks"}) for id_ in user_ids])


def block_add(*, user: User, target: User) -> Block:
    """`user` blocks `target` (from the target's profile). Locks the user's row, so the list's
    cap holds across tabs. Blocking twice changes nothing."""
    if user.pk == target.pk:
        raise CommandError("bad_field", _("You cannot block yourself."))
    with transaction.atomic():
        user_row_lock(user.pk)  # two players blocking each other at once: accounts/locks.py
        existing = Block.objects.filter(blocker=user, blocked=target).first()
        if existing is not None:
            return existing
        if Block.objects.filter(blocker=user).count() >= settings.MAX_BLOCKS:
            raise CommandError(
                "too_many_blocks",
                _("Your block list is full (%(count)s players); unblock someone first.")
                % {"count": settings.MAX_BLOCKS},
            )
        block = Block.objects.create(blocker=user, blocked=target)
        _tell_sockets_blocks_changed(user.pk, target.pk)
    return block


def block_remove(*, user: User, target_id: int) -> bool:
    """Unblock; True when there was a block."""
    with transaction.atomic():
        deleted, _ = Block.objects.filter(blocker=user, blocked_id=target_id).delete()
        if deleted:
            _tell_sockets_blocks_changed(user.pk, target_id)
    return bool(deleted)


# --- Reports (players) ---------------------------------------------------------------------------


def can_report(user) -> bool:
    """Signed-in players with an account of their own; guests (throwaway accounts) cannot report."""
    return bool(
        user is not None
        and user.is_authenticated
        and user.is_active
        and not getattr(user, "is_guest", False)
    )


def report_match_check(*, target: User, match_id: int | None) -> None:
    """A report names the match it is about only when the target played or chatted in it (a
    report from a match page may be a spectator's, on a player's chat); no match is attached
    otherwise, so what the report form says is attached is what is."""
    if match_id is not None and not hooks.took_part_in_match(target.pk, match_id):
        raise CommandError("bad_field", _("That player did not play or chat in that match."))


def report_create(
    *, reporter: User, target: User, reason: str, text: str = "", match_id: int | None = None
) -> Report:
    """A player reports another. One open report per reporter and target (a database
    constraint); at most REPORTS_PER_DAY per reporter (the reporter's row is locked while
    counting, so tabs cannot race past it)."""
    if not can_report(reporter):
        raise CommandError("not_allowed", _("Only signed-in players can report."))
    if reporter.pk == target.pk:
        raise CommandError("bad_field", _("You cannot report yourself."))
    if reason not in ReportReason.values:
        raise CommandError("bad_field", _("Choose a reason."))
    text = (text or "").strip()
    if len(text) > MAX_REPORT_TEXT:
        raise CommandError(
            "too_long", _("At most %(count)s characters, please.") % {"count": MAX_REPORT_TEXT}
        )
    if text:  # optional; when given, the rule of every text others read (line breaks allowed)
        try:
            check_showable(text, multiline=True)
        except UnshowableText as refusal:
            raise CommandError("bad_field", str(refusal.message)) from None
    report_match_check(target=target, match_id=match_id)
    already = _("You already have an open report on this player; a moderator will look at it.")
    try:
        with transaction.atomic():
            user_row_lock(reporter.pk)
            if Report.objects.filter(
                reporter=reporter, target=target, status=ReportStatus.OPEN
            ).exists():
                raise CommandError("already_reported", already)
            since = timezone.now() - timedelta(days=1)
            made = Report.objects.filter(reporter=reporter, created_at__gte=since).count()
            if made >= settings.REPORTS_PER_DAY:
                raise CommandError(
                    "rate_limited",
                    _("You have sent %(count)s reports today; try again tomorrow.")
                    % {"count": made},
                )
            return Report.objects.create(
                reporter=reporter, target=target, reason=reason, text=text, match_id=match_id
            )
    except IntegrityError:  # the one-open-report constraint, from a concurrent request
        raise CommandError("already_reported", already) from None


# --- Moderators' actions -------------------------------------------------------------------------


def may_moderate(moderator: User, permission: str) -> bool:
    """Active staff holding the permission and under no ban or chat mute: a sanctioned moderator
    loses every action until the sanction ends or another moderator lifts it."""
    return bool(
        moderator.is_active
        and moderator.is_staff
        and moderator.has_perm(permission)
        and not restricted(moderator.pk)
    )


def _require(moderator: User, permission: str) -> None:
    if not (moderator.is_active and moderator.is_staff and moderator.has_perm(permission)):
        raise PermissionDenied(permission)
    if restricted(moderator.pk):
        raise CommandError(
            "sanctioned", _("A sanction is in force on your account: you cannot moderate.")
        )


def _refuse_own_case(moderator: User, user_id: int | None) -> None:
    """Nobody moderates their own case: sanctions on themselves, their reports, their matches."""
    if user_id is not None and user_id == moderator.pk:
        raise CommandError("own_case", _("You cannot moderate your own case."))


def _require_superuser_for_staff(moderator: User, user: User) -> None:
    """A ban or a mute takes a staff member's moderation away, so only a superuser gives or
    lifts one: moderators cannot silence one another."""
    if user.is_staff and not moderator.is_superuser:
        raise PermissionDenied("only a superuser sanctions staff")


def _clean_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise CommandError("bad_field", _("Give a reason."))
    return reason[:MAX_REASON_TEXT]


def _audit(moderator: User, action: str, reason: str, **targets) -> AuditEntry:
    return AuditEntry.objects.create(moderator=moderator, action=action, reason=reason, **targets)


def _locked_report(report_id: int | None) -> Report | None:
    if report_id is None:
        return None
    report = Report.objects.select_for_update().filter(pk=report_id).first()
    if report is None:
        raise CommandError("not_found", _("There is no such report."))
    return report


def _close(report: Report, moderator: User, resolution: str, *, sanctioned: bool = False) -> None:
    report.status = ReportStatus.CLOSED
    report.closed_at = timezone.now()
    report.closed_by = moderator
    report.resolution = resolution
    report.save(update_fields=["status", "closed_at", "closed_by", "resolution"])
    _audit(moderator, AuditAction.CLOSE_REPORT, resolution, target_user=report.target,
           target_match=report.match, report=report)  # fmt: skip
    report_id, reporter_id, target_id = report.pk, report.reporter_id, report.target_id
    transaction.on_commit(
        lambda: hooks.announce_report_closed(
            report_id, reporter_id, target_id, sanctioned=sanctioned
        ),
        robust=True,
    )


def _sanction(
    *, moderator: User, user: User, kind: str, action: str, reason: str,
    ends_at: datetime | None, report_id: int | None,
) -> Sanction:  # fmt: skip
    """Write the sanction, its audit row and, when it answers a report, close that report."""
    reason = _clean_reason(reason)
    now = timezone.now()
    if ends_at is not None and ends_at <= now:
        raise CommandError("bad_field", _("The end must be in the future."))
    # The user's row orders two moderators' sanctions of one user. FOR NO KEY UPDATE, like every
    # write that locks a user row (accounts/locks.py): a match starting for the user meanwhile
    # key-shares the row at its commit, while the ban waits for that start's rows (a pairing
    # wave's tournament rows, a pool's entries) to withdraw the user; FOR UPDATE deadlocked them.
    user_row_lock(user.pk)
    report = _locked_report(report_id)
    if report is not None and report.target_id != user.pk:
        raise CommandError("bad_field", _("That report is about another player."))
    sanction = Sanction.objects.create(
        user=user, kind=kind, reason=reason, created_by=moderator, created_at=now,
        ends_at=ends_at, report=report,
    )  # fmt: skip
    _audit(moderator, action, reason, target_user=user, sanction=sanction, report=report)
    if report is not None and report.status == ReportStatus.OPEN:
        _close(report, moderator, f"{sanction.get_kind_display()}: {reason}", sanctioned=True)
    return sanction


def user_warn(
    *, moderator: User, user: User, reason: str, report_id: int | None = None
) -> Sanction:
    """A warning the user sees on their next page (moderation/middleware.py)."""
    _require(moderator, "moderation.warn_user")
    _refuse_own_case(moderator, user.pk)
    with transaction.atomic():
        sanction = _sanction(moderator=moderator, user=user, kind=SanctionKind.WARNING,
                             action=AuditAction.WARN, reason=reason, ends_at=None,
                             report_id=report_id)  # fmt: skip
        user_id = user.pk
        transaction.on_commit(lambda: flag_unseen_warning(user_id))
    return sanction


def user_chat_mute(
    *, moderator: User, user: User, reason: str, ends_at: datetime, report_id: int | None = None
) -> Sanction:
    """The user cannot chat until `ends_at` (chat/services.py refuses)."""
    _require(moderator, "moderation.mute_user")
    _refuse_own_case(moderator, user.pk)
    _require_superuser_for_staff(moderator, user)
    if ends_at is None:
        raise CommandError("bad_field", _("A chat mute needs an end."))
    with transaction.atomic():
        return _sanction(moderator=moderator, user=user, kind=SanctionKind.CHAT_MUTE,
                         action=AuditAction.CHAT_MUTE, reason=reason, ends_at=ends_at,
                         report_id=report_id)  # fmt: skip


def user_ban(
    *, moderator: User, user: User, reason: str, ends_at: datetime | None = None,
    report_id: int | None = None,
) -> Sanction:  # fmt: skip
    """Ban until `ends_at`, or for good when it is None. In the same transaction the user's
    active matches end as their losses (reason `banned`, rated as the match was) and their open
    challenges are withdrawn; after commit the opponents see why (the `match_over` event) and
    every socket of the user, on every Daphne process, is closed with 4003. Games and pairing
    do their part through the `user_banned` signal (moderation/hooks.py)."""
    _require(moderator, "moderation.ban_user")
    _refuse_own_case(moderator, user.pk)
    _require_superuser_for_staff(moderator, user)
    with transaction.atomic():
        sanction = _sanction(moderator=moderator, user=user, kind=SanctionKind.BAN,
                             action=AuditAction.BAN, reason=reason, ends_at=ends_at,
                             report_id=report_id)  # fmt: skip
        # Games ends the live matches, pairing takes the user out of the pools, tournaments
        # withdraw them.
        hooks.user_banned.send(sender=User, user=user)
        user_id = user.pk
        transaction.on_commit(lambda: close_user_sockets(user_id, code=CLOSE_BANNED))
        # A match that a pairing wave or a pool began for the user while the ban waited for its
        # rows commits before the ban does, unseen by it: once the ban is committed, the
        # receivers run once more and end it (each in transactions of its own; a failure there
        # is logged and leaves the ban standing).
        transaction.on_commit(lambda: _answer_ban_again(user), robust=True)
    return sanction


def _answer_ban_again(user: User) -> None:
    send_to_all(
        hooks.user_banned, "user_banned", f"the ban of user {user.pk}", sender=User, user=user
    )


def sanction_lift(*, moderator: User, sanction_id: int, reason: str) -> Sanction:
    """End a ban or a chat mute early. Locks the sanction row; lifting twice is refused, and so
    is lifting one's own (a staff member's only by a superuser)."""
    _require(moderator, "moderation.lift_sanction")
    reason = _clean_reason(reason)
    with transaction.atomic():
        sanction = Sanction.objects.select_for_update().filter(pk=sanction_id).first()
        if sanction is None:
            raise CommandError("not_found", _("There is no such sanction."))
        _refuse_own_case(moderator, sanction.user_id)
        _require_superuser_for_staff(moderator, sanction.user)
        if sanction.kind == SanctionKind.WARNING or not sanction.in_force():
            raise CommandError("not_in_force", _("This sanction is not in force."))
        sanction.lifted_at = timezone.now()
        sanction.lifted_by = moderator
        sanction.save(update_fields=["lifted_at", "lifted_by"])
        _audit(moderator, AuditAction.LIFT, reason, target_user_id=sanction.user_id,
               sanction=sanction)  # fmt: skip
    return sanction


def match_annul(
    *, moderator: User, match_id: int, reason: str, report_id: int | None = None
) -> None:
    """Annul a finished match: it stays in the history, marked annulled; its rating changes are
    reverted through ratings' service (which also takes it out of the wins boards). Locks the
    match row; annulling twice is refused. The match's side is games' (moderation/hooks.py)."""
    _require(moderator, "moderation.annul_match")
    reason = _clean_reason(reason)
    with transaction.atomic():
        match = hooks.match_annul(
            match_id=match_id, refuse_party=lambda user_id: _refuse_own_case(moderator, user_id)
        )
        report = _locked_report(report_id)
        if report is not None and report.match_id != match.pk:
            raise CommandError("bad_field", _("That report is about another match."))
        _refuse_own_case(moderator, report.target_id if report is not None else None)
        _audit(moderator, AuditAction.ANNUL, reason, target_match=match, report=report)
        if report is not None and report.status == ReportStatus.OPEN:
            _close(
                report,
                moderator,
                _("Match annulled: %(reason)s") % {"reason": reason},
                sanctioned=True,
            )


def report_close(*, moderator: User, report_id: int, resolution: str) -> Report:
    """Close a report with a resolution. Locks the report; closing twice is refused."""
    _require(moderator, "moderation.close_report")
    resolution = _clean_reason(resolution)
    with transaction.atomic():
        report = _locked_report(report_id)
        assert report is not None
        _refuse_own_case(moderator, report.target_id)
        if report.status != ReportStatus.OPEN:
            raise CommandError("report_closed", _("This report is closed already."))
        _close(report, moderator, resolution)
    return report


def warnings_mark_seen(*, user_id: int, sanction_ids: list[int]) -> int:
    """The user was shown these warnings (on the page they just opened)."""
    return Sanction.objects.filter(
        pk__in=sanction_ids, user_id=user_id, kind=SanctionKind.WARNING, seen_at__isnull=True
    ).update(seen_at=timezone.now())
