"""The pairing wave and the scoring of a finished match (docs/rules.md "Arena tournaments",
items 2 to 4).

Exactly once: whoever pairs a tournament — a join, a resume, a match's end, the start, the beat's
sweep, in any process — first takes the tournament's lock (tournaments/locks.py), then locks the
free players' rows, pairs them with the pure function (tournaments/arena.py) and in the same
transaction starts each match through games' start path, which takes both players' start locks
and refuses one who is playing another match (games/services/starts.py). A `Pairing` row per
match, keyed by the match, and the player's `playing` column make a second pairing of a busy
player impossible; scoring sets `scored_at` under the same lock, so a match counts once whoever
reports its end (the hook after commit, or the sweep that finds it unscored).
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.fairness import new_client_seed, new_server_seed
from games.models import Match, MatchStatus, TimeControl
from games.rules import rule_set
from games.services.starts import match_new, match_started, players_lock, refuse_if_playing
from moderation.eligibility import blocked_pairs_among
from ratings.selectors import ratings_of
from realtime.errors import CommandError
from realtime.groups import notify_user
from tournaments import live
from tournaments.arena import PERFORMANCE_SPREAD as SPREAD
from tournaments.arena import Free, Result, may_pair, pair_free, points_for
from tournaments.locks import lock_tournament
from tournaments.models import Pairing, Player, Status, Tournament
from tournaments.services.places import places_write

log = logging.getLogger(__name__)


def tournament_pair(*, tournament_id: int) -> int:
    """Pair every free player of a running tournament who can be paired now; returns the number
    of matches started. Takes the tournament's lock, then the free players' rows."""
    with transaction.atomic():
        lock_tournament(tournament_id)
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        now = timezone.now()
        if tournament is None or tournament.status != Status.RUNNING:
            return 0
        if not may_pair(now, starts_at=tournament.starts_at, ends_at=tournament.ends_at):
            return 0
        players = list(
            Player.objects.select_for_update()
            .filter(
                tournament=tournament, withdrawn=False, paused=False, removed=False,
                playing__isnull=True, user__is_active=True,
            )
            .values_list("user_id", "points", "last_opponent_id")
        )  # fmt: skip
        if len(players) < 2:
            return 0
        ids = [user_id for user_id, _points, _last in players]
        busy = _playing_elsewhere(ids)
        free_ids = [user_id for user_id in ids if user_id not in busy]
        ratings = ratings_of(free_ids)
        free = [
            Free(user_id, points, float(ratings[user_id].value), last)
            for user_id, points, last in players
            if user_id not in busy
        ]
        started = 0
        for pairing in pair_free(free, blocked_pairs_among(free_ids)):
            # A wave of many matches takes a while: none may begin in the last minute.
            if not may_pair(
                timezone.now(), starts_at=tournament.starts_at, ends_at=tournament.ends_at
            ):
                break
            try:
                _start(tournament, pairing.first, pairing.second)
            except CommandError:  # one started a match another way meanwhile: not paired
                continue
            started += 1
        if started:
            live.changed(tournament.pk)
    return started


def _playing_elsewhere(user_ids: list[int]) -> set[int]:
    """Players in a match outside the tournament now (an accepted challenge): left out until it
    ends, as games' start path would refuse them."""
    rows = (
        Match.objects.filter(status=MatchStatus.ACTIVE)
        .filter(Q(creator_id__in=user_ids) | Q(opponent_id__in=user_ids))
        .values_list("creator_id", "opponent_id")
    )
    return {user_id for pair in rows for user_id in pair} & set(user_ids)


