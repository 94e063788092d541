"""The match socket's command registry (realtime/commands.py, games/protocol/commands.py): the
protocol document lists exactly the registered commands with their fields, every sender has a way
to run, an unregistered type is `unknown_type`, and every registered field refuses hostile values
with `bad_field` through the real socket, changing nothing."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games.consumers import _BY_SENDER, MATCH_COMMANDS
from games.lobby_socket import LOBBY_COMMANDS
from games.models import Match
from pairing import socket as pairing_socket
from realtime.commands import ProtocolError
from tests.games.test_consumers import ORIGIN, connect, next_of_type
from web.asgi import application
from web.me_socket import ME_COMMANDS

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

# A valid value of each wire field, to fill the fields a frame is not testing.
VALID = {
    "pool": "traditional.1.60.rated",
    "proposal": 1,
    "version": 0,
    "step": [24, 20, 4],
    "client_seed": "good-seed",
    "mute": True,
    "session": "page-one",
    "to": "page-two",
    "sdp": "v=0\r\n",
    "part": 0,
    "parts": 1,
    "candidate": {"candidate": ""},
    "audio": True,
    "video": False,
}
HUGE = "x" * 3000  # under the socket's 4 KiB frame limit
NESTED = [[[[[[[[[[1]]]]]]]]]]
# Wrong-typed, nested and huge values that no field takes (a string field takes any string: the
# service checks its text).
HOSTILE = [1.5, -1, NESTED, {"a": {"b": [1]}}, [], "", HUGE]


def documented_commands(heading: str = "## Client → server") -> dict[str, str]:
    """The command table of a section of docs/protocol.md: type → its fields column."""
    text = PROTOCOL.read_text()
    start = text.index(heading + "\n")
    section = text[start : text.index("\n## ", start)]
    return dict(re.findall(r"^\| `([a-z_]+)` \| ([^|]*) \|", section, flags=re.MULTILINE))


def hostile_frames(registry=MATCH_COMMANDS):
    for entry in registry:
        for field in entry.command.wire_fields():
            if field.metadata["check"] is pairing_socket.as_sent:
                continue  # pool_join's seeds: refused by pairing/services.py (tests/pairing)
            for value in HOSTILE:
                if "str" in str(field.type) and isinstance(value, str):
                    continue
                frame = {"type": entry.command.type, "id": "h"}
                for other in entry.command.wire_fields():
                    if not other.metadata["optional"] and other.name in VALID:
                        frame[other.name] = VALID[other.name]
                frame[field.name] = value
                yield pytest.param(frame, id=f"{entry.command.type}.{field.name}={value!r:.12}")


def test_the_protocol_document_lists_exactly_the_registered_commands_and_their_fields():
    documented = documented_commands()
    assert set(documented) == MATCH_COMMANDS.types
    for entry in MATCH_COMMANDS:
        named = set(re.findall(r"`([a-z_]+)`", documented[entry.command.type]))
        wire_fields = {field.name for field in entry.command.wire_fields()}
        assert named == wire_fields, entry.command.type
        assert entry.command.versioned() == ("version" in wire_fields)


def test_every_sender_of_a_registered_command_has_a_way_to_run():
    assert {entry.sender for entry in MATCH_COMMANDS} <= set(_BY_SENDER)


@pytest.mark.parametrize("kind", ["rol", "ROLL", "pool_join", "echo_via_layer", "", "x" * 300])
def test_an_unregistered_type_is_unknown_type(kind):
    with pytest.raises(ProtocolError) as refused:
        MATCH_COMMANDS.parse({"type": kind, "version": 0})
    assert refused.value.code == "unknown_type"


@pytest.mark.parametrize("frame", list(hostile_frames()))
def test_every_registered_field_refuses_hostile_values(frame):
    with pytest.raises(ProtocolError) as refused:
        MATCH_COMMANDS.parse(frame)
    assert refused.value.code == "bad_field"


@pytest.mark.django_db(transaction=True)
async def test_hostile_fields_through_the_socket_are_bad_field_and_change_nothing(
    match_setup, settings
):
    """Every generated frame of `hostile_frames`, from the player to move, on one socket."""
    settings.SOCKET_RATE_LIMIT_MESSAGES = 10_000  # more frames than a person's 100 per 20 s
    match, (_white, white_cookie), _ = match_setup
    socket = await connect(match.pk, white_cookie)
    await next_of_type(socket, "snapshot")
    frames = [param.values[0] for param in hostile_frames()]
    assert len(frames) > 40
    for frame in frames:
        await socket.send_json_to(frame)
        answer = await next_of_type(socket, "error")
        assert (answer["code"], answer["id"]) == ("bad_field", "h"), frame
    await socket.send_json_to({"type": "unregistered", "id": "u"})
    answer = await next_of_type(socket, "error")
    assert (answer["code"], answer["id"]) == ("unknown_type", "u")
    version = await sync_to_async(lambda: Match.objects.get(pk=match.pk).version)()
    assert version == match.version
    await socket.disconnect()


def test_the_pages_list_of_commands_settled_by_events_is_the_registrys():
    """static/js/match/socket.js keeps a command in flight until its versioned event comes."""
    script = (PROTOCOL.parents[1] / "static" / "js" / "match" / "socket.js").read_text()
    listed = re.search(r"const ANSWERED_BY_EVENTS = new Set\(\[([^\]]*)\]\);", script)
    assert listed is not None
    in_script = set(re.findall(r'"([a-z_]+)"', listed.group(1)))
    registered = {
        entry.command.type for entry in MATCH_COMMANDS if entry.command.answered_by_events
    }
    assert in_script == registered == {"roll", "step", "undo", "confirm"}
    assert all(MATCH_COMMANDS.parse({"type": kind, **VALID})[0].versioned() for kind in registered)


def test_the_protocol_document_lists_exactly_the_lobby_sockets_pool_commands():
    """The lobby's `ping` is documented with the socket; quick pairing's commands in its table,
    each with its fields (registered by pairing/socket.py)."""
    documented = documented_commands("## Quick pairing (on the lobby socket)")
    assert set(documented) == LOBBY_COMMANDS.types - {"ping"}
    for kind, fields in documented.items():
        named = set(re.findall(r"`([a-z_]+)`", fields))
        command = LOBBY_COMMANDS.entry(kind).command
        assert named == {field.name for field in command.wire_fields()}, kind


@pytest.mark.parametrize("frame", list(hostile_frames(LOBBY_COMMANDS)))
def test_every_pool_command_field_refuses_hostile_values(frame):
    with pytest.raises(ProtocolError) as refused:
        LOBBY_COMMANDS.entry(frame["type"]).command.from_wire(frame)
    assert refused.value.code == "bad_field"


@pytest.mark.django_db(transaction=True)
async def test_the_site_socket_answers_its_registered_commands_and_refuses_others():
    """/ws/me/ (web/me_socket.py): `ping` → `pong`, `echo_via_layer` → `layer_echo` through the
    channel layer; a match or pool command there is `unknown_type`."""
    assert ME_COMMANDS.types == {
        "ping",
        "echo_via_layer",
        "notifications_read",
        "notifications_clear",
    }
    socket = WebsocketCommunicator(
        application, "/ws/me/", headers=[ORIGIN, (b"host", b"localhost")]
    )
    assert (await socket.connect())[0]
    assert (await socket.receive_json_from(timeout=5))["type"] == "hello"
    await socket.send_json_to({"type": "ping", "id": 3})
    assert await socket.receive_json_from(timeout=5) == {"type": "pong", "id": 3}
    await socket.send_json_to({"type": "echo_via_layer"})
    assert await socket.receive_json_from(timeout=5) == {"type": "layer_echo"}
    for kind in ("roll", "pool_join", "chat"):
        await socket.send_json_to({"type": kind, "id": kind})
        answer = await socket.receive_json_from(timeout=5)
        assert (answer["code"], answer["id"]) == ("unknown_type", kind)
    await socket.disconnect()


@pytest.mark.parametrize("module", ["games/consumers.py", "games/lobby_socket.py"])
def test_the_sockets_import_no_app_above_games(module):
    """Chat and pairing register into the sockets from their own code (MATCH_COMMANDS,
    MATCH_PARTS, LOBBY_COMMANDS, LOBBY_PARTS), anywhere in the module, functions included."""
    tree = ast.parse((PROTOCOL.parents[1] / module).read_text())
    imported = {
        name.split(".")[0]
        for node in ast.walk(tree)
        for name in (
            [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else []
        )
    }
    assert not imported & {"chat", "pairing", "web"}, imported
