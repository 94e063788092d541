"""config/database_thread.py: the sockets' database work in worker threads that keep their
connection, with the caller's language, and start afresh after a database error."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import DatabaseError, connection
from django.utils import translation

from config.database_thread import in_database_thread

pytestmark = pytest.mark.django_db(transaction=True)


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def end_own_connection() -> None:
    with connection.cursor() as cursor:  # PostgreSQL ends this session: the query fails
        cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")


async def one_thread() -> None:
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=1))


async def test_a_thread_keeps_its_connection_from_one_call_to_the_next():
    await one_thread()
    read = in_database_thread(backend_pid)
    first = await read()
    assert [await read() for _ in range(3)] == [first] * 3


async def test_after_a_database_error_the_next_call_has_a_sound_connection():
    await one_thread()
    read = in_database_thread(backend_pid)
    before = await read()
    with pytest.raises(DatabaseError):
        await in_database_thread(end_own_connection)()
    after = await read()  # would raise on the ended session had it been kept
    assert after != before
    assert await read() == after


async def test_the_callers_language_goes_with_the_call():
    with translation.override("ru"):
        assert await in_database_thread(translation.get_language)() == "ru"
    with translation.override("el"):
        assert await in_database_thread(translation.get_language)() == "el"


async def test_arguments_and_errors_pass_through():
    def divide(a: int, *, by: int) -> float:
        return a / by

    assert await in_database_thread(divide)(6, by=3) == 2
    with pytest.raises(ZeroDivisionError):
        await in_database_thread(divide)(1, by=0)
