"""The match lock's hot path in plain SQL, built once per process (bench/service_cost.py).

Every play command locks its match row, loads the current game and both players, and writes back
what changed. Through the ORM that took seven statements and about 10 ms of CPU per command on our
2-core machine, most of it in the query compiler (0.75 ms to compile one `get`), and PostgreSQL
planned each statement afresh (1.2 ms of server CPU for the load alone). Here it is a lock, one
read of everything, and one statement for the updates and the new move-log rows of a command,
all prepared (planned once per connection; settings.py sets `prepare_threshold`). psycopg's
pipeline mode, which would send the lock and the read together, cost more CPU in its polling loop
than the round trip it saved.
The SQL text comes from the models' own metadata and the values go through the fields' own
conversions (`from_db_value`, `get_db_prep_save`), so services still get and change ordinary
`Match` and `Game` instances. The models have no save signals or `auto_now` fields that an update
here would skip (tests/games/test_rows.py compares with the ORM).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

import psycopg
from django.contrib.postgres.fields import ArrayField
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import IntegerField, Model

from games.models import Game, Match

# Where a loaded instance keeps the values it was loaded (or last saved) with.
_LOADED = "_row_values"


@dataclass(frozen=True)
class Player:
    id: int
    username: str
    auto_roll: bool
    rating: int | None  # None until the player's first rated match
    is_active: bool


@dataclass(frozen=True)
class LockedMatch:
    match: Match
    game: Game | None  # the current (highest-numbered) game
    players: list[Player]


def _database():
    return connections[DEFAULT_DB_ALIAS]


def _quote(name: str) -> str:
    return _database().ops.quote_name(name)


def _columns(model: type[Model], alias: str) -> str:
    return ", ".join(f"{alias}.{_quote(field.column)}" for field in model._meta.concrete_fields)


@cache
def _converters(model: type[Model]) -> list[tuple[int, Any, list]]:
    """The ORM's own value converters of each column (JSON text to objects, and so on)."""
    database = _database()
    converters = []
    for index, field in enumerate(model._meta.concrete_fields):
        column = field.get_col(model._meta.db_table)
        found = database.ops.get_db_converters(column) + field.get_db_converters(database)
        if found:
            converters.append((index, column, found))
    return converters


@cache
def _preparers(model: type[Model]) -> dict[str, Callable[[Any, Any], Any]]:
    """Each field's value -> SQL parameter conversion. psycopg takes a list of integers as it is;
    the ORM would convert the 24 points of a board one by one."""
    preparers = {}
    for field in model._meta.concrete_fields:
        if isinstance(field, ArrayField) and isinstance(field.base_field, IntegerField):
            preparers[field.attname] = lambda value, database: value
        else:
            preparers[field.attname] = field.get_db_prep_save
    return preparers


def _instance(database, model: type[Model], values: list[Any]) -> Model:
    for index, column, found in _converters(model):
        for converter in found:
            values[index] = converter(values[index], column, database)
    instance = model.from_db(database.alias, None, values)
    _remember(instance)
    return instance


def _frozen(value: Any) -> Any:
    """An immutable copy to compare with later (lists and dicts of JSON-like values)."""
    kind = type(value)
    if kind is list:
        return tuple([_frozen(item) if type(item) in _CONTAINERS else item for item in value])
    if kind is dict:
        return tuple(sorted((key, _frozen(item)) for key, item in value.items()))
    return value


_CONTAINERS = (list, dict)


def _frozen_fields(instance: Model) -> dict[str, Any]:
    values = instance.__dict__
    return {name: _frozen(values[name]) for name in _preparers(type(instance))}


def _remember(instance: Model, frozen: dict[str, Any] | None = None) -> None:
    setattr(instance, _LOADED, _frozen_fields(instance) if frozen is None else frozen)


@contextmanager
def _raw_connection(database) -> Iterator[psycopg.Connection]:
    """Django's psycopg connection (its transaction, its error classes) for server-binding
    cursors: Django's own cursors bind on the client and cannot prepare."""
    database.ensure_connection()
    database.validate_no_broken_transaction()
    with database.wrap_database_errors:
        yield database.connection


# --- Lock and load -------------------------------------------------------------------------------


@cache
def _lock_sql() -> tuple[str, str]:
    from accounts.models import User
    from ratings.models import Rating

    match_table, game_table = _quote(Match._meta.db_table), _quote(Game._meta.db_table)
    user_table, rating_table = _quote(User._meta.db_table), _quote(Rating._meta.db_table)
    match_of_game = _quote(Game._meta.get_field("match").column)
    number = _quote(Game._meta.get_field("number").column)
    rating_user = _quote(Rating._meta.get_field("user").column)
    player_columns = []
    player_joins = []
    for alias, seat_field in (("p0", "creator"), ("p1", "opponent")):
        seat_column = _quote(Match._meta.get_field(seat_field).column)
        player_columns.append(
            f"{alias}.id, {alias}.{_quote('username')}, {alias}.{_quote('auto_roll')}, "
            f"{alias}r.{_quote('value')}, {alias}.{_quote('is_active')}"
        )
        player_joins.append(
            f"LEFT JOIN {user_table} {alias} ON {alias}.id = m.{seat_column} "
            f"LEFT JOIN {rating_table} {alias}r ON {alias}r.{rating_user} = m.{seat_column}"
        )
    # Two statements: the lock first, then the read. In READ COMMITTED a
    # statement that waits for a row lock sees the locked row's new version but the other rows it
    # joined as they were before the wait, so a single locking join could return a stale game.
    # The second statement starts after the lock is held and sees everything committed before.
    return (
        f"SELECT 1 FROM {match_table} WHERE id = %s FOR UPDATE",
        f"SELECT {_columns(Match, 'm')}, {_columns(Game, 'g')}, {', '.join(player_columns)} "
        f"FROM {match_table} m "
        f"LEFT JOIN LATERAL (SELECT * FROM {game_table} WHERE {match_of_game} = m.id "
        f"ORDER BY {number} DESC LIMIT 1) g ON TRUE "
        f"{' '.join(player_joins)} "
        f"WHERE m.id = %s",
    )


