"""The reconnect window's claim meets the bots: a bot has no socket but never leaves the table, so
its seat is never claimable as abandoned, however long Redis has it marked away."""

from __future__ import annotations

import time

import pytest

from games import services
from games.models import Match, MatchStatus
from games.presence import _away_key, _key, _sync_client
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_a_bot_opponent_cannot_be_claimed_as_abandoned(
    fixed_dice, django_capture_on_commit_callbacks
):
    person = make_user("human")
    with django_capture_on_commit_callbacks(execute=False):  # the bot does not act meanwhile
        match = services.match_create_vs_bot(user=person, level="club", turn_seconds=60)
    bot_seat = 0 if match.creator.is_bot else 1
    client = _sync_client()
    client.delete(_key(match.pk), _away_key(match.pk))
    # No socket for the bot's seat, and an away mark ten minutes old.
    client.hset(_away_key(match.pk), str(bot_seat), int((time.time() - 600) * 1000))
    try:
        with pytest.raises(services.CommandError) as refused:
            services.match_claim_abandoned(user=person, match_id=match.pk)
    finally:
        client.delete(_key(match.pk), _away_key(match.pk))
    assert refused.value.code == "opponent_present"
    after = Match.objects.get(pk=match.pk)
    assert after.status == MatchStatus.ACTIVE and after.version == match.version
