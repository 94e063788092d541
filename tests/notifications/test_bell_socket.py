"""The bell on the site socket (web/me_socket.py, notifications/protocol.py; docs/protocol.md
"The site socket"), through the real ASGI application and the Redis channel layer: a page opened
later starts from what was kept, a new one arrives live, mark read and clear reach every page of
the user, and someone else's ids, huge or wrong-typed ids, and a signed-out socket change
nothing."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async

from notifications.models import Kind, Notification
from notifications.services import notify
from tests.factories import make_user
from tests.games.conftest import cookie_for
from tests.games.test_command_registry import HOSTILE, documented_commands
from tests.pairing.test_sockets import open_socket, until
from web.me_socket import ME_COMMANDS

pytestmark = pytest.mark.django_db(transaction=True)


async def bell_of(client, user):
    socket = await open_socket("/ws/me/", await sync_to_async(cookie_for)(client, user))
    assert (await socket.receive_json_from(timeout=5))["type"] == "hello"
    return socket, await until(socket, "notifications")


def unread(user) -> int:
    return Notification.objects.filter(recipient=user, read_at__isnull=True).count()


async def test_a_page_opened_later_sees_what_was_kept_and_new_ones_arrive_live(client):
    ana, bogdan = await sync_to_async(make_user)("ana"), await sync_to_async(make_user)("bogdan")
    kept = await sync_to_async(notify)(
        recipient_id=ana.pk, kind=Kind.CHALLENGE, sender_id=bogdan.pk, payload={"match_id": 7}
    )
    socket, snapshot = await bell_of(client, ana)
    assert snapshot["unread"] == 1
    (item,) = snapshot["items"]
    assert (item["id"], item["kind"], item["from"], item["read"], item["data"]) == (
        kept.pk, "challenge", "bogdan", False, {"match_id": 7}
    )  # fmt: skip
    await sync_to_async(notify)(recipient_id=ana.pk, kind=Kind.ANALYSIS_READY)
    live = await until(socket, "notification")
    assert (live["notification"]["kind"], live["unread"]) == ("analysis_ready", 2)
    await socket.disconnect()


async def test_mark_read_and_clear_reach_every_page_and_refuse_someone_elses(client):
    ana, bogdan = await sync_to_async(make_user)("ana"), await sync_to_async(make_user)("bogdan")
    mine = [await sync_to_async(notify)(recipient_id=ana.pk, kind=Kind.ANALYSIS_READY)
            for _ in range(3)]  # fmt: skip
    theirs = await sync_to_async(notify)(recipient_id=bogdan.pk, kind=Kind.ANALYSIS_READY)
    first, _ = await bell_of(client, ana)
    second, _ = await bell_of(client, ana)
    # Someone else's id, alone or among one's own: refused, nothing changes.
    for ids in ([theirs.pk], [mine[0].pk, theirs.pk], [2**53]):
        for kind in ("notifications_read", "notifications_clear"):
            await first.send_json_to({"type": kind, "ids": ids, "id": "x"})
            answer = await until(first, "error")
            assert (answer["code"], answer["id"]) == ("not_found", "x")
    assert await sync_to_async(unread)(bogdan) == 1 and await sync_to_async(unread)(ana) == 3
    await first.send_json_to({"type": "notifications_read", "ids": [mine[0].pk], "id": 1})
    assert await until(first, "ack") == {"type": "ack", "id": 1}
    changed = await until(second, "notifications_changed")
    assert (changed["unread"], changed["read"]) == (2, [mine[0].pk])
    await first.send_json_to({"type": "notifications_clear", "ids": [mine[1].pk], "id": 2})
    changed = await until(second, "notifications_changed")
    assert (changed["unread"], changed["cleared"]) == (1, [mine[1].pk])
    await first.send_json_to({"type": "notifications_read", "all": True})
    assert (await until(second, "notifications_changed"))["read"] == "all"
    await first.send_json_to({"type": "notifications_clear", "all": True})
    assert (await until(second, "notifications_changed"))["cleared"] == "all"
    assert not await sync_to_async(Notification.objects.filter(recipient=ana).exists)()
    assert await sync_to_async(unread)(bogdan) == 1
    await first.disconnect()
    await second.disconnect()


BAD_CHOICES = [
    {},  # neither
    {"all": True, "ids": [1]},  # both
    {"all": False},
    {"ids": []},
    {"ids": list(range(1, 52))},  # more than one page shows
    {"ids": [0]},
    {"ids": [-1]},
    {"ids": [2**53 + 1]},
    {"ids": [2**70]},
    {"ids": [True]},
    {"ids": ["1"]},
    {"ids": [1.0]},
    *({"ids": value} for value in HOSTILE),
    *({"ids": [value]} for value in HOSTILE),
    *({"all": value} for value in HOSTILE),
]


async def test_wrong_typed_huge_and_nested_choices_are_bad_fields_and_change_nothing(client):
    ana = await sync_to_async(make_user)("ana")
    await sync_to_async(notify)(recipient_id=ana.pk, kind=Kind.ANALYSIS_READY)
    socket, _ = await bell_of(client, ana)
    for kind in ("notifications_read", "notifications_clear"):
        for fields in BAD_CHOICES:
            await socket.send_json_to({"type": kind, "id": "h", **fields})
            answer = await until(socket, "error")
            assert (answer["code"], answer["id"]) == ("bad_field", "h"), fields
    assert await sync_to_async(unread)(ana) == 1
    await socket.send_json_to({"type": "ping", "id": "alive"})
    assert await until(socket, "pong") == {"type": "pong", "id": "alive"}
    await socket.disconnect()


async def test_a_signed_out_socket_is_told_to_sign_in():
    socket = await open_socket("/ws/me/")
    assert (await socket.receive_json_from(timeout=5)) == {"type": "hello", "user": None}
    for kind in ("notifications_read", "notifications_clear"):
        await socket.send_json_to({"type": kind, "all": True, "id": "s"})
        answer = await until(socket, "error")
        assert (answer["code"], answer["id"]) == ("login_required", "s")
    await socket.disconnect()


def test_the_site_socket_registers_the_bells_commands():
    assert ME_COMMANDS.types == {"ping", "echo_via_layer", "notifications_read",
                                 "notifications_clear"}  # fmt: skip


def test_the_bells_commands_are_documented_with_their_fields():
    documented = documented_commands("## The site socket")
    bell = ME_COMMANDS.types - {"ping", "echo_via_layer"}
    assert bell <= set(documented)
    for kind in bell:
        named = set(re.findall(r"`([a-z_]+)`", documented[kind]))
        assert named == {field.name for field in ME_COMMANDS.entry(kind).command.wire_fields()}
