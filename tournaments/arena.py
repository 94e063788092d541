"""Arena tournaments' scoring and pairing as pure functions: no Django, no clock (the caller passes
the time), no database (the caller passes who is free and who may not meet).

docs/rules.md, "Arena tournaments", is what this implements:

- a match won scores 2, a match lost 0; after two wins in a row each further win scores double
  (4) until a loss ends the streak (`score`);
- an abort counts as a loss for the player who aborted and as nothing for the other (`Result`);
  so does a match its loser left without playing, fewer than PLAYED_TURNS turns of their own
  (`finished_results`), which moves no rating either; the loser who lost it by abandonment or by
  the clock without a turn of their own is paused (`paused_after`);
- ties in the standings go to the better performance: the average of each opponent's rating
  +400 for a win, -400 for a loss (`performance`; FIDE's linear approximation of a performance
  rating, the "rule of 400"); then to whoever joined first;
- pairing: every free player is paired with the free player closest in tournament score, then
  rating, never with the opponent of their last match while anyone else is free for them
  (`pair_free`); nobody is paired in the last minute (`may_pair`);
- two players meet again only MEETING_WAIT after their last match began and at most
  MEETINGS_PER_ARENA times (`may_meet`); a player begins at most MATCHES_PER_MINUTE matches a
  minute (`over_rate`); a pair met FLAG_MEETINGS times or with FLAG_UNPLAYED matches left
  unplayed is flagged for moderators (`flagged`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum

WIN_POINTS = 2
LOSS_POINTS = 0
# A win scores double once the player has this many wins in a row before it.
STREAK_AFTER = 2
PERFORMANCE_SPREAD = 400
# No new match starts this close to the end: it could not finish (docs/rules.md).
LAST_MINUTE = timedelta(minutes=1)
# One tournament point weighs as much as this many rating points when choosing whom to pair:
# score first, rating to break the closeness of equal scores.
RATING_PER_POINT = 1000.0
# A finished match counts (points, and ratings in a rated arena) only when its loser played at
# least this many turns themselves (docs/rules.md "Arena tournaments", item 3): a match resigned
# at once, left to the clock or to a claim is no win to score. Turns, not seconds: a script waits
# out any number of seconds for free, and the turns the server plays for an absent player are
# not theirs. A long nardy game takes some 25 turns a side, so no honest loss ends in five.
PLAYED_TURNS = 5
# The same two players are paired again only this long after their last match began, and never
# more than MEETINGS_PER_ARENA times in one arena (docs/rules.md "Arena tournaments", item 2):
# a second account that resigns at once is no source of wins. Counted from the start, so an
# honest match longer than the wait leaves two players alone in an arena free to play again.
MEETING_WAIT = timedelta(minutes=3)
MEETINGS_PER_ARENA = 5
# No player begins more arena matches than this in RATE_WINDOW (docs/rules.md "Arena
# tournaments", item 2): an honest match takes minutes; a stream of instant ones is farming or a
# page that is not there, and each costs rows, a deadline task and an analysis.
MATCHES_PER_MINUTE = 3
RATE_WINDOW = timedelta(minutes=1)
# A pair is flagged for moderators (the admin's list of arena pairs) once it has met this many
# times in one arena, or once this many of its matches were left unplayed.
FLAG_MEETINGS = 3
FLAG_UNPLAYED = 2
# How many next players in the standings order each free player is weighed against: the closest
# partners are among them (pairing/logic.py does the same for the pools).
CANDIDATES_PER_PLAYER = 8


class Result(Enum):
    WIN = "win"
    LOSS = "loss"
    NONE = "none"  # the opponent aborted: no result for this player (docs/rules.md)


@dataclass(frozen=True)
class Played:
    """One finished tournament match from one player's side."""

    result: Result
    opponent_rating: float


@dataclass(frozen=True)
class Score:
    points: int
    streak: int  # wins in a row now
    on_fire: bool  # the next win counts double
    wins: int
    losses: int
    performance: float | None  # None before a match with a result
    sheet: tuple[int, ...]  # points of each match with a result, in order