def _start(tournament: Tournament, first: Free, second: Free) -> Match:
    """One tournament match, begun at once with the opening roll through games' start path
    (games/services/starts.py: both players' start locks, `in_a_match` refused changing
    nothing, `match_new`, then `match_started`), with the tournament's clock. The server
    draws both client seeds: neither player has sent one, and the server seed is drawn with them
    (games/fairness)."""
    people = [first.user_id, second.user_id]
    with transaction.atomic():  # a refused start rolls back only itself
        players_lock(people)
        refuse_if_playing(people)
        turn = tournament.time_control == TimeControl.TURN
        context = match_new(
            seats=(first.user_id, second.user_id), rule_set_name=tournament.rule_set_name,
            rules=rule_set(tournament.rule_set_name, match_length=tournament.length),
            rated=tournament.rated, turn_seconds=tournament.turn_seconds if turn else None,
            time_control=tournament.time_control,
            client_seeds=(new_client_seed(), new_client_seed()), server_seed=new_server_seed(),
        )  # fmt: skip
        match_started(context, people)
        match = context.match
        Pairing.objects.create(
            match=match, tournament=tournament, first_id=first.user_id,
            second_id=second.user_id, first_rating=first.rating, second_rating=second.rating,
        )  # fmt: skip
        Player.objects.filter(
            tournament=tournament, user_id__in=(first.user_id, second.user_id)
        ).update(playing=match)
    for player in (first, second):
        notify_user(
            player.user_id,
            {"type": "tournament_paired", "tournament": tournament.pk, "match_id": match.pk},
        )
    return match


# --- Scoring -------------------------------------------------------------------------------------


def results_of(match: Match, pairing: Pairing) -> tuple[Result, Result] | None:
    """Each side's result of an ended tournament match (docs/rules.md "Arena tournaments", item
    3): the winner wins; an abort is a loss for the aborting player and no result for the other.
    None while the match is still being played."""
    if match.status == MatchStatus.FINISHED and match.winner_id is not None:
        first_won = match.winner_id == pairing.first_id
        return (Result.WIN, Result.LOSS) if first_won else (Result.LOSS, Result.WIN)
    if match.status in (MatchStatus.ABORTED, MatchStatus.FINISHED):
        aborter = (
            match.player_id(match.aborted_by_seat) if match.aborted_by_seat is not None else None
        )
        return (
            Result.LOSS if aborter == pairing.first_id else Result.NONE,
            Result.LOSS if aborter == pairing.second_id else Result.NONE,
        )
    return None


def tournament_match_score(*, match_id: int) -> int | None:
    """Count an ended tournament match in both players' scores, once; the tournament's id when
    this call counted it, else None. Takes the tournament's lock, then the pairing and both
    players' rows."""
    tournament_id = (
        Pairing.objects.filter(match_id=match_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return None  # not a tournament match
    with transaction.atomic():
        lock_tournament(tournament_id)
        pairing = Pairing.objects.select_for_update().get(match_id=match_id)
        match = Match.objects.get(pk=match_id)
        results = results_of(match, pairing)
        if pairing.scored_at is not None or results is None:
            return None
        sides = (
            (pairing.first_id, pairing.second_id, pairing.second_rating, results[0]),
            (pairing.second_id, pairing.first_id, pairing.first_rating, results[1]),
        )
        gained = []
        for user_id, opponent_id, opponent_rating, result in sides:
            player = Player.objects.select_for_update().get(
                tournament_id=tournament_id, user_id=user_id
            )
            gained.append(_count(player, result, opponent_id, opponent_rating, match_id))
        pairing.scored_at = timezone.now()
        pairing.first_points, pairing.second_points = gained
        pairing.save(update_fields=["scored_at", "first_points", "second_points"])
        if Tournament.objects.filter(pk=tournament_id, status=Status.FINISHED).exists():
            places_write(tournament_id)  # a match played on past the end counts now
        live.changed(tournament_id)
    return tournament_id


def _count(player: Player, result: Result, opponent_id: int, opponent_rating: float,
           match_id: int) -> int:  # fmt: skip
    points = 0
    if result is not Result.NONE:
        points = points_for(result, player.streak)
        player.points += points
        won = result is Result.WIN
        player.streak = player.streak + 1 if won else 0
        player.wins += won
        player.losses += not won
        player.performance_total += opponent_rating + (SPREAD if won else -SPREAD)
        player.counted += 1
    player.last_opponent_id = opponent_id
    if player.playing_id == match_id:
        player.playing = None
    player.save()
    return points
