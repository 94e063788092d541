"""A player's side of a tournament: create one, join, withdraw, pause and resume
(docs/rules.md "Arena tournaments", items 1 and 5). Each refusal is a CommandError with a clear
message and changes nothing; each write takes the tournament's lock first (tournaments/locks.py).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.locks import user_row_lock
from config.showable_text import UnshowableText, check_showable
from games.models import LIVE_TIME_CONTROLS, TURN_SECONDS_CHOICES, RuleSetName
from moderation.eligibility import refuse_if_banned
from ratings.models import Rating
from realtime.errors import CommandError
from tournaments import live, schedule
from tournaments.locks import lock_tournament
from tournaments.models import MATCH_LENGTHS, MAX_NAME, PLAYER_DURATIONS, Player, Status, Tournament
from tournaments.services.pairing import tournament_pair

# How far ahead a player may schedule a tournament.
FURTHEST_START = timedelta(days=7)


def _choice(value: object, allowed: tuple | list, field: str) -> None:
    if value not in allowed:
        raise CommandError("bad_field", _("Choose one of the values offered for %(field)s.")
                           % {"field": field})  # fmt: skip


def _clean_name(name: object) -> str:
    """The name as stored: stripped, 1 to MAX_NAME characters, showable (config/showable_text.py:
    listed for everyone, so no control or direction-control characters, something visible)."""
    name = name.strip() if isinstance(name, str) else ""
    if not name or len(name) > MAX_NAME:
        raise CommandError(
            "bad_field", _("A name is 1 to %(count)s characters.") % {"count": MAX_NAME}
        )
    try:
        check_showable(name)
    except UnshowableText as refusal:
        raise CommandError("bad_field", str(refusal.message)) from None
    return name


def tournament_create(
    *,
    user,
    name: str,
    rule_set_name: str,
    length: int,
    time_control: str,
    turn_seconds: int,
    rated: bool,
    minutes: int,
    starts_at: datetime,
    private: bool,
    now: datetime | None = None,
) -> Tournament:
    """A tournament a player makes: private (with a link) or public, at most
    TOURNAMENTS_PER_PLAYER_PER_DAY a day. Locks the creator's row so that two tabs are counted
    one after the other."""
    now = now or timezone.now()
    if user.is_guest or user.is_bot:
        raise CommandError("guest", _("Sign up to create a tournament."))
    refuse_if_banned(user)
    name = _clean_name(name)
    _choice(rule_set_name, RuleSetName.values, _("rule set"))
    _choice(length, MATCH_LENGTHS, _("match length"))
    _choice(time_control, LIVE_TIME_CONTROLS, _("clock"))
    _choice(turn_seconds, TURN_SECONDS_CHOICES, _("seconds per turn"))
    _choice(minutes, PLAYER_DURATIONS, _("duration"))
    if not isinstance(rated, bool) or not isinstance(private, bool):
        raise CommandError("bad_field", _("Choose one of the values offered for %(field)s.")
                           % {"field": _("rated")})  # fmt: skip
    if starts_at < now or starts_at > now + FURTHEST_START:
        raise CommandError("bad_field", _("The start must be within the next seven days."))
    with transaction.atomic():
        user_row_lock(user.pk)
        made = Tournament.objects.filter(created_by=user, created_at__gte=now - timedelta(days=1))
        if made.count() >= settings.TOURNAMENTS_PER_PLAYER_PER_DAY:
            raise CommandError(
                "too_many_tournaments",
                _("You have created %(count)s tournaments in the last day; try again later.")
                % {"count": settings.TOURNAMENTS_PER_PLAYER_PER_DAY},
            )
        tournament = Tournament.objects.create(
            name=name, rule_set_name=rule_set_name, length=length, time_control=time_control,
            turn_seconds=turn_seconds, rated=rated, minutes=minutes, starts_at=starts_at,
            ends_at=starts_at + timedelta(minutes=minutes), private=private, created_by=user,
            created_at=now,
        )  # fmt: skip
        schedule.on_commit_start(tournament)
    return tournament


def may_see(tournament: Tournament, user, token: str | None) -> bool:
    """A private tournament is seen with its link, by its creator, its players and staff."""
    if not tournament.private or token == tournament.token:
        return True
    if user is None or not user.is_authenticated:
        return False
    return (
        user.is_staff
        or tournament.created_by_id == user.pk
        or Player.objects.filter(tournament=tournament, user=user).exists()
    )


def _locked(tournament_id: int, user, token: str | None = None) -> Tournament:
    lock_tournament(tournament_id)
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or not may_see(tournament, user, token):
        raise CommandError("not_found", _("There is no such tournament."))
    return tournament


def _refuse_joining(tournament: Tournament, user) -> None:
    if not user.is_authenticated:
        raise CommandError("login_required", _("Sign in to join a tournament."))
    if user.is_bot:
        raise CommandError("bot", _("The computer does not play in tournaments."))
    if not user.is_active:
        raise CommandError("account_inactive", _("This account is deactivated."))
    refuse_if_banned(user)
    if tournament.status in (Status.FINISHED, Status.CANCELLED) or (
        timezone.now() >= tournament.ends_at
    ):
        raise CommandError("tournament_over", _("This tournament is over."))
    if tournament.rated and not user.may_play_rated:
        raise CommandError(
            "guest_not_rated", _("Guests play casual tournaments; sign up to play rated.")
        )
    rating = Rating.objects.filter(user=user).values_list("value", "matches").first()
    value, matches = rating if rating is not None else (1500, 0)
    low, high = tournament.min_rating, tournament.max_rating
    if (low is not None and value < low) or (high is not None and value > high):
        raise CommandError(
            "outside_range", _("Your rating is outside the range this tournament asks for.")
        )
    if matches < tournament.min_rated_matches:
        raise CommandError(
            "too_few_matches",
            _("This tournament asks for at least %(count)s rated matches played.")
            % {"count": tournament.min_rated_matches},
        )


def tournament_join(*, user, tournament_id: int, token: str | None = None) -> Player:
    """Join, or come back after withdrawing (points kept). Takes the tournament's lock, so two
    tabs joining at once make one row, and the count of players cannot pass the cap."""
    with transaction.atomic():
        tournament = _locked(tournament_id, user, token)
        _refuse_joining(tournament, user)
        player = Player.objects.filter(tournament=tournament, user=user).first()
        if player is not None and player.removed:
            raise CommandError("removed", _("A moderator removed you from this tournament."))
        if player is not None and not player.withdrawn:
            raise CommandError("already_joined", _("You have already joined this tournament."))
        if player is None:
            if Player.objects.filter(tournament=tournament).count() >= tournament.max_players:
                raise CommandError("tournament_full", _("This tournament is full."))
            player = Player.objects.create(tournament=tournament, user=user)
        else:
            player.withdrawn = player.paused = player.paused_as_absent = False
            player.save(update_fields=["withdrawn", "paused", "paused_as_absent"])
        live.changed(tournament.pk)
    tournament_pair(tournament_id=tournament_id)  # paired at once when someone else is free
    return player


def _own_player(tournament: Tournament, user) -> Player:
    player = (
        Player.objects.select_for_update()
        .filter(tournament=tournament, user_id=getattr(user, "pk", None))
        .first()
    )
    if player is None or player.withdrawn or player.removed:
        raise CommandError("not_joined", _("You are not playing in this tournament."))
    return player


def tournament_withdraw(*, user, tournament_id: int) -> Player:
    """Leave the tournament (points kept; joining again brings them back). Refused during one's
    tournament match: finish it first."""
    with transaction.atomic():
        tournament = _locked(tournament_id, user)
        player = _own_player(tournament, user)
        if player.playing_id is not None:
            raise CommandError("in_a_match", _("Finish your tournament match before withdrawing."))
        player.withdrawn = True
        player.save(update_fields=["withdrawn"])
        live.changed(tournament.pk)
    return player


def tournament_pause(*, user, tournament_id: int, pause: bool) -> Player:
    """Pause (no new pairings; a match in progress goes on) or resume: the one way back for a
    player the arena paused as absent (docs/rules.md "Arena tournaments", item 5)."""
    with transaction.atomic():
        tournament = _locked(tournament_id, user)
        if tournament.status in (Status.FINISHED, Status.CANCELLED):
            raise CommandError("tournament_over", _("This tournament is over."))
        player = _own_player(tournament, user)
        if player.paused != pause or player.paused_as_absent:
            player.paused, player.paused_as_absent = pause, False
            player.save(update_fields=["paused", "paused_as_absent"])
            live.changed(tournament.pk)
    if not pause:
        tournament_pair(tournament_id=tournament_id)
    return player