def points_for(result: Result, streak_before: int) -> int:
    """What one result scores after `streak_before` wins in a row."""
    if result is Result.WIN:
        return WIN_POINTS * (2 if streak_before >= STREAK_AFTER else 1)
    return LOSS_POINTS


def left_unplayed(loser_turns: int) -> bool:
    """Whether a finished match's loser left it without playing (fewer than PLAYED_TURNS turns
    of their own): it scores nothing and moves no rating (docs/rules.md "Arena tournaments",
    item 3)."""
    return loser_turns < PLAYED_TURNS


def finished_results(*, first_won: bool, loser_turns: int) -> tuple[Result, Result]:
    """Each side's result of a match won by one of them: a win and a loss, or, when its loser
    left it without playing, a loss for them and nothing for the winner, as an abort."""
    winner = Result.NONE if left_unplayed(loser_turns) else Result.WIN
    return (winner, Result.LOSS) if first_won else (Result.LOSS, winner)


def paused_after(*, abandoned: bool, by_clock: bool, loser_turns: int) -> bool:
    """Whether the loser of a match is paused in the arena (docs/rules.md "Arena tournaments",
    item 5): they lost it by abandonment (the opponent claimed it), or by the clock without a
    turn of their own (they never opened it). Paired again, they would only feed more such
    wins; they come back by resuming on the arena's page."""
    return abandoned or (by_clock and loser_turns == 0)


def score(played: Iterable[Played]) -> Score:
    """A player's tournament score from their matches, in the order they ended."""
    points = streak = wins = losses = 0
    sheet: list[int] = []
    ratings_total = 0.0
    for match in played:
        if match.result is Result.NONE:
            continue
        gained = points_for(match.result, streak)
        points += gained
        sheet.append(gained)
        if match.result is Result.WIN:
            wins += 1
            streak += 1
            ratings_total += match.opponent_rating + PERFORMANCE_SPREAD
        else:
            losses += 1
            streak = 0
            ratings_total += match.opponent_rating - PERFORMANCE_SPREAD
    counted = wins + losses
    return Score(
        points=points, streak=streak, on_fire=streak >= STREAK_AFTER, wins=wins, losses=losses,
        performance=ratings_total / counted if counted else None, sheet=tuple(sheet),
    )  # fmt: skip


def performance(total: float, counted: int) -> float | None:
    """The performance kept as a running sum: the average of (opponent rating ±400)."""
    return total / counted if counted else None


@dataclass(frozen=True)
class Standing:
    user_id: int
    points: int
    performance: float | None
    joined_order: int  # earlier joiners first among equals
    struck_out: bool = False  # removed by a moderator: shown, never ranked


def standings_key(row: Standing) -> tuple[bool, int, float, int]:
    """Sort key: ranked rows first, more points, better performance, earlier join."""
    shown_performance = row.performance if row.performance is not None else float("-inf")
    return (row.struck_out, -row.points, -shown_performance, row.joined_order)


def rank(rows: Iterable[Standing]) -> list[tuple[int | None, Standing]]:
    """The standings in order with each ranked row's place (1, 2, ...); struck-out rows come
    last with no place. Equal points and performance share nothing: the earlier joiner is
    ahead, so places are always distinct."""
    ordered = sorted(rows, key=standings_key)
    placed: list[tuple[int | None, Standing]] = []
    place = 0
    for row in ordered:
        if row.struck_out:
            placed.append((None, row))
        else:
            place += 1
            placed.append((place, row))
    return placed


# --- Pairing -------------------------------------------------------------------------------------


def may_pair(now: datetime, *, starts_at: datetime, ends_at: datetime) -> bool:
    """Whether a new match may start now: from the start until one minute before the end."""
    return starts_at <= now < ends_at - LAST_MINUTE


@dataclass(frozen=True)
class Met:
    """Two players' meetings in one arena so far."""

    times: int
    last_started_at: datetime
    unplayed: int = 0


def may_meet(met: Met | None, now: datetime) -> bool:
    """Whether two players may be paired now: never met, or met fewer than MEETINGS_PER_ARENA
    times with the last begun at least MEETING_WAIT ago."""
    if met is None:
        return True
    return met.times < MEETINGS_PER_ARENA and now - met.last_started_at >= MEETING_WAIT


