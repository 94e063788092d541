"""The process's publisher (realtime/publisher.py) against the real Redis and channel layer: handed
to the attached loop from worker threads, in order, blocking where no loop runs."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest
from channels.layers import get_channel_layer
from django.conf import settings

from config.redis_client import client, sync_client
from realtime import publisher
from realtime.groups import user_message
from realtime.publisher import ChannelMessage, GroupMessage


def channel(name: str) -> str:
    return f"{settings.REDIS_PREFIX}:publisher-test:{name}"


async def received(pubsub, count: int) -> list[bytes]:
    found: list[bytes] = []
    deadline = asyncio.get_running_loop().time() + 10
    while len(found) < count:
        assert asyncio.get_running_loop().time() < deadline, f"only {len(found)} of {count} came"
        # None also for the subscribe confirmation, which is skipped.
        message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
        if message is not None:
            found.append(message["data"])
    return found


async def subscribed(name: str):
    pubsub = client().pubsub()
    await pubsub.subscribe(channel(name))
    return pubsub


async def test_a_worker_thread_hands_over_and_never_waits_for_the_loop():
    """The loop is held (it joins the thread) while the thread publishes: a publish that waited
    for the loop or for its send would never return."""
    publisher.attach()
    pubsub = await subscribed("handover")
    returned = threading.Event()

    def worker() -> None:
        for number in range(50):
            publisher.publish([ChannelMessage(channel("handover"), b"%d" % number)])
        returned.set()

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join(timeout=10)  # blocks the loop: nothing it was handed can be sent meanwhile
    assert returned.is_set()
    assert await received(pubsub, 50) == [b"%d" % number for number in range(50)]
    await pubsub.aclose()


async def test_several_threads_each_keep_their_order():
    publisher.attach()
    pubsub = await subscribed("order")

    def worker(thread_number: int) -> None:
        for number in range(40):
            message = ChannelMessage(channel("order"), b"%d:%d" % (thread_number, number))
            publisher.publish([message])

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    await asyncio.to_thread(lambda: [thread.join(10) for thread in threads])
    arrived = [data.split(b":") for data in await received(pubsub, 160)]
    for thread_number in range(4):
        numbers = [int(number) for who, number in arrived if int(who) == thread_number]
        assert numbers == list(range(40))
    await pubsub.aclose()


async def test_a_user_message_reaches_the_users_group_from_a_worker_thread():
    publisher.attach()
    layer = get_channel_layer()
    member = await layer.new_channel()
    await layer.group_add("user.424242", member)
    await asyncio.to_thread(
        publisher.publish, [user_message(424242, {"type": "user.notify", "payload": {"n": 1}})]
    )
    assert await asyncio.wait_for(layer.receive(member), 5) == {
        "type": "user.notify",
        "payload": {"n": 1},
    }
    await layer.group_discard("user.424242", member)


async def test_a_failing_message_is_logged_and_the_rest_still_go(caplog):
    publisher.attach()
    pubsub = await subscribed("after-failure")
    caplog.set_level(logging.ERROR, logger="realtime.publisher")
    bad_group = GroupMessage("user.1", {"type": "x", "unsendable": object()})
    await asyncio.to_thread(
        publisher.publish, [bad_group, ChannelMessage(channel("after-failure"), b"still sent")]
    )
    assert await received(pubsub, 1) == [b"still sent"]
    await publisher.drained()
    assert "publishing to user.1 failed" in caplog.text
    await pubsub.aclose()


async def test_on_the_loop_itself_publish_queues_and_returns():
    publisher.attach()
    pubsub = await subscribed("on-loop")
    publisher.publish([ChannelMessage(channel("on-loop"), b"1")])
    publisher.publish([ChannelMessage(channel("on-loop"), b"2")])
    await publisher.drained()
    assert await received(pubsub, 2) == [b"1", b"2"]
    await pubsub.aclose()


async def test_a_publishing_connection_the_server_closed_is_replaced_and_the_batch_sent_again():
    """The loop keeps one connection for its PUBLISHes; Redis closing it (a restart, a timeout)
    costs a retry on a new one, and nothing handed in is lost."""
    publisher.attach()
    pubsub = await subscribed("reconnect")
    publisher.publish([ChannelMessage(channel("reconnect"), b"before")])
    await publisher.drained()
    outbox = publisher._outbox
    [first] = outbox.connections.values()
    assert first is not None and first.is_connected
    # What a Redis restart does to it: the server ends the connection.
    name = f"publisher-test-{id(first)}"
    await first.send_command("CLIENT", "SETNAME", name)
    await first.read_response()
    await client().execute_command("CLIENT", "KILL", "SKIPME", "yes", "TYPE", "normal", "ID",
                                   await _client_id(name))  # fmt: skip
    publisher.publish([ChannelMessage(channel("reconnect"), b"after")])
    await publisher.drained()
    assert await received(pubsub, 2) == [b"before", b"after"]
    [second] = outbox.connections.values()
    assert second is not first and second.is_connected
    await pubsub.aclose()


async def _client_id(name: str) -> int:
    for line in (await client().execute_command("CLIENT", "LIST")).decode().splitlines():
        fields = dict(field.split("=", 1) for field in line.split(" ") if "=" in field)
        if fields.get("name") == name:
            return int(fields["id"])
    raise AssertionError(f"no client named {name}")


def blocking_subscription(name: str):
    pubsub = sync_client().pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(channel(name))
    pubsub.get_message(timeout=1)  # the subscribe confirmation
    return pubsub


def test_without_a_running_loop_it_publishes_from_the_calling_thread():
    async def attach_and_leave() -> None:
        publisher.attach()

    asyncio.run(attach_and_leave())  # a loop attached, then closed: as after an async test
    pubsub = blocking_subscription("blocking")
    publisher.publish([ChannelMessage(channel("blocking"), b"now")])
    # Sent before publish returned: no loop will ever send it.
    message = pubsub.get_message(timeout=5)
    assert message is not None and message["data"] == b"now"
    pubsub.close()


def test_nothing_to_publish_sends_nothing():
    pubsub = blocking_subscription("nothing")
    publisher.publish([])
    assert pubsub.get_message(timeout=0.2) is None
    pubsub.close()


@pytest.mark.django_db(transaction=True)
def test_publish_on_commit_sends_only_what_committed():
    from django.db import transaction

    pubsub = blocking_subscription("commit")
    with pytest.raises(RuntimeError), transaction.atomic():
        publisher.publish_on_commit([ChannelMessage(channel("commit"), b"rolled back")])
        raise RuntimeError
    with transaction.atomic():
        publisher.publish_on_commit([ChannelMessage(channel("commit"), b"committed")])
    message = pubsub.get_message(timeout=5)
    assert message is not None and message["data"] == b"committed"
    assert pubsub.get_message(timeout=0.2) is None
    pubsub.close()
