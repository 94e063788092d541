"""Match channels over two real Redis servers (settings.REDIS_CHANNEL_URLS, docs/scaling.md
"Redis"): a match's events reach its players and spectators whichever server its channel hashes
to, the hub subscribes on that server only, and REDIS_URL keeps everything else."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
import redis
from asgiref.sync import sync_to_async
from django.conf import settings as django_settings

from config.embedded import EmbeddedRedis
from config.redis_client import channel_server
from games import services
from games.events import match_channel
from games.hub import hub
from tests.factories import make_user
from tests.games.conftest import cookie_for
from tests.games.test_consumers import connect, next_of_type

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def second_redis():
    folder = Path(tempfile.mkdtemp(prefix="nardy-shard-"))
    server = EmbeddedRedis(folder / "redis", throwaway=True)
    try:
        yield server.start()
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def two_servers(settings, second_redis):
    settings.REDIS_CHANNEL_URLS = [django_settings.REDIS_URL, second_redis]
    return settings.REDIS_CHANNEL_URLS


def subscribers_on(url: str, channel: str) -> int:
    server = redis.Redis.from_url(url)
    try:
        [(_, count)] = server.pubsub_numsub(channel)
        return count
    finally:
        server.close()


def test_a_channel_lives_on_one_server_and_names_spread_over_both(settings):
    two_servers = settings.REDIS_CHANNEL_URLS = ["redis://first:6379/0", "redis://second:6379/0"]
    names = [match_channel(match_id) for match_id in range(1, 201)]
    chosen = [channel_server(name) for name in names]
    assert chosen == [channel_server(name) for name in names]  # the same every time
    counts = {url: chosen.count(url) for url in two_servers}
    assert set(chosen) == set(two_servers)
    assert min(counts.values()) > 60, counts  # CRC-32 spreads them, roughly half each


def test_one_server_configured_is_the_one_redis_of_today(settings):
    settings.REDIS_CHANNEL_URLS = [settings.REDIS_URL]
    assert {channel_server(match_channel(n)) for n in range(50)} == {settings.REDIS_URL}


def _matches_on_each_server(fixed_dice, client, servers: list[str]) -> dict[str, tuple]:
    """An accepted match whose channel is on each server, with its players' cookies."""
    found: dict[str, tuple] = {}
    for number in range(40):
        white, black = make_user(f"shw{number}"), make_user(f"shb{number}")
        match = services.match_create(creator=white)
        fixed_dice(6, 1)
        services.match_accept(user=black, match_id=match.pk)
        found.setdefault(channel_server(match_channel(match.pk)), (match, white, black))
        if len(found) == len(servers):
            return {url: (*found[url], cookie_for(client, found[url][1])) for url in servers}
    raise AssertionError("forty matches all hashed to one server")


@pytest.mark.integration
async def test_events_reach_players_and_spectators_on_whichever_server(
    two_servers, fixed_dice, client
):
    matches = await sync_to_async(_matches_on_each_server)(fixed_dice, client, two_servers)
    for url, (match, white, _black, cookie) in matches.items():
        channel = match_channel(match.pk)
        player, spectator = await connect(match.pk, cookie), await connect(match.pk)
        version = (await next_of_type(player, "snapshot"))["version"]
        await next_of_type(spectator, "snapshot")
        # Subscribed on its own server only, once for the process.
        other = next(server for server in two_servers if server != url)
        assert (subscribers_on(url, channel), subscribers_on(other, channel)) == (1, 0)

        fixed_dice(5, 3)
        await sync_to_async(services.game_roll)(user=white, match_id=match.pk, version=version)
        for socket in (player, spectator):
            event = await next_of_type(socket, "event")
            assert (event["kind"], event["version"]) == ("rolled", version + 1)
        for socket in (player, spectator):
            await socket.disconnect()
        assert subscribers_on(url, channel) == 0
    assert hub().pubsubs == {}  # every server's connection given back
