"""The first player's commitment (games/next_seed.py): the Play page shows the hash of
the viewer's next server seed before any form is sent, and the challenge, the match against the
computer or the pool wait made next takes exactly that seed; the seed itself is on no page. A
pool join names the commitment its page showed: a second tab whose commitment was used by the
first is refused, never given a seed it did not show."""

from __future__ import annotations

import re
import threading

import pytest
from django.urls import reverse

from games import next_seed
from games.fairness import commitment
from games.models import Match
from games.services import CommandError
from pairing import services as pairing_services
from pairing.models import PoolEntry
from pairing.pools import Pool
from tests.factories import make_user
from tests.threads import run_together

# Transactional unless a test says plain `django_db`: threads, after-commit work and other
# connections see only committed rows; the plain ones need none and end in a rollback (faster).
pytestmark = pytest.mark.django_db(transaction=True)

CHALLENGE = {
    "rule_set_name": "traditional", "length": "1", "turn_seconds": "60", "reserve_seconds": "0",
    "head_exception": "classic", "opening": "reroll",
}  # fmt: skip
COMPUTER = {**CHALLENGE, "level": "beginner"}


def shown_hash(client, url: str | None = None) -> str:
    page = client.get(url or reverse("play")).content.decode()
    found = re.findall(r"<code data-next-seed-hash>([0-9a-f]{64})</code>", page)
    assert len(found) == 1, "the Play page shows one commitment"
    waiting = next_seed._client().get(next_seed._key(client.user_pk)).decode()
    assert waiting not in page  # the seed itself stays on the server
    return found[0]


@pytest.fixture
def player(client):
    user = make_user("committed")
    client.force_login(user)
    client.user_pk = user.pk
    return user


@pytest.mark.parametrize(
    ("url", "form"), [("match_create", CHALLENGE), ("match_create_vs_bot", COMPUTER)]
)
@pytest.mark.django_db
def test_the_match_made_next_plays_on_the_seed_the_page_committed_to(client, player, url, form):
    shown = shown_hash(client)
    assert shown_hash(client) == shown  # a reload shows the same commitment
    response = client.post(reverse(url), {**form, "client_seed": "chosen-after-the-hash"})
    assert response.status_code == 302, response.content[:500]
    match = Match.objects.get(creator=player)
    assert match.client_seed_creator == "chosen-after-the-hash"
    assert commitment(match.server_seed) == match.server_seed_hash == shown
    again = shown_hash(client)
    assert again != shown  # the next match has a seed of its own


@pytest.mark.django_db
def test_a_refused_challenge_keeps_the_commitment_for_the_next_try(client, player):
    shown = shown_hash(client)
    response = client.post(reverse("match_create"), {**CHALLENGE, "turn_seconds": "45"})
    assert response.status_code == 400 and not Match.objects.exists()
    assert shown_hash(client) == shown


@pytest.mark.django_db
def test_a_direct_challenge_page_shows_the_commitment_its_challenge_takes(client, player):
    invited = make_user("invited")
    url = reverse("challenge_player", kwargs={"username": invited.username})
    shown = shown_hash(client, url)
    response = client.post(url, {**CHALLENGE, "client_seed": "direct-seed"})
    assert response.status_code == 302, response.content[:500]
    match = Match.objects.get(creator=player, invited=invited)
    assert match.server_seed_hash == shown


@pytest.mark.django_db
def test_a_pool_wait_takes_the_committed_seed(client, player):
    shown = shown_hash(client)
    pairing_services.pool_join(
        user=player, pool=TRADITIONAL, client_seed="pool-seed", server_seed_hash=shown
    )
    entry = PoolEntry.objects.get(user=player)
    assert commitment(entry.server_seed) == shown
    assert shown_hash(client) != shown


TRADITIONAL = Pool("traditional", 1, 60, True)
TOURNAMENT = Pool("tournament", 5, 90, True)


