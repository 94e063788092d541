"""Who plays whom in a quick-pairing pool: pure functions, no Django, no clock (the caller passes
the time waited), no database (the caller passes who is blocked).

The Romanian platform's "Find opponent" (shared/seeds/000: „Caută adversar”) pairs players with
close ratings and asks both to confirm when the gap is 400 points or more. Here:

- each waiting player accepts a rating gap that widens with the time waited: ±100 at once, growing
  evenly to ±400 at 30 s, then without limit (`window`);
- a pair is possible when the gap is inside BOTH players' windows and the pair is not blocked;
- the closest possible pairs are made first (ties: the longer wait first), each player once;
- a pair whose gap is 400 or more is made only as a proposal both must confirm
  (`needs_confirmation`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

WINDOW_START = 100.0
WINDOW_WIDEST = 400.0
WIDEN_SECONDS = 30.0
CONFIRM_GAP = 400.0
CONFIRM_SECONDS = 15
# How many next-higher-rated players each waiting player is weighed against in one round: the
# closest partners are among them; a player whose candidates were all taken is tried next round.
CANDIDATES_PER_PLAYER = 8

BlockedPair = Callable[[int, int], bool]


def never_blocked(first: int, second: int) -> bool:
    return False


@dataclass(frozen=True)
class Waiting:
    """A player in a pool: who, the rating they joined with, and how long they have waited."""

    user_id: int
    rating: float
    waited: float  # seconds


@dataclass(frozen=True)
class Pair:
    first: Waiting  # the one who waited longer
    second: Waiting

    @property
    def gap(self) -> float:
        return abs(self.first.rating - self.second.rating)

    @property
    def needs_confirmation(self) -> bool:
        return needs_confirmation(self.first.rating, self.second.rating)


def window(waited: float) -> float | None:
    """The rating gap a player accepts after `waited` seconds; None once there is no limit."""
    if waited > WIDEN_SECONDS:
        return None
    share = max(0.0, waited) / WIDEN_SECONDS
    return WINDOW_START + (WINDOW_WIDEST - WINDOW_START) * share


def within(gap: float, waited: float) -> bool:
    limit = window(waited)
    return limit is None or gap <= limit


def needs_confirmation(first_rating: float, second_rating: float) -> bool:
    """Both players confirm a gap of 400 points or more (docs/rules.md, Platform rules)."""
    return abs(first_rating - second_rating) >= CONFIRM_GAP


def acceptable(first: Waiting, second: Waiting, blocked: BlockedPair = never_blocked) -> bool:
    if first.user_id == second.user_id:
        return False
    gap = abs(first.rating - second.rating)
    if not (within(gap, first.waited) and within(gap, second.waited)):
        return False
    return not blocked(first.user_id, second.user_id)


def pair_up(waiting: Iterable[Waiting], blocked: BlockedPair = never_blocked) -> list[Pair]:
    """The pairs to make now in one pool, closest ratings first, each player at most once.
    Rounds repeat over those left until none pairs, so no two players left could be paired."""
    left = list(waiting)
    pairs: list[Pair] = []
    while made := _one_round(left, blocked):
        pairs.extend(made)
        paired = {player.user_id for pair in made for player in (pair.first, pair.second)}
        left = [player for player in left if player.user_id not in paired]
    return pairs


def _one_round(waiting: Iterable[Waiting], blocked: BlockedPair) -> list[Pair]:
    by_rating: Sequence[Waiting] = sorted(waiting, key=lambda w: (w.rating, -w.waited, w.user_id))
    candidates: list[tuple[float, float, int, int]] = []
    for index, player in enumerate(by_rating):
        found = 0
        for other_index in range(index + 1, len(by_rating)):
            other = by_rating[other_index]
            gap = other.rating - player.rating
            if not within(gap, player.waited):
                break  # everyone further up is further away
            if acceptable(player, other, blocked):
                # Closest first; on equal gaps the pair that has waited longer in total.
                candidates.append((gap, -(player.waited + other.waited), index, other_index))
                found += 1
                if found == CANDIDATES_PER_PLAYER:
                    break
    candidates.sort()
    taken: set[int] = set()
    pairs: list[Pair] = []
    for _gap, _waited, index, other_index in candidates:
        if index in taken or other_index in taken:
            continue
        taken.update((index, other_index))
        first, second = by_rating[index], by_rating[other_index]
        if second.waited > first.waited or (
            second.waited == first.waited and second.user_id < first.user_id
        ):
            first, second = second, first
        pairs.append(Pair(first=first, second=second))
    return pairs
