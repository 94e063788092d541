"""The pairing wave and the scoring of a finished match (docs/rules.md "Arena tournaments",
items 2 to 4).

Exactly once: whoever pairs a tournament — a join, a resume, a match's end, the start, the beat's
sweep, in any process — first takes the tournament's lock (tournaments/locks.py), then locks the
free players' rows, pairs them with the pure function (tournaments/arena.py) and in the same
transaction starts the wave's matches through games' start path in one batch, which takes every
player's start lock and leaves out a match one of whose players is playing another match
(games/services/starts.py `matches_start_many`). A `Pairing` row per
match, keyed by the match, and the player's `playing` column make a second pairing of a busy
player impossible; scoring sets `scored_at` under the same lock, so a match counts once whoever
reports its end (the hook after commit, or the sweep that finds it unscored).

The wave leaves out a player over the match rate and a pair within its wait or over its meetings
(docs/rules.md "Arena tournaments", item 2; tournaments/services/meetings.py); the scoring gives
nothing for a match its loser left without playing and pauses an absent loser (items 3 and 5).
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone

from games import effects
from games.effects import Effects
from games.fairness import new_client_seed, new_server_seed
from games.models import EndReason, Match, MatchStatus, TimeControl
from games.selectors import own_turns_played
from games.services.starts import NewMatch, matches_start_many, playing_now
from moderation.eligibility import blocked_pairs_among
from nardy import rule_set
from ratings.selectors import ratings_of
from tournaments import live
from tournaments.arena import PERFORMANCE_SPREAD as SPREAD
from tournaments.arena import (
    Free,
    Met,
    Result,
    finished_results,
    left_unplayed,
    may_meet,
    may_pair,
    over_rate,
    pair_free,
    paused_after,
    points_for,
)
from tournaments.arena import Pairing as Paired
from tournaments.locks import lock_tournament
from tournaments.models import ArenaPair, Pairing, Player, Status, Tournament
from tournaments.services.meetings import (
    PairKey,
    met_among,
    pair_key,
    pair_unplayed,
    pairs_record,
    recent_starts,
)
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
        # The Player rows alone (`of`): without it the join on the user locks the players'
        # user rows FOR UPDATE too, which an accepted challenge's commit needs to share (its
        # foreign keys' check) while it holds a start lock this wave is about to ask for.
        players = list(
            Player.objects.select_for_update(of=("self",))
            .filter(
                tournament=tournament, withdrawn=False, paused=False, removed=False,
                playing__isnull=True, user__is_active=True,
            )
            .values_list("user_id", "points", "last_opponent_id")
        )  # fmt: skip
        if len(players) < 2:
            return 0
        ids = [user_id for user_id, _points, _last in players]
        # Players in a match outside the tournament now (an accepted challenge) wait until it
        # ends; read before pairing so that nobody is paired with them (the start checks again
        # under the start locks).
        busy = playing_now(ids)
        # A player who began MATCHES_PER_MINUTE arena matches in the last minute waits, and two
        # players meet again only after MEETING_WAIT, at most MEETINGS_PER_ARENA times
        # (docs/rules.md "Arena tournaments", item 2): the beat's sweep pairs them once they may.
        begun = recent_starts(ids, now)
        free_ids = [
            user_id for user_id in ids if user_id not in busy and not over_rate(begun[user_id])
        ]
        if len(free_ids) < 2:
            return 0
        ratings = ratings_of(free_ids)
        free = [
            Free(user_id, points, float(ratings[user_id].value), last)
            for user_id, points, last in players
            if user_id in ratings  # ratings_of answers for exactly the free players
        ]
        met = met_among(tournament.pk, free_ids)
        blocks = blocked_pairs_among(free_ids)

        def blocked(first: int, second: int) -> bool:
            known = met.get(pair_key(first, second))
            return blocks(first, second) or not may_meet(known[0] if known else None, now)

        pairings = pair_free(free, blocked)
        # No match begins in the last minute (docs/rules.md "Arena tournaments", item 2). The
        # wave's matches begin in one batch, well under a second for a thousand players
        # (bench/tournaments.py), so one check just before it keeps the rule.
        if not pairings or not may_pair(
            timezone.now(), starts_at=tournament.starts_at, ends_at=tournament.ends_at
        ):
            return 0
        started = _start(tournament, pairings, met, now)
        if started:
            live.changed(tournament.pk)
    return started


def _start(
    tournament: Tournament,
    pairings: list[Paired],
    met: dict[PairKey, tuple[Met, ArenaPair]],
    now: datetime,
) -> int:
    """The wave's matches, begun at once with the opening roll through games' start path
    (games/services/starts.py `matches_start_many`: every player's start lock, a match one of
    whose players is playing another match left out, the others begun), with the tournament's
    clock; then a `Pairing` row each and the players' `playing`, one statement each, and the
    players told after commit. The server draws both client seeds of each match: neither
    player has sent one, and the server seed is drawn with them (games/fairness). The number of
    matches begun."""
    turn = tournament.time_control == TimeControl.TURN
    rules = rule_set(tournament.rule_set_name, match_length=tournament.length)
    begun = matches_start_many(
        [
            NewMatch(
                seats=(pairing.first.user_id, pairing.second.user_id),
                rule_set_name=tournament.rule_set_name, rules=rules, rated=tournament.rated,
                turn_seconds=tournament.turn_seconds if turn else None,
                time_control=tournament.time_control,
                client_seeds=(new_client_seed(), new_client_seed()), server_seed=new_server_seed(),
            )
            for pairing in pairings
        ]
    )  # fmt: skip
    if not begun:
        return 0
    by_first = {pairing.first.user_id: pairing for pairing in pairings}
    matches = [(by_first[context.match.creator_id], context.match) for context in begun]
    Pairing.objects.bulk_create(
        Pairing(
            match=match, tournament=tournament, first_id=pairing.first.user_id,
            second_id=pairing.second.user_id, first_rating=pairing.first.rating,
            second_rating=pairing.second.rating,
        )
        for pairing, match in matches
    )  # fmt: skip
    pairs_record(
        tournament.pk,
        ((pairing.first.user_id, pairing.second.user_id) for pairing, _match in matches),
        met, now,
    )  # fmt: skip
    playing = {
        user_id: match.pk
        for pairing, match in matches
        for user_id in (pairing.first.user_id, pairing.second.user_id)
    }
    # Each player's new match, read from the Pairing rows just written: one short statement
    # (a CASE with a branch per player costs more to build than the whole wave's inserts).
    match_of_player = Pairing.objects.filter(
        Q(first_id=OuterRef("user_id")) | Q(second_id=OuterRef("user_id")),
        match_id__in=[match.pk for _pairing, match in matches],
    ).values("match_id")[:1]
    Player.objects.filter(tournament=tournament, user_id__in=playing).update(
        playing=Subquery(match_of_player)
    )
    effects.on_commit(
        Effects(
            notices=[
                (user_id, {"type": "tournament_paired", "tournament": tournament.pk,
                           "match_id": match_id})
                for user_id, match_id in playing.items()
            ]
        )
    )  # fmt: skip
    return len(matches)


# --- Scoring -------------------------------------------------------------------------------------


def results_of(match: Match, pairing: Pairing, loser_turns: int) -> tuple[Result, Result] | None:
    """Each side's result of an ended tournament match (docs/rules.md "Arena tournaments", item
    3): the winner wins, unless the loser left it without playing (`loser_turns`, the turns they
    played themselves, fewer than PLAYED_TURNS): then, as after an abort, a loss for the one who
    left and no result for the other. None while the match is still being played."""
    if match.status == MatchStatus.FINISHED and match.winner_id is not None:
        first_won = match.winner_id == pairing.first_id
        return finished_results(first_won=first_won, loser_turns=loser_turns)
    if match.status in (MatchStatus.ABORTED, MatchStatus.FINISHED):
        aborter = (
            match.player_id(match.aborted_by_seat) if match.aborted_by_seat is not None else None
        )
        return (
            Result.LOSS if aborter == pairing.first_id else Result.NONE,
            Result.LOSS if aborter == pairing.second_id else Result.NONE,
        )
    return None


def loser_of(match: Match) -> int | None:
    """The player who lost a finished match, None for an aborted one."""
    if match.status != MatchStatus.FINISHED or match.winner_id is None:
        return None
    return match.opponent_id if match.winner_id == match.creator_id else match.creator_id


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
        loser = loser_of(match)
        loser_turns = own_turns_played(match_id, loser) if loser is not None else 0
        results = results_of(match, pairing, loser_turns)
        if pairing.scored_at is not None or results is None:
            return None
        now = timezone.now()
        # Left unplayed, for the moderators' flag: aborted, or lost without playing.
        if match.status == MatchStatus.ABORTED or (
            loser is not None and left_unplayed(loser_turns)
        ):
            pair_unplayed(tournament_id, pairing.first_id, pairing.second_id, now)
        absent = loser is not None and paused_after(
            abandoned=match.end_reason == EndReason.ABANDONED,
            by_clock=match.end_reason in (EndReason.TIMEOUTS, EndReason.TIME),
            loser_turns=loser_turns,
        )
        sides = (
            (pairing.first_id, pairing.second_id, pairing.second_rating, results[0]),
            (pairing.second_id, pairing.first_id, pairing.first_rating, results[1]),
        )
        gained = []
        for user_id, opponent_id, opponent_rating, result in sides:
            player = Player.objects.select_for_update().get(
                tournament_id=tournament_id, user_id=user_id
            )
            if absent and user_id == loser:
                # docs/rules.md "Arena tournaments", item 5: paired again, an absent player
                # only feeds claims; they come back with the page's Resume.
                player.paused = player.paused_as_absent = True
            gained.append(_count(player, result, opponent_id, opponent_rating, match_id))
        pairing.scored_at = now
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
