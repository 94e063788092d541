"""Which steps begin a complete legal turn, without listing the turns (docs/rules.md, A turn).

The board asks at every step which steps may come next, whether the turn is complete, and which
one-checker moves of several dice it may offer (``turn.py``, ``combined.py``). The literal
enumerator (``sequences.legal_turns``) answers by listing every order of every complete turn;
with a fresh board at every roll that listing was the largest part of the engine's time on the
live server (bench/live_load.py under py-spy). Here the same answers come from one question,
asked with memory: can a given position be played on, with the dice left, for exactly k more
individually playable steps, ending where the six-point block rule allows? A step begins a
complete legal turn exactly when it is playable and the position after it can be played on for
the rest of the turn's length.

The turn's length (the most dice any legal turn plays: items 1 and 3), the head limit (item 4,
``head.py``) and the larger-die rule (item 3) are decided from the same question. The property
tests check every answer against the literal enumerator (tests/nardy/test_properties.py).
"""

from __future__ import annotations

from functools import lru_cache

from .blocks import has_illegal_block
from .board import BORNE_OFF, HEAD_POINT, OWN_TO_INDEX, POINTS, Board, Side, sign_of
from .head import search_under_head_rule
from .ruleset import RuleSet
from .sequences import Step, StepSequence, apply_step, dice_list, step_problem

# A position within the turn: the board, the dice left (sorted, highest first) and the checkers
# that left the head so far.
_Position = tuple[Board, tuple[int, ...], int]