def over_rate(recent_starts: int) -> bool:
    """Whether a player who began `recent_starts` arena matches in the last RATE_WINDOW waits."""
    return recent_starts >= MATCHES_PER_MINUTE


def flagged(met: Met) -> bool:
    """Whether moderators see the pair in their list of arena pairs."""
    return met.times >= FLAG_MEETINGS or met.unplayed >= FLAG_UNPLAYED


@dataclass(frozen=True)
class Free:
    """A joined player who is free to play now."""

    user_id: int
    points: int
    rating: float
    last_opponent: int | None = None


@dataclass(frozen=True)
class Pairing:
    first: Free  # the higher in the standings
    second: Free


BlockedPair = Callable[[int, int], bool]


def never_blocked(first: int, second: int) -> bool:
    return False


def is_rematch(first: Free, second: Free) -> bool:
    return first.last_opponent == second.user_id or second.last_opponent == first.user_id


def distance(first: Free, second: Free) -> float:
    return abs(first.points - second.points) * RATING_PER_POINT + abs(first.rating - second.rating)


def pair_free(free: Iterable[Free], blocked: BlockedPair = never_blocked) -> list[Pairing]:
    """Pair as many free players as possible, closest score and rating first, each once. A pair
    of last opponents is made only when neither has anyone else free; a rematch the greedy choice
    left is undone by swapping partners with another pair when that makes no rematch. Rounds
    repeat over those left (each round weighs every player against its next few in the standings
    order), so no two players left could still be paired."""
    order: Sequence[Free] = sorted(free, key=lambda p: (-p.points, -p.rating, p.user_id))
    left = list(range(len(order)))
    pairs: list[tuple[int, int]] = []
    while made := _one_round(order, left, blocked):
        pairs.extend(made)
        taken = {index for pair in made for index in pair}
        left = [index for index in left if index not in taken]
    pairs = _undo_rematches(order, pairs, left, blocked)
    return [Pairing(first=order[min(pair)], second=order[max(pair)]) for pair in pairs]


def _one_round(
    order: Sequence[Free], left: list[int], blocked: BlockedPair
) -> list[tuple[int, int]]:
    candidates: list[tuple[bool, float, int, int]] = []
    for at, index in enumerate(left):
        player, found = order[index], 0
        for other_index in left[at + 1 :]:
            other = order[other_index]
            if blocked(player.user_id, other.user_id):
                continue
            candidates.append(
                (is_rematch(player, other), distance(player, other), index, other_index)
            )
            found += 1
            if found == CANDIDATES_PER_PLAYER:
                break
    candidates.sort()
    taken: set[int] = set()
    pairs: list[tuple[int, int]] = []
    for _rematch, _distance, index, other_index in candidates:
        if index in taken or other_index in taken:
            continue
        taken.update((index, other_index))
        pairs.append((index, other_index))
    return pairs


def _undo_rematches(
    order: Sequence[Free], pairs: list[tuple[int, int]], left: list[int], blocked: BlockedPair
) -> list[tuple[int, int]]:
    """Each rematch pair takes a player left over instead (the other one waits: someone else
    was free), or swaps partners with another pair when neither new pair is a rematch."""

    def fine(a: int, b: int) -> bool:
        first, second = order[a], order[b]
        return not is_rematch(first, second) and not blocked(first.user_id, second.user_id)

    pairs = list(pairs)
    for at, (a, b) in enumerate(pairs):
        if not is_rematch(order[a], order[b]):
            continue
        spare = next(
            ((x, keep, out) for x in left for keep, out in ((a, b), (b, a)) if fine(keep, x)),
            None,
        )
        if spare is not None:
            x, keep, out = spare
            pairs[at] = (keep, x)
            left[left.index(x)] = out
            continue
        for other_at, (c, d) in enumerate(pairs):
            if other_at == at:
                continue
            for new_one, new_two in (((a, c), (b, d)), ((a, d), (b, c))):
                if fine(*new_one) and fine(*new_two):
                    pairs[at], pairs[other_at] = new_one, new_two
                    break
            else:
                continue
            break
    return pairs
