"""The play commands' hot path in plain SQL: the match lock's read and the command's update.

Every command locks its match, loads the current game and both players, and updates the two rows.
Through the ORM that took 4 statements and 6.5 ms of CPU per play command (`make bench-service`,
DEBUG on, our 2-core machine loaded), almost all of it in the ORM's query compiler: the lock and
load (`select_for_update(of=("self",)).select_related(...).only(...).get()`, then the game's
`order_by("-number").first()`) 3.9 ms, the two `save(update_fields=...)` 2.9 ms. Here the lock
and the read cost 0.8 ms and the update is one statement: 5.9 ms per command with the same
settings, 3.5-4.2 ms with production settings (rows.py, the private-API version this replaces:
2.9-3.4 ms in the same hour). The move log's new rows go into the same statement as the updates
(the ORM's `bulk_create` was 5.9 % of a Daphne process, bench/live_load.py); new matches and
games are written by the ORM (`bulk_create`), their ids read back.

The board commands first run without the lock (runners.py `play`): `load_unlocked` is the same
read in autocommit, with each row's xmin, and `write_rows_guarded` writes only if both rows are
still those versions, so a command is two round trips instead of five (BEGIN, lock, read,
write, COMMIT), and one when the process kept the rows its last write left (kept.py).
bench/live_load.py, 250 matches, back to back: Daphne 3.68 -> 3.31 ms and PostgreSQL
1.18 -> 1.07 ms CPU per command for the two.

Supported API only: the SQL text comes from the models' documented `_meta` (Options API) and
runs on Django's own cursor; rows become instances through `Model.from_db` after each field's
`from_db_value`, and values go out through `get_db_prep_save` (the documented field hooks the ORM
itself uses). tests/games/test_hot_path.py compares the results with the ORM's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache, partial
from typing import Any

from django.contrib.postgres.fields import ArrayField
from django.db import DataError, connection
from django.db.models import (
    Field,
    IntegerField,
    JSONField,
    Model,
    PositiveSmallIntegerField,
    SmallIntegerField,
)

from accounts.models import User
from games.models import Game, Match, Turn
from ratings.models import Rating


@dataclass(frozen=True)
class Player:
    """What a match's context knows of a player (`PLAYER_FIELDS` says where each comes from)."""

    id: int
    username: str
    auto_roll: bool
    rating: int | None  # None until the player's first rated match
    experience: int | None
    is_active: bool
    bot_level: str  # empty for a person
    play_forced: bool
    confirm_turn: bool


# Each of Player's fields, in order, as a field of the user ("id") or of their rating
# ("rating__value"): the lock's read joins them here, a batch of new matches reads them through
# the ORM (games/services/starts.py); both from this one list.
PLAYER_FIELDS: tuple[str, ...] = (
    "id", "username", "auto_roll", "rating__value", "rating__experience", "is_active",
    "bot_level", "play_forced", "confirm_turn",
)  # fmt: skip


def _quote(name: str) -> str:
    return f'"{name}"'  # PostgreSQL; our table and column names are plain lowercase


def _player_column(alias: str, name: str) -> str:
    """A `PLAYER_FIELDS` entry in the lock's read: the user table is `alias`, the rating's is
    `alias` + "r"."""
    if name.startswith("rating__"):
        field = Rating._meta.get_field(name.removeprefix("rating__"))
        return f"{alias}r.{_quote(field.column)}"
    return f"{alias}.{_quote(User._meta.get_field(name).column)}"


def _columns(model: type[Model], alias: str) -> str:
    return ", ".join(f"{alias}.{_quote(field.column)}" for field in model._meta.concrete_fields)