def lock_match(match_id: int) -> LockedMatch | None:
    """Lock a match row (inside a transaction) and load it with its current game and players;
    None when there is no such match."""
    database = _database()
    lock_sql, read_sql = _lock_sql()
    with _raw_connection(database) as raw:
        cursor = psycopg.Cursor(raw)
        cursor.execute(lock_sql, [match_id], prepare=True)
        row = cursor.execute(read_sql, [match_id], prepare=True).fetchone()
    if row is None:
        return None
    values = list(row)
    match_width, game_width = len(Match._meta.concrete_fields), len(Game._meta.concrete_fields)
    match = _instance(database, Match, values[:match_width])
    game_values = values[match_width : match_width + game_width]
    game = _instance(database, Game, game_values) if game_values[0] is not None else None
    if game is not None:
        game._state.fields_cache["match"] = match  # game.match without a query
    players = []
    rest = values[match_width + game_width :]
    for start in (0, 5):
        user_id, username, auto_roll, rating, is_active = rest[start : start + 5]
        if user_id is not None:
            players.append(Player(user_id, username, auto_roll, rating, is_active))
    return LockedMatch(match=match, game=game, players=players)


# --- Write back ----------------------------------------------------------------------------------


@cache
def _write_sql(
    changes: tuple[tuple[type[Model], tuple[str, ...]], ...], inserts: tuple[type[Model], ...]
) -> str:
    """One statement: an INSERT of one row per model in `inserts`, then an UPDATE of one row of
    each (model, changed fields), all but the last in data-modifying WITH clauses. Parameters:
    each new row's values, then each updated row's new values and its primary key."""
    statements = [_insert_sql(model, returning=False) for model in inserts]
    for model, attnames in changes:
        columns = [model._meta.get_field(attname).column for attname in attnames]
        assignments = ", ".join(f"{_quote(column)} = %s" for column in columns)
        statements.append(
            f"UPDATE {_quote(model._meta.db_table)} SET {assignments} "
            f"WHERE {_quote(model._meta.pk.column)} = %s"
        )
    if len(statements) == 1:
        return statements[0]
    clauses = ", ".join(f"w{index} AS ({sql})" for index, sql in enumerate(statements[:-1]))
    return f"WITH {clauses} {statements[-1]}"


def save(*instances: Model, new: Sequence[Model] = ()) -> None:
    """Write the fields changed since `lock_match` loaded each instance (or since the last save
    here), and INSERT the `new` rows, all in one statement; an instance that did not come from
    here is saved by the ORM. New rows get no primary key back (the move log needs none)."""
    database = _database()
    changes, parameters, written = [], [], []
    for instance in new:
        parameters += _insert_values(database, instance)
    for instance in instances:
        loaded = getattr(instance, _LOADED, None)
        if loaded is None or instance._state.adding:
            instance.save()
            _remember(instance)
            continue
        values = instance.__dict__
        preparers = _preparers(type(instance))
        frozen = _frozen_fields(instance)
        changed = tuple(name for name in preparers if frozen[name] != loaded[name])
        if changed:
            changes.append((type(instance), changed))
            parameters += [preparers[name](values[name], database) for name in changed]
            parameters.append(instance.pk)
            written.append((instance, frozen))
    if not changes and not new:
        return
    inserts = tuple(type(instance) for instance in new)
    with _raw_connection(database) as raw:
        psycopg.Cursor(raw).execute(_write_sql(tuple(changes), inserts), parameters, prepare=True)
    for instance, frozen in written:
        _remember(instance, frozen)
    for instance in new:
        instance._state.adding = False
        instance._state.db = database.alias


@cache
def _insert_sql(model: type[Model], *, returning: bool = True) -> str:
    fields = [field for field in model._meta.concrete_fields if not field.primary_key]
    sql = (
        f"INSERT INTO {_quote(model._meta.db_table)} "
        f"({', '.join(_quote(field.column) for field in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )
    return f"{sql} RETURNING {_quote(model._meta.pk.column)}" if returning else sql


def _insert_values(database, instance: Model) -> list[Any]:
    preparers = _preparers(type(instance))
    return [
        preparers[field.attname](field.pre_save(instance, True), database)
        for field in instance._meta.concrete_fields
        if not field.primary_key
    ]


def insert(instance: Model) -> Model:
    """INSERT a new row of a model with an automatic primary key, now (its key read back)."""
    database = _database()
    values = _insert_values(database, instance)
    with _raw_connection(database) as raw:
        cursor = psycopg.Cursor(raw)
        cursor.execute(_insert_sql(type(instance)), values, prepare=True)
        instance.pk = cursor.fetchone()[0]
    instance._state.adding = False
    instance._state.db = database.alias
    return instance
