"""The rules engine's reasons for refusing a step, in the player's language.

The words are docs/glossary.md's.

The engine (nardy) stays pure and speaks English: its reasons are fixed sentences with a few
numbers. This table recognises each one and gives the translated sentence with the same numbers; a
reason it does not know is passed on in English. tests/i18n/test_rule_messages.py plays every
wrong step on many positions and fails when the engine says something this table does not know.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import gettext as _

Translate = Callable[[dict[str, str]], str]

# (the engine's sentence with its numbers as named groups, the translated sentence)
REASONS: list[tuple[re.Pattern[str], Translate]] = [
    (
        re.compile(r"the turn is complete: no more steps can be played"),
        lambda found: _("The turn is complete: no more steps can be played."),
    ),
    (
        re.compile(r"there is no step to undo"),
        lambda found: _("There is no step to take back."),
    ),
    (
        re.compile(r"no die (?P<die>\d) left to play \(remaining dice: \[(?P<left>[\d, ]*)\]\)"),
        lambda found: _("No die %(die)s is left to play (dice left: %(left)s).") % found,
    ),
    (
        re.compile(r"only one checker may leave the head this turn"),
        lambda found: _("Only one checker may leave the head this turn."),
    ),
    (
        re.compile(r"no step can be played"),
        lambda found: _("No step can be played."),
    ),
    (
        re.compile(r"this step does not begin a complete legal turn .*", re.S),
        lambda found: _(
            "This step does not begin a complete legal turn: play as many dice as possible, the "
            "larger die when only one can be played, and mind the six-point block."
        ),
    ),
    (
        re.compile(r"source point (?P<source>-?\d+) is not a point 1\.\.24"),
        lambda found: _("Point %(source)s is not a point from 1 to 24.") % found,
    ),
    (
        re.compile(r"you have no checker on point (?P<source>\d+)"),
        lambda found: _("You have no checker on point %(source)s.") % found,
    ),
    (
        re.compile(
            r"a (?P<die>\d) from point (?P<source>\d+) lands on point (?P<target>\d+), "
            r"not (?P<destination>-?\d+)"
        ),
        lambda found: (
            _("A %(die)s from point %(source)s lands on point %(target)s, not %(destination)s.")
            % found
        ),
    ),
    (
        re.compile(r"point (?P<target>\d+) holds an opposing checker"),
        lambda found: _("Point %(target)s holds an opposing checker.") % found,
    ),
    (
        re.compile(r"a (?P<die>\d) from point (?P<source>\d+) bears the checker off \(.*\)"),
        lambda found: _("A %(die)s from point %(source)s bears the checker off.") % found,
    ),
    (
        re.compile(r"bearing off starts only when all your checkers are in your home"),
        lambda found: _("Bearing off starts only when all your checkers are in your home."),
    ),
    (
        re.compile(
            r"a (?P<die>\d) bears off from point (?P<source>\d+) only when no checker stands higher"
        ),
        lambda found: (
            _("A %(die)s bears off from point %(source)s only when no checker stands higher.")
            % found
        ),
    ),
    (
        re.compile(r"this step would build a six-point block with no opposing checker ahead of it"),
        lambda found: _(
            "This step would build a six-point block with no opposing checker ahead of it."
        ),
    ),
]


def translated_reason(reason: str) -> str:
    """The engine's `reason` in the active language (unchanged when it is not in the table)."""
    for pattern, translate in REASONS:
        found = pattern.fullmatch(reason)
        if found:
            return translate(found.groupdict())
    return reason