@cache
def _statements() -> tuple[str, str]:
    match_table, game_table = _quote(Match._meta.db_table), _quote(Game._meta.db_table)
    user_table, rating_table = _quote(User._meta.db_table), _quote(Rating._meta.db_table)
    match_of_game = _quote(Game._meta.get_field("match").column)
    number = _quote(Game._meta.get_field("number").column)
    rating_user = _quote(Rating._meta.get_field("user").column)
    players, joins = [], []
    for alias, seat_field in (("p0", "creator"), ("p1", "opponent")):
        seat_column = _quote(Match._meta.get_field(seat_field).column)
        players.append(", ".join(_player_column(alias, name) for name in PLAYER_FIELDS))
        joins.append(
            f"LEFT JOIN {user_table} {alias} ON {alias}.id = m.{seat_column} "
            f"LEFT JOIN {rating_table} {alias}r ON {alias}r.{rating_user} = m.{seat_column}"
        )
    # Two statements: in READ COMMITTED a statement that waits for a row lock sees the locked
    # row's new version but the rows it joined as they were before the wait, so a single locking
    # join could return a stale game. The read starts once the lock is held and sees everything
    # committed before.
    # The read without the lock (`load_unlocked`) also returns the two rows' xmin, the id of the
    # transaction that wrote each version: any write of a row makes a new version with a new
    # xmin, so the guarded write (`write_rows_guarded`) finds out whether either row changed.
    # The games' `xmin` goes through the lateral subquery as a column of its own.
    return (
        f"SELECT 1 FROM {match_table} WHERE id = %s FOR UPDATE",
        f"SELECT {_columns(Match, 'm')}, {_columns(Game, 'g')}, {', '.join(players)}, "
        f"m.xmin::text, g.game_xmin "
        f"FROM {match_table} m "
        f"LEFT JOIN LATERAL (SELECT *, xmin::text AS game_xmin FROM {game_table} "
        f"WHERE {match_of_game} = m.id ORDER BY {number} DESC LIMIT 1) g ON TRUE "
        f"{' '.join(joins)} WHERE m.id = %s",
    )


@cache
def _loading(model: type[Model]) -> tuple[list[str], tuple[tuple[int, Any], ...]]:
    """The model's attnames in column order, and (index, from_db_value) of the fields that
    convert what the database sends (read once: walking every field per row was a third of
    `_instance`'s cost under bench/live_load.py)."""
    fields = model._meta.concrete_fields
    converters = tuple(
        (index, field.from_db_value)
        for index, field in enumerate(fields)
        if hasattr(field, "from_db_value")
    )
    return [field.attname for field in fields], converters


def _instance(model: type[Model], values: list[Any]) -> Model:
    attnames, converters = _loading(model)
    for index, convert in converters:
        values[index] = convert(values[index], None, connection)
    return model.from_db(connection.alias, attnames, values)


Versions = tuple[str, str | None]  # the xmin of the match row and of its current game's row


def lock_and_load(match_id: int) -> tuple[Match, Game | None, list[Player]] | None:
    """Lock a match row (inside a transaction) and load it with its current game and players;
    None when there is no such match."""
    lock_sql, read_sql = _statements()
    with connection.cursor() as cursor:
        cursor.execute(lock_sql, [match_id])
        if cursor.fetchone() is None:
            return None
        cursor.execute(read_sql, [match_id])
        row = cursor.fetchone()
    return _rows_of(list(row))[:3]  # type: ignore[return-value]


def load_unlocked(
    match_id: int,
) -> tuple[Match, Game | None, list[Player], Versions] | None:
    """The match with its current game and players as last committed, without a lock (one
    statement in autocommit), and the versions that `write_rows_guarded` checks; None when there
    is no such match."""
    _, read_sql = _statements()
    with connection.cursor() as cursor:
        cursor.execute(read_sql, [match_id])
        row = cursor.fetchone()
    return None if row is None else _rows_of(list(row))


def _rows_of(row: list[Any]) -> tuple[Match, Game | None, list[Player], Versions]:
    match_width, game_width = len(Match._meta.concrete_fields), len(Game._meta.concrete_fields)
    match = _instance(Match, row[:match_width])
    game_values = row[match_width : match_width + game_width]
    game = _instance(Game, game_values) if game_values[0] is not None else None
    if game is not None:
        game.match = match  # game.match without a query
    rest = row[match_width + game_width : -2]
    width = len(PLAYER_FIELDS)
    players = [
        Player(*rest[start : start + width]) for start in (0, width) if rest[start] is not None
    ]
    return match, game, players, (row[-2], row[-1])