def test_a_second_tab_sending_a_used_commitment_is_refused_and_changes_nothing(client, player):
    shown = shown_hash(client)  # both tabs were opened now and show this commitment
    pairing_services.pool_join(
        user=player, pool=TRADITIONAL, client_seed="first-tab", server_seed_hash=shown
    )
    with pytest.raises(CommandError) as refused:
        pairing_services.pool_join(
            user=player, pool=TOURNAMENT, client_seed="second-tab", server_seed_hash=shown
        )
    assert refused.value.code == "seed_changed"
    entry = PoolEntry.objects.get(user=player)
    assert (Pool.of(entry), entry.client_seed) == (TRADITIONAL, "first-tab")
    assert commitment(entry.server_seed) == shown
    # The second tab is shown the new commitment; joining with it moves the wait.
    fresh = shown_hash(client)
    assert fresh != shown
    pairing_services.pool_join(
        user=player, pool=TOURNAMENT, client_seed="second-tab", server_seed_hash=fresh
    )
    entry = PoolEntry.objects.get(user=player)
    assert (Pool.of(entry), entry.client_seed) == (TOURNAMENT, "second-tab")
    assert commitment(entry.server_seed) == fresh


TRIALS = 12


def _two_tabs_join_with(player, shown: str) -> list[str]:
    """Two tabs showing `shown` join two pools at the same instant; what each was answered."""
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def tab(pool: Pool, seed: str) -> None:
        start.wait()
        try:
            pairing_services.pool_join(
                user=player, pool=pool, client_seed=seed, server_seed_hash=shown
            )
            outcomes.append("joined")
        except CommandError as error:
            outcomes.append(error.code)

    run_together(lambda: tab(TRADITIONAL, "left"), lambda: tab(TOURNAMENT, "right"))
    return outcomes


def test_two_tabs_sending_one_commitment_at_the_same_instant_make_one_wait_on_it(player):
    for trial in range(TRIALS):
        shown = next_seed.next_seed_commitment(player.pk)
        assert sorted(_two_tabs_join_with(player, shown)) == ["joined", "seed_changed"], trial
        entry = PoolEntry.objects.get(user=player)
        assert commitment(entry.server_seed) == shown, trial
        pairing_services.pool_leave(user=player)


@pytest.mark.parametrize(
    "seed_hash", ["", "0" * 63, "A" * 64, "g" * 64, "0" * 65, 64, ["0" * 64], {"h": 1}]
)
def test_a_malformed_commitment_or_none_with_a_client_seed_is_refused(player, seed_hash):
    shown = next_seed.next_seed_commitment(player.pk)
    with pytest.raises(CommandError) as refused:
        pairing_services.pool_join(
            user=player, pool=TRADITIONAL, client_seed="mine", server_seed_hash=seed_hash
        )
    assert refused.value.code == "bad_field"
    with pytest.raises(CommandError) as refused:
        pairing_services.pool_join(user=player, pool=TRADITIONAL, client_seed="mine")
    assert refused.value.code == "bad_field"
    assert not PoolEntry.objects.exists()
    assert next_seed.next_seed_commitment(player.pk) == shown  # nothing was taken


def test_a_commitment_that_is_not_the_waiting_one_takes_nothing(player):
    shown = next_seed.next_seed_commitment(player.pk)
    assert next_seed.take_committed_seed(player.pk, "0" * 64) is None
    seed = next_seed.take_committed_seed(player.pk, shown)
    assert seed is not None and commitment(seed) == shown
    assert next_seed.take_committed_seed(player.pk, shown) is None  # taken once


@pytest.mark.django_db
def test_without_a_waiting_seed_a_match_still_gets_a_fresh_one(player):
    next_seed._client().delete(next_seed._key(player.pk))
    first, second = next_seed.take_next_seed(player.pk), next_seed.take_next_seed(player.pk)
    assert re.fullmatch(r"[0-9a-f]{64}", first) and first != second


@pytest.mark.django_db
def test_a_visitor_is_shown_no_commitment(client):
    assert "data-next-seed-hash" not in client.get(reverse("play")).content.decode()