class TurnPrefixes:
    """What one roll allows from one position: built once per (board, side, dice, first turn,
    rules) and asked for each prefix of steps played."""

    def __init__(
        self, board: Board, side: Side, dice: tuple[int, int], first_turn: bool, rules: RuleSet
    ) -> None:
        self.board, self.side, self.dice, self.rules = board, side, dice, rules
        self._table, self._sign = OWN_TO_INDEX[side], sign_of(side)
        # What is asked again and again is kept: the answers of `_can_play`, the steps playable
        # from a position, the position after each prefix asked about, each prefix's answer.
        self._memo: dict[tuple[_Position, int, int], bool] = {}
        self._moves: dict[tuple[_Position, int], list[tuple[Step, _Position]]] = {}
        self._after: dict[StepSequence, _Position | None] = {}
        self._next: dict[StepSequence, tuple[Step, ...]] = {}
        self._ends: dict[Board, bool] = {}
        _, self.length, self.head_limit = search_under_head_rule(
            dice, first_turn, rules, lambda limit: (None, self._most(limit))
        )
        first, second = dice
        # docs/rules.md, A turn, item 3: when only one die can be played, the larger one if it
        # can be (under single_die = "choice" the mover chooses either).
        self.larger_only = (
            self.length == 1
            and first != second
            and rules.single_die == "larger"
            and any(step.die == max(dice) for step in self._extending(self._start(), 1))
        )

    # --- The question ----------------------------------------------------------------------------

    def _start(self) -> _Position:
        return (self.board, tuple(sorted(dice_list(self.dice), reverse=True)), 0)

    def _end_allowed(self, board: Board) -> bool:
        # Item 5: under end_of_turn only the final position is checked; under every_step each
        # step was (step_problem).
        if self.rules.six_block == "every_step":
            return True
        allowed = self._ends.get(board)
        if allowed is None:
            allowed = self._ends[board] = not has_illegal_block(
                board, self.side, self.rules.block_release
            )
        return allowed

    def _playable(self, position: _Position, limit: int) -> list[tuple[Step, _Position]]:
        """Each individually playable step from `position` and the position after it."""
        key = (position, limit)
        found = self._moves.get(key)
        if found is None:
            found = self._moves[key] = self._find_playable(position, limit)
        return found

    def _find_playable(self, position: _Position, limit: int) -> list[tuple[Step, _Position]]:
        board, left, heads = position
        table, sign = self._table, self._sign
        sources = [p for p in range(POINTS, 0, -1) if board[table[p]] * sign > 0]
        found = []
        for die in sorted(set(left), reverse=True):
            rest = list(left)
            rest.remove(die)
            after_die = tuple(rest)
            for source in sources:
                target = source - die
                # The two refusals most candidates meet, checked before step_problem (which
                # refuses them too, and decides every other case): an opposing checker on the
                # target (item 2), the head checker over the limit (item 4).
                if (target >= 1 and board[table[target]] * sign < 0) or (
                    source == HEAD_POINT and heads >= limit
                ):
                    continue
                step = Step(source, max(target, BORNE_OFF), die)
                if step_problem(board, self.side, step, heads, limit, self.rules) is None:
                    after = apply_step(board, self.side, step)
                    found.append((step, (after, after_die, heads + (source == HEAD_POINT))))
        return found

    def _can_play(self, position: _Position, steps: int, limit: int) -> bool:
        """Whether `steps` more playable steps can be played from `position`, ending where the
        block rule allows."""
        if steps == 0:
            return self._end_allowed(position[0])
        key = (position, steps, limit)
        known = self._memo.get(key)
        if known is None:
            known = any(
                self._can_play(after, steps - 1, limit)
                for _, after in self._playable(position, limit)
            )
            self._memo[key] = known
        return known

    def _most(self, limit: int) -> int:
        """The most dice a legal turn plays under a head limit (0: the roll cannot be played)."""
        start = self._start()
        for steps in range(len(start[1]), 0, -1):
            if self._can_play(start, steps, limit):
                return steps
        return 0

    def _extending(self, position: _Position, remaining: int) -> list[Step]:
        """The playable steps from `position` after which `remaining - 1` more can follow."""
        return [
            step
            for step, after in self._playable(position, self.head_limit)
            if self._can_play(after, remaining - 1, self.head_limit)
        ]

    # --- Answers for a prefix of the turn --------------------------------------------------------

    def _position_after(self, played: StepSequence) -> _Position | None:
        """The position after `played`, None unless it begins a complete legal turn."""
        if played in self._after:
            return self._after[played]
        position: _Position | None = None
        if not played:
            position = self._start()  # every turn begins here, a roll that cannot be played too
        elif len(played) <= self.length and played[-1] in self.next_steps(played[:-1]):
            before = self._position_after(played[:-1])
            assert before is not None  # a step was offered after it
            position = next(
                after
                for step, after in self._playable(before, self.head_limit)
                if step == played[-1]
            )
        self._after[played] = position
        return position

    def next_steps(self, played: StepSequence) -> tuple[Step, ...]:
        """Exactly the steps that, after `played`, begin some complete legal turn, sorted
        highest first."""
        if played in self._next:
            return self._next[played]
        position = self._position_after(played)
        steps: list[Step] = []
        if position is not None and len(played) < self.length:
            steps = self._extending(position, self.length - len(played))
            if self.larger_only and not played:
                steps = [step for step in steps if step.die == max(self.dice)]
        answer = self._next[played] = tuple(sorted(set(steps), reverse=True))
        return answer

    def checker_paths(self, played: StepSequence) -> tuple[StepSequence, ...]:
        """Every path of one checker's steps (one step or more, each from where the last one
        landed) that, after `played`, begins some complete legal turn: a step begins one after
        the path before it exactly when it is playable there and the turn can be completed
        after it (the larger-die rule concerns a turn's first step, which `next_steps` gives)."""
        position = self._position_after(played)
        if position is None:
            return ()
        paths: list[StepSequence] = []
        limit = self.head_limit

        def grow(path: StepSequence, at: _Position, left: int) -> None:
            paths.append(path)
            last = path[-1]
            if last.destination == BORNE_OFF or left == 0:
                return
            for step, after in self._playable(at, limit):
                if step.source == last.destination and self._can_play(after, left - 1, limit):
                    grow((*path, step), after, left - 1)

        offered = self.next_steps(played)
        try:
            for step, after in self._playable(position, limit):
                if step in offered:
                    grow((step,), after, self.length - len(played) - 1)
        finally:
            grow = None  # it names itself: a reference cycle (nardy/__init__.py)
        return tuple(paths)

    def complete(self, played: StepSequence) -> bool:
        """Whether `played` is a complete legal turn (a roll that cannot be played is complete
        with no step)."""
        return len(played) == self.length and self._position_after(played) is not None


@lru_cache(maxsize=512)
def prefixes(
    board: Board, side: Side, dice: tuple[int, int], first_turn: bool, rules: RuleSet
) -> TurnPrefixes:
    """The roll's `TurnPrefixes`, kept: the server asks at every step of a turn."""
    return TurnPrefixes(board, side, dice, first_turn, rules)