def _integer_array(value: Any) -> str | None:
    """ArrayField(IntegerField...).get_db_prep_save as PostgreSQL's array text: "{15,0,-15}".

    The field's own hook calls the base field's once per item, and psycopg then dumps a list
    through its pure-Python list dumper, which inspects every item for its type: 30 us a board
    here, against 3 us for this text (a command writes a few boards and dice), and the hooks
    were 2.6 % of a Daphne process (bench/live_load.py). Each integer field's hook is int()
    (IntegerField.get_prep_value). psycopg sends a str as of unknown type, so PostgreSQL reads it
    as the column's array type, as it reads any literal (tests/games/test_hot_path.py compares
    the rows with the ORM's)."""
    if value is None:
        return None
    return "{" + ",".join(["NULL" if item is None else str(int(item)) for item in value]) + "}"


def _json_text(prepare: Callable[[Any], Any], value: Any) -> Any:
    """JSONField(encoder=None).get_db_prep_save as the JSON text it sends: psycopg's Jsonb
    wrapper and the dumper it makes for every value were 1.3 % of a Daphne process
    (bench/live_load.py) for the text `json.dumps` makes either way (Django's adapt_json_value
    dumps with json.dumps when the field has no encoder). PostgreSQL reads the text as the
    column's jsonb, as it reads the arrays' text. Anything but a list or a dict (None is SQL
    NULL, an expression is SQL) goes through the field's own hook."""
    return json.dumps(value) if type(value) in (list, dict) else prepare(value)


@cache
def _prepare(field: Field) -> Callable[[Any], Any]:
    """How a value of `field` goes out: its `get_db_prep_save`, as the ORM's own writes do."""
    if isinstance(field, ArrayField) and type(field.base_field) in _PLAIN_INTEGERS:
        return _integer_array
    prepare = partial(field.get_db_prep_save, connection=connection)
    if type(field) is JSONField and field.encoder is None:
        return partial(_json_text, prepare)
    return prepare


_PLAIN_INTEGERS = (SmallIntegerField, PositiveSmallIntegerField, IntegerField)


@lru_cache(maxsize=256)
def _update_of(model: type[Model], names: tuple[str, ...]) -> tuple[str, tuple[Any, ...]]:
    """The UPDATE of `names` of one `model` row, and (attname, prepare) of each value in order:
    built once per set of changed fields (a command changes one of a few sets)."""
    fields = [model._meta.get_field(name) for name in names]
    assignments = ", ".join(f"{_quote(field.column)} = %s" for field in fields)
    sql = (
        f"UPDATE {_quote(model._meta.db_table)} SET {assignments} "
        f"WHERE {_quote(model._meta.pk.column)} = %s"
    )
    return sql, tuple((field.attname, _prepare(field)) for field in fields)


@lru_cache(maxsize=64)
def _insert_of(model: type[Model], count: int) -> tuple[str, tuple[Any, ...]]:
    """The INSERT of `count` new `model` rows (every column but the id), and (attname, prepare)
    of each column in order."""
    fields = [field for field in model._meta.concrete_fields if field is not model._meta.pk]
    one = f"({', '.join(['%s'] * len(fields))})"
    sql = (
        f"INSERT INTO {_quote(model._meta.db_table)} "
        f"({', '.join(_quote(field.column) for field in fields)}) "
        f"VALUES {', '.join([one] * count)}"
    )
    return sql, tuple((field.attname, _prepare(field)) for field in fields)


@lru_cache(maxsize=256)
def _statement(parts: tuple[str, ...]) -> str:
    """The parts as one statement: all but the last in data-modifying WITH clauses."""
    clauses = ", ".join(f"w{index} AS ({sql})" for index, sql in enumerate(parts[:-1]))
    return f"WITH {clauses} {parts[-1]}" if clauses else parts[-1]


