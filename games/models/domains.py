"""Column types with their rule: PostgreSQL domains for the match, game and move-log columns'
one-column rules.

Every command writes the match row and its game's (games/services/hot_path.py), and PostgreSQL
checks a table's CHECK constraints at every UPDATE of any of its columns: it parses each one again
from its stored text for every statement (ExecRelCheck, then ExecPrepareExpr), and that parsing
was the largest single part of a command's PostgreSQL CPU (docs/architecture.md, "How code is
shaped here"). A
domain's check runs only where a statement gives the column a value (an UPDATE of the version
alone checks the version and nothing else), and each server process keeps it parsed (its type
cache). So a rule on one column is the column's type here; the tables keep only the rules that
tie columns together.

A domain is written by a migration and read by the models: `DOMAINS` is what the models declare,
and tests/games/test_domains.py fails when the database's domains differ from it. To change a
domain's values (a new end reason, a new turn time): change it here and add a migration with
`migrations.RunSQL(alter_sql(name), ...)` (the domains were created by
games/migrations/0010_column_domains.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.validators import MinValueValidator
from django.db import models

from games.models.choices import (
    CLIENT_SEED_REGEX,
    RESERVE_SECONDS_CHOICES,
    SERVER_SEED_REGEX,
    SIDES,
    TURN_SECONDS_CHOICES,
    DiceSource,
    EndReason,
    GameResult,
    MatchStatus,
    Phase,
)
from nardy.cube import MAX_CUBE_VALUE
from nardy.ruleset import (
    BLOCK_RELEASES,
    CORRESPONDENCE_DAYS,
    CUBE_RAISES,
    GAME_STARTERS,
    HEAD_EXCEPTIONS,
    MATCH_LENGTHS,
    OPENING_MODES,
    RULE_SET_NAMES,
    SINGLE_DIE_MODES,
    SIX_BLOCK_MODES,
    TIME_CONTROLS,
)


@dataclass(frozen=True)
class Domain:
    """A named column type: the base type and the check every value given to it passes (NULL
    passes: whether a column may be NULL is the column's own NOT NULL)."""

    name: str
    base: str
    check: str


def _literal(value: str | int) -> str:
    if isinstance(value, int):
        return str(value)
    if "'" in value or "\\" in value:
        raise ValueError(f"a domain value is a plain word: {value!r}")
    return f"'{value}'"


def _one_of(name: str, base: str, values) -> Domain:
    return Domain(name, base, f"VALUE IN ({', '.join(_literal(value) for value in values)})")


DOMAINS: dict[str, Domain] = {
    domain.name: domain
    for domain in (
        Domain("nonneg_smallint", "smallint", "VALUE >= 0"),
        Domain("nonneg_integer", "integer", "VALUE >= 0"),
        _one_of("games_seat", "smallint", (0, 1)),
        _one_of("games_match_length", "smallint", MATCH_LENGTHS),
        _one_of("games_turn_seconds", "smallint", TURN_SECONDS_CHOICES),
        _one_of("games_reserve_seconds", "smallint", RESERVE_SECONDS_CHOICES),
        _one_of("games_move_days", "smallint", CORRESPONDENCE_DAYS),
        Domain("games_cube_value", "smallint", f"VALUE BETWEEN 1 AND {MAX_CUBE_VALUE}"),
        Domain("games_points", "smallint", f"VALUE BETWEEN 0 AND {MAX_CUBE_VALUE}"),
        _one_of("games_match_status", "varchar(16)", MatchStatus.values),
        _one_of("games_end_reason", "varchar(16)", [*EndReason.values, ""]),
        _one_of("games_rule_set_name", "varchar(16)", RULE_SET_NAMES),
        _one_of("games_six_block", "varchar(16)", SIX_BLOCK_MODES),
        _one_of("games_head_exception", "varchar(16)", HEAD_EXCEPTIONS),
        _one_of("games_opening", "varchar(16)", OPENING_MODES),
        _one_of("games_single_die", "varchar(16)", SINGLE_DIE_MODES),
        _one_of("games_block_release", "varchar(16)", BLOCK_RELEASES),
        _one_of("games_game_starter", "varchar(16)", GAME_STARTERS),
        _one_of("games_cube_raise", "varchar(16)", CUBE_RAISES),
        _one_of("games_time_control", "varchar(16)", TIME_CONTROLS),
        _one_of("games_dice_source", "varchar(8)", DiceSource.values),
        _one_of("games_side", "varchar(1)", SIDES),
        _one_of("games_phase", "varchar(8)", Phase.values),
        _one_of("games_game_result", "varchar(4)", [*GameResult.values, ""]),
        Domain("games_client_seed", "varchar(64)", f"VALUE ~ '{CLIENT_SEED_REGEX}'"),
        Domain(
            "games_rematch_server_seed",
            "varchar(64)",
            f"VALUE = '' OR VALUE ~ '{SERVER_SEED_REGEX}'",
        ),
    )
}


def _constraint(name: str, check: str) -> str:
    """A domain's one named check, as CREATE DOMAIN and ALTER DOMAIN ADD both spell it."""
    return f"CONSTRAINT {name}_valid CHECK ({check})"


def create_sql(name: str) -> str:
    domain = DOMAINS[name]
    return f"CREATE DOMAIN {name} AS {domain.base} {_constraint(name, domain.check)}"


def alter_sql(name: str, check: str | None = None) -> list[str]:
    """The statements that give an existing domain the check `DOMAINS` declares, or `check` (a
    migration's RunSQL); adding the check checks the rows already there. A new base type (a
    longer varchar) is a new domain, not this."""
    return [
        f"ALTER DOMAIN {name} DROP CONSTRAINT {name}_valid",
        f"ALTER DOMAIN {name} ADD {_constraint(name, check or DOMAINS[name].check)}",
    ]


class _Typed:
    """A field whose column type is a domain of `DOMAINS`."""

    def __init__(self, *args, domain: str, **kwargs) -> None:
        if domain not in DOMAINS:
            raise ValueError(f"unknown domain {domain!r}: declare it in games/models/domains.py")
        self.domain = domain
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        kwargs["domain"] = self.domain
        return name, path, args, kwargs

    def db_type(self, connection) -> str:
        return self.domain

    def cast_db_type(self, connection) -> str:
        return super().db_type(connection)  # a Cast() names the base type


class TypedCharField(_Typed, models.CharField):
    pass


class _NonNegative:
    """The integer domains hold no negative number: a form refuses one before the database would,
    as for Django's positive fields (not used here: their `>= 0` table check is what the domain
    replaces)."""

    default_validators = [MinValueValidator(0)]

    def formfield(self, **kwargs):
        return super().formfield(**{"min_value": 0, **kwargs})


class TypedSmallIntegerField(_Typed, _NonNegative, models.SmallIntegerField):
    pass


class TypedIntegerField(_Typed, _NonNegative, models.IntegerField):
    pass
