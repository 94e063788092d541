"""The match, game and move-log columns' one-column rules are PostgreSQL domains
(games/models/domains.py): the database holds the domains the models declare, each column of a
typed field is of its domain, a value outside a domain is refused with nothing written, and the
tables keep no CHECK constraint on one column (PostgreSQL parses every CHECK of a table at every
UPDATE of it)."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import DataError, IntegrityError, connection, transaction

from games import services
from games.models import Game, Match, Turn
from games.models.domains import DOMAINS, _Typed, alter_sql, create_sql

pytestmark = pytest.mark.django_db

TABLES = (Match, Game, Turn)


def _definition(cursor, name: str) -> tuple[str, str]:
    """(base type, check) of a domain as PostgreSQL prints them."""
    cursor.execute(
        """SELECT format_type(t.typbasetype, t.typtypmod), pg_get_constraintdef(c.oid)
           FROM pg_type t JOIN pg_constraint c ON c.contypid = t.oid
           WHERE t.typname = %s AND t.typtype = 'd'""",
        [name],
    )
    rows = cursor.fetchall()
    assert len(rows) == 1, f"domain {name}: {len(rows)} checks in the database"
    return rows[0]


def _declared(cursor, name: str) -> tuple[str, str]:
    """A domain as `DOMAINS` declares it, as PostgreSQL prints it: created under another name and
    undone."""
    with transaction.atomic():
        cursor.execute(create_sql(name).replace(f"DOMAIN {name} ", f"DOMAIN declared_{name} "))
        declared = _definition(cursor, f"declared_{name}")
        transaction.set_rollback(True)
    return declared


def test_the_database_holds_the_domains_the_models_declare():
    """A changed domain (a new end reason, another turn time) needs its migration
    (`domains.alter_sql`): without it the declared and the migrated check differ here."""
    with connection.cursor() as cursor:
        for name in DOMAINS:
            migrated, declared = _definition(cursor, name), _declared(cursor, name)
            assert migrated == declared, (
                f"domain {name} is {migrated} in the database but declared {declared}: add a "
                f"migration with RunSQL(domains.alter_sql({name!r}))"
            )


def test_every_typed_column_is_of_its_domain_with_the_fields_base_type():
    typed = [
        (model, field)
        for model in apps.get_models()
        for field in model._meta.concrete_fields
        if isinstance(field, _Typed)
    ]
    assert {model for model, _ in typed} == set(TABLES)
    with connection.cursor() as cursor:
        for model, field in typed:
            cursor.execute(
                """SELECT t.typname FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
                   WHERE a.attrelid = %s::regclass AND a.attname = %s""",
                [model._meta.db_table, field.column],
            )
            assert cursor.fetchone() == (field.domain,), (model, field.name)
            assert field.cast_db_type(connection) == DOMAINS[field.domain].base, (model, field)
    # Every choice of a typed field is a value of its domain.
    for _, field in typed:
        for value, _label in field.flatchoices:
            with connection.cursor() as cursor:
                cursor.execute(f"SELECT %s::{field.domain}", [value])
                assert cursor.fetchone() == (value,)


@pytest.mark.parametrize(
    ("domain", "bad"),
    [
        ("games_match_status", "paused"),
        ("games_end_reason", "bored"),
        ("games_phase", "ROLL"),
        ("games_side", "x"),
        ("games_seat", 2),
        ("games_match_length", 2),
        ("games_turn_seconds", 45),
        ("games_reserve_seconds", -60),
        ("games_cube_value", 0),
        ("games_cube_value", 128),
        ("games_points", 65),
        ("nonneg_smallint", -1),
        ("nonneg_integer", -1),
        ("games_client_seed", "no spaces"),
        ("games_client_seed", "x" * 65),
        ("games_rematch_server_seed", "f" * 63),
    ],
)
def test_a_value_outside_a_domain_is_refused(domain, bad):
    # (A value longer than the type is a DataError: refused all the same.)
    with (
        pytest.raises((IntegrityError, DataError)),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(f"SELECT %s::{domain}", [bad])


def test_a_bad_value_written_to_a_match_changes_nothing(players):
    creator, _ = players
    match = services.match_create(creator=creator)
    for column, bad in [("status", "paused"), ("version", -1), ("client_seed_creator", "a b"),
                        ("reserve_seconds", 7), ("end_reason", "because")]:  # fmt: skip
        with pytest.raises(IntegrityError), transaction.atomic():
            Match.objects.filter(pk=match.pk).update(**{column: bad})
    fresh = Match.objects.get(pk=match.pk)
    assert (fresh.status, fresh.version, fresh.end_reason) == (match.status, match.version, "")
    assert fresh.client_seed_creator == match.client_seed_creator


def test_the_tables_keep_no_check_on_one_column():
    """A rule on one column belongs in its type (games/models/domains.py): a CHECK constraint of
    the match, game or move-log table costs every command's write its parsing."""
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT conrelid::regclass::text, conname FROM pg_constraint
               WHERE contype = 'c' AND cardinality(conkey) = 1
                 AND conrelid = ANY(%s::regclass[])""",
            [[model._meta.db_table for model in TABLES]],
        )
        assert cursor.fetchall() == []


def test_alter_sql_gives_a_domain_its_declared_check_and_checks_the_rows_there(players):
    """What a migration changing a domain runs: the declared check replaces the one there; a check
    a row already breaks is refused (a status removed while a match still has it)."""
    creator, _ = players
    match = services.match_create(creator=creator)  # open
    name = "games_match_status"
    with connection.cursor() as cursor:
        with transaction.atomic():
            for statement in alter_sql(name, "VALUE <> ''") + alter_sql(name):
                cursor.execute(statement)
            assert _definition(cursor, name) == _declared(cursor, name)
            transaction.set_rollback(True)
        narrowed = DOMAINS[name].check.replace("'open', ", "")
        assert narrowed != DOMAINS[name].check
        with pytest.raises(IntegrityError), transaction.atomic():
            for statement in alter_sql(name, narrowed):
                cursor.execute(statement)
        assert _definition(cursor, name) == _declared(cursor, name)
    assert Match.objects.get(pk=match.pk).status == "open"