def write_rows(changes: list[tuple[Model, list[str]]], new: Sequence[Model] = ()) -> None:
    """UPDATE the named fields of each loaded row and INSERT the `new` rows (the move log's),
    all in one statement: the first parts in data-modifying WITH clauses, which all run before
    the statement's end, where PostgreSQL checks the foreign keys. Values go through each
    field's `get_db_prep_save`, as the ORM's `save(update_fields=...)` and `bulk_create` do;
    these models have no save signals or `auto_now` fields that the ORM would run, and the new
    rows' ids are not read back (tests/games/test_hot_path.py compares with the ORM)."""
    parts: list[str] = []
    parameters: list[Any] = []
    for row, names in changes:
        sql, columns = _update_of(type(row), tuple(names))
        parts.append(sql)
        parameters += [prepare(getattr(row, attname)) for attname, prepare in columns]
        parameters.append(row.pk)
    for model in dict.fromkeys(type(row) for row in new):
        rows = [row for row in new if type(row) is model]
        sql, columns = _insert_of(model, len(rows))
        parts.append(sql)
        for row in rows:
            parameters += [prepare(getattr(row, attname)) for attname, prepare in columns]
    if not parts:
        return
    with connection.cursor() as cursor:
        cursor.execute(_statement(tuple(parts)), parameters)


# PostgreSQL's SQLSTATE for division_by_zero: the guarded write's way to undo itself.
_DIVISION_BY_ZERO = "22012"


@lru_cache(maxsize=256)
def _guarded_update_of(
    model: type[Model], names: tuple[str, ...], after: str | None
) -> tuple[str, tuple[Any, ...]]:
    """`_update_of`, only while the row's xmin is the one read, and (`after`) only once the
    WITH clause named `after` updated its row; it returns the new version's xmin (this
    statement's transaction: the same for every row it writes)."""
    sql, columns = _update_of(model, names)
    guard = " AND xmin = %s::xid"
    if after is not None:
        guard += f" AND EXISTS (SELECT FROM {after})"
    return f"{sql}{guard} RETURNING xmin::text AS version", columns


def write_rows_guarded(
    match: Match,
    match_fields: list[str],
    game: Game,
    game_fields: list[str],
    turns: Sequence[Turn],
    versions: Versions,
) -> Versions | None:
    """Update the match and its game and insert the move log's new rows, in one statement in
    autocommit, only if neither row changed since `load_unlocked` read `versions`; the rows'
    new versions, or None (and nothing written) when one changed.

    The match row is updated first (w0; its UPDATE waits for a writer holding its lock, as the
    locked path's FOR UPDATE does, then checks the row's newest version), the game only after it
    (w1 reads w0), so rows are locked in the locked path's order and the two never deadlock. The
    statement's last part divides by the number of game rows updated: when the game's guard
    failed after the match's passed, the division by zero ends the statement with an error and
    PostgreSQL undoes all of it, so the command writes all of its rows or none."""
    match_sql, match_columns = _guarded_update_of(Match, tuple(match_fields), None)
    game_sql, game_columns = _guarded_update_of(Game, tuple(game_fields), "w0")
    parts = [match_sql, game_sql]
    parameters = [prepare(getattr(match, attname)) for attname, prepare in match_columns]
    parameters += [match.pk, versions[0]]
    parameters += [prepare(getattr(game, attname)) for attname, prepare in game_columns]
    parameters += [game.pk, versions[1]]
    if turns:
        sql, columns = _insert_of(Turn, len(turns))
        parts.append(sql)
        for row in turns:
            parameters += [prepare(getattr(row, attname)) for attname, prepare in columns]
    parts.append("SELECT 1 / count(*), max(version) FROM w1")
    try:
        with connection.cursor() as cursor:
            cursor.execute(_statement(tuple(parts)), parameters)
            ((_, version),) = cursor.fetchall()
    except DataError as error:
        if getattr(error.__cause__, "sqlstate", None) == _DIVISION_BY_ZERO:
            return None
        raise
    return (version, version)
