"""The process's match hub (games/hub.py) through the real ASGI application and Redis."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from config.redis_client import channel_server, client
from games import presence, services
from games.events import match_channel
from games.hub import hub
from nardy import Step
from realtime.publisher import ChannelMessage, publish
from tests.games.test_consumers import connect, next_of_type, next_skipping_acks

pytestmark = pytest.mark.django_db(transaction=True)


async def subscribers(match_id: int) -> int:
    """How many Redis subscriptions the match's channel has (all processes)."""
    [(_, count)] = await presence.client().pubsub_numsub(match_channel(match_id))
    return count


async def test_one_subscription_per_process_and_match_until_its_last_socket_leaves(match_setup):
    match, (white, white_cookie), (black, black_cookie) = match_setup
    sockets = [await connect(match.pk, cookie) for cookie in (white_cookie, black_cookie, None)]
    for socket in sockets:
        await next_of_type(socket, "snapshot")
    assert await subscribers(match.pk) == 1
    assert len(hub().sockets[match.pk]) == 3

    for socket in sockets[:2]:
        await socket.disconnect()
    assert await subscribers(match.pk) == 1
    # The one left still gets events.
    await sync_to_async(services.match_resign)(user=black, match_id=match.pk)
    event = await next_of_type(sockets[2], "event")
    assert event["kind"] == "match_over"

    await sockets[2].disconnect()
    assert await subscribers(match.pk) == 0
    assert match.pk not in hub().sockets


def _roll_and_step(fixed_dice, user, match_id: int, version: int) -> None:
    fixed_dice(4, 2)
    services.game_roll(user=user, match_id=match_id, version=version)
    services.game_step_play(user=user, match_id=match_id, version=version + 1,
                            step=Step(24, 20, 4))  # fmt: skip


async def test_events_out_of_order_make_a_snapshot_and_are_not_repeated(match_setup, fixed_dice):
    match, (white, white_cookie), _ = match_setup
    socket = await connect(match.pk, white_cookie)
    version = (await next_of_type(socket, "snapshot"))["version"]
    # A roll and a step committed while this process's hub does not listen (as if they had been
    # published before its subscription): they reach only this test's own subscription.
    channel = match_channel(match.pk)
    await hub().pubsubs[channel_server(channel)].unsubscribe(channel)
    caught = client().pubsub(ignore_subscribe_messages=True)
    await caught.subscribe(channel)
    await sync_to_async(_roll_and_step)(fixed_dice, white, match.pk, version)
    found: list[bytes] = []
    for _ in range(50):  # presence may come too; a None is the subscribe confirmation skipped
        message = await caught.get_message(timeout=1)
        if message is not None and b'"match.events"' in message["data"]:
            found.append(message["data"])
        if len(found) == 2:
            break
    rolled, stepped = (ChannelMessage(channel, data) for data in found)
    await caught.aclose()
    await hub().pubsubs[channel_server(channel)].subscribe(channel)
    # The step's event arrives first: a gap. The socket gets a fresh snapshot instead...
    publish([stepped])
    snapshot = await next_of_type(socket, "snapshot")
    assert snapshot["version"] == version + 2
    assert snapshot["state"]["game"]["dice"] == [4, 2]
    # ...and the late roll event is not sent on top of it; later events flow again.
    publish([rolled])
    await socket.send_json_to({"type": "step", "id": "s", "version": version + 2,
                               "step": [20, 18, 2]})  # fmt: skip
    event = await next_skipping_acks(socket, "event")
    assert (event["version"], event["kind"]) == (version + 3, "step")
    await socket.disconnect()


async def test_presence_refresh_rewrites_every_socket_of_the_process(match_setup):
    match, (white, white_cookie), _ = match_setup
    sockets = [await connect(match.pk, white_cookie), await connect(match.pk)]
    for socket in sockets:
        await next_of_type(socket, "snapshot")
    await presence.client().delete(presence._key(match.pk))  # as if it had expired
    assert await presence.presence_of(match.pk) == ({"0": False, "1": False}, 0)

    await hub().refresh_presence()
    assert await presence.presence_of(match.pk) == ({"0": True, "1": False}, 1)
    for socket in sockets:
        await socket.disconnect()


async def test_the_watch_reads_the_matches_only_when_a_process_comes_or_goes(
    match_setup, monkeypatch
):
    """A crashed process says nothing: the hubs notice its heartbeat is gone and publish who is
    left (games/presence.py); while no process comes or goes they read no match's presence."""
    match, (white, white_cookie), _ = match_setup
    socket = await connect(match.pk, white_cookie)
    await next_of_type(socket, "snapshot")
    await hub().watch_presence()  # the first look
    looks = []
    real_look = presence.presence_look

    async def counted_look(match_ids):
        looks.append(list(match_ids))
        return await real_look(match_ids)

    monkeypatch.setattr(presence, "presence_look", counted_look)
    await hub().watch_presence()
    await hub().watch_presence()
    assert looks == []

    # Black's socket on another process, which then dies (its heartbeat expires).
    other = "other-process-token"
    redis = presence.client()
    await redis.hset(presence._key(match.pk), "black-socket", f"1|{other}")
    await redis.set(presence._process_key(other), "1", ex=presence.PROCESS_TTL_SECONDS)
    await redis.zadd(presence._processes_key(), {other: presence._now_ms()})
    await hub().watch_presence()  # it came: a look
    assert looks == [[match.pk]]
    seen = await next_of_type(socket, "presence")
    while not seen["presence"]["1"]:
        seen = await next_of_type(socket, "presence")

    await redis.delete(presence._process_key(other))
    await hub().watch_presence()  # it went: a look, and the pages hear that Black is away
    assert looks[-1] == [match.pk]
    seen = await next_of_type(socket, "presence")
    while seen["presence"]["1"]:
        seen = await next_of_type(socket, "presence")
    assert seen["presence"] == {"0": True, "1": False}
    await socket.disconnect()
