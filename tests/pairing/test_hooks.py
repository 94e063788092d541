"""Who may pair or challenge (moderation/eligibility.py) as pairing and direct challenges meet it:
blocks, bans, guests and bots, the rule options of a direct challenge, and a match started any other
way ending the player's waits. Real PostgreSQL rows, no fakes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from games.models import Match
from games.services import CommandError
from games.services.bots import bot_account
from games.services.challenges import challenge_direct, challenge_payload
from moderation import services as moderation
from moderation.eligibility import blocked_pair_predicate
from moderation.selectors import blocked_between
from pairing import services
from pairing.models import PoolEntry, Proposal
from pairing.pools import Pool
from tests.factories import make_user
from tests.moderation.conftest import make_moderator
from tests.pairing.conftest import TRADITIONAL_1_60, rated

# Transactional unless a test says plain `django_db`: threads, after-commit work and other
# connections see only committed rows; the plain ones need none and end in a rollback (faster).
pytestmark = pytest.mark.django_db(transaction=True)

CASUAL = Pool("traditional", 1, 60, False)


def paired_ids() -> set[frozenset[int]]:
    return {
        frozenset((match.creator_id, match.opponent_id))
        for match in Match.objects.filter(paired_waits__isnull=False).distinct()
    }


@pytest.mark.django_db
def test_the_predicate_is_blocked_between_in_both_directions():
    ana, bogdan, cezar = rated("ana", 1500), rated("bogdan", 1500), rated("cezar", 1500)
    moderation.block_add(user=bogdan, target=ana)  # one-sided block: the pair is blocked
    blocked = blocked_pair_predicate([ana.pk, bogdan.pk, cezar.pk])
    assert blocked(ana.pk, bogdan.pk) and blocked(bogdan.pk, ana.pk)
    assert blocked_between(ana.pk, bogdan.pk)
    assert not blocked(ana.pk, cezar.pk) and not blocked(cezar.pk, bogdan.pk)
    with pytest.raises(ValueError):
        blocked(ana.pk, 10**9)  # a player not in the pool asked about: a bug, not "not blocked"


@pytest.mark.django_db
def test_a_blocked_pair_is_never_paired_and_the_next_closest_is_taken():
    ana, bogdan = rated("ana", 1500), rated("bogdan", 1500)
    moderation.block_add(user=ana, target=bogdan)
    services.pool_join(user=ana, pool=TRADITIONAL_1_60)
    services.pool_join(user=bogdan, pool=TRADITIONAL_1_60)
    assert PoolEntry.objects.count() == 2 and not paired_ids()
    # Windows wide open: still never paired, by the join's pairing or the sweep's.
    PoolEntry.objects.update(joined_at=timezone.now() - timedelta(seconds=120))
    services.pools_sweep()
    assert PoolEntry.objects.count() == 2 and not paired_ids()
    cezar = rated("cezar", 1560)  # farther from both than they are from each other
    services.pool_join(user=cezar, pool=TRADITIONAL_1_60)
    (pair,) = paired_ids()
    assert cezar.pk in pair and pair != {ana.pk, bogdan.pk}
    assert PoolEntry.objects.count() == 1


@pytest.mark.django_db
def test_after_unblocking_the_pair_is_paired():
    ana, bogdan = rated("ana", 1500), rated("bogdan", 1500)
    moderation.block_add(user=bogdan, target=ana)
    services.pool_join(user=ana, pool=TRADITIONAL_1_60)
    services.pool_join(user=bogdan, pool=TRADITIONAL_1_60)
    assert not paired_ids()
    moderation.block_remove(user=bogdan, target_id=ana.pk)
    services.pools_sweep()
    assert paired_ids() == {frozenset((ana.pk, bogdan.pk))}


@pytest.mark.django_db
def test_a_guest_cannot_send_a_direct_challenge_nor_see_the_button(client):
    guest = make_user("guest_1", is_guest=True)
    bogdan = make_user("bogdan")
    with pytest.raises(CommandError) as refused:
        challenge_direct(creator=guest, invited=bogdan, turn_seconds=60, rated=False)
    assert refused.value.code == "guest"
    assert not Match.objects.exists()
    client.force_login(guest)
    page = client.get(reverse("profile", kwargs={"username": "bogdan"}))
    assert page.status_code == 200 and b'id="challenge-button"' not in page.content
    posted = client.post(
        reverse("challenge_player", kwargs={"username": "bogdan"}),
        {"rule_set_name": "traditional", "turn_seconds": "60", "reserve_seconds": "0",
         "head_exception": "classic", "opening": "reroll"},
    )  # fmt: skip
    assert posted.status_code == 400 and not Match.objects.exists()


@pytest.mark.django_db
def test_a_signed_up_player_sees_the_button_but_not_on_a_blocked_or_bot_profile(client):
    ana, bogdan = make_user("ana"), make_user("bogdan")
    client.force_login(ana)
    url = reverse("profile", kwargs={"username": "bogdan"})
    assert b'id="challenge-button"' in client.get(url).content
    moderation.block_add(user=bogdan, target=ana)
    assert b'id="challenge-button"' not in client.get(url).content
    bot = bot_account("club")
    bot_page = client.get(reverse("profile", kwargs={"username": bot.username}))
    assert b'id="challenge-button"' not in bot_page.content
    with pytest.raises(CommandError):
        challenge_direct(creator=ana, invited=bot, turn_seconds=60)
    with pytest.raises(CommandError) as refused:
        challenge_direct(creator=ana, invited=bogdan, turn_seconds=60)
    assert refused.value.code == "blocked"
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_a_banned_player_cannot_join_a_pool_nor_challenge_nor_accept():
    moderator = make_moderator()
    banned, ana = rated("banned_one", 1500), rated("ana", 1500)
    challenge = challenge_direct(creator=ana, invited=banned, turn_seconds=60)
    moderation.user_ban(moderator=moderator, user=banned, reason="abuse")
    with pytest.raises(CommandError) as refused:
        services.pool_join(user=banned, pool=TRADITIONAL_1_60)
    assert refused.value.code == "banned"
    assert not PoolEntry.objects.exists()
    with pytest.raises(CommandError) as refused:
        challenge_direct(creator=banned, invited=ana, turn_seconds=60)
    assert refused.value.code == "banned"
    with pytest.raises(CommandError) as refused:
        game_services.match_accept(user=banned, match_id=challenge.pk)
    assert refused.value.code == "banned"
    assert Match.objects.get(pk=challenge.pk).status == "open"
    assert Match.objects.count() == 1


@pytest.mark.django_db
def test_a_ban_takes_a_waiting_player_out_of_the_pool():
    moderator = make_moderator()
    waiting = rated("waiting", 1500)
    services.pool_join(user=waiting, pool=TRADITIONAL_1_60)
    moderation.user_ban(moderator=moderator, user=waiting, reason="abuse")
    assert not PoolEntry.objects.exists()
    other = rated("other", 1500)
    services.pool_join(user=other, pool=TRADITIONAL_1_60)
    assert not paired_ids()


@pytest.mark.django_db
def test_bots_never_enter_pools_and_guests_only_casual_ones():
    bot = bot_account("beginner")
    with pytest.raises(CommandError) as refused:
        services.pool_join(user=bot, pool=CASUAL)
    assert refused.value.code == "bot"
    guest = make_user("guest_2", is_guest=True)
    with pytest.raises(CommandError) as refused:
        services.pool_join(user=guest, pool=TRADITIONAL_1_60)
    assert refused.value.code == "guest_not_rated"
    assert not PoolEntry.objects.exists()
    services.pool_join(user=guest, pool=CASUAL)
    assert PoolEntry.objects.filter(user=guest).exists()


@pytest.mark.django_db
def test_a_direct_challenge_carries_every_rule_option(client):
    ana, bogdan = make_user("ana"), make_user("bogdan")
    client.force_login(ana)
    form = {
        "rule_set_name": "traditional", "length": "3", "turn_seconds": "60",
        "reserve_seconds": "0", "rated": "on", "head_exception": "classic", "opening": "reroll",
        "single_die": "choice", "block_release": "home", "game_starter": "opening_roll",
        "doubling_cube": "on", "cube_raise": "arithmetic",
    }  # fmt: skip
    response = client.post(reverse("challenge_player", kwargs={"username": "bogdan"}), form)
    assert response.status_code == 302
    match = Match.objects.get(invited=bogdan)
    assert (match.length, match.single_die, match.block_release, match.game_starter) == (
        3, "choice", "home", "opening_roll",
    )  # fmt: skip
    assert match.doubling_cube and match.cube_raise == "arithmetic" and not match.crawford
    assert challenge_payload(match, 1500)["cube"] is True  # the notice says so
    # The same refusal as the Play form: no cube in a one-point match, nothing created.
    refused = client.post(
        reverse("challenge_player", kwargs={"username": "bogdan"}), {**form, "length": "1"}
    )
    assert refused.status_code == 400 and Match.objects.count() == 1


@pytest.mark.django_db
def test_a_guests_play_page_offers_only_the_casual_tiles(client):
    import re

    client.force_login(make_user("guest_3", is_guest=True))
    page = client.get(reverse("play")).content.decode()
    tiles = re.findall(r'<button type="button" class="tile" data-pool="([^"]+)">', page)
    assert tiles and all(key.endswith(".casual") for key in tiles)
    # The rated ones ask the guest to sign up first, then join.
    signup = re.findall(r'form="pool-signup" name="next" value="/play/\?pool=([^"]+)"', page)
    assert signup and all(key.endswith(".rated") for key in signup)
    assert re.search(r'id="pool-rated" disabled>', page)


# --- A match started any other way ends the player's waits (games/hooks.py `match_started`,
# heard by pairing/hook_answers.py after the start's commit) ------------------------------------


def _accept_someones_challenge(player) -> None:
    challenge = game_services.match_create(creator=make_user(), rated=False)
    game_services.match_accept(user=player, match_id=challenge.pk)


def _accept_a_rematch(player) -> None:
    other = make_user()
    first = game_services.match_create(creator=other, rated=False, private=True)
    game_services.match_accept(user=player, match_id=first.pk, token=first.invite_token)
    game_services.match_resign(user=other, match_id=first.pk)
    game_services.match_rematch_offer(user=other, match_id=first.pk)
    services.pool_join(user=player, pool=CASUAL)  # waits between the matches
    game_services.match_rematch_offer(user=player, match_id=first.pk)


def _have_ones_challenge_accepted(player) -> None:
    challenge = game_services.match_create(creator=player, rated=False)
    game_services.match_accept(user=make_user(), match_id=challenge.pk)


def _play_the_computer(player) -> None:
    game_services.match_create_vs_bot(user=player, level="beginner")


@pytest.mark.parametrize(
    "start",
    [_accept_someones_challenge, _accept_a_rematch, _have_ones_challenge_accepted,
     _play_the_computer],
)  # fmt: skip
def test_a_match_started_another_way_ends_the_players_pool_wait(start):
    player = rated("waiting_player", 1500)
    services.pool_join(user=player, pool=CASUAL)
    assert PoolEntry.objects.filter(user=player).exists()
    start(player)
    assert not PoolEntry.objects.filter(user=player).exists()
    # Someone joining the pool now waits: the player is not paired into a second match.
    other = rated("newcomer", 1500)
    services.pool_join(user=other, pool=CASUAL)
    assert PoolEntry.objects.filter(user=other).exists()
    assert not Match.objects.filter(paired_waits__user=other).exists()


def test_a_match_started_another_way_ends_a_pending_offer_and_requeues_the_other():
    player, far = rated("offered", 1500), rated("far_away", 2000)
    services.pool_join(user=player, pool=TRADITIONAL_1_60)
    services.pool_join(user=far, pool=TRADITIONAL_1_60)
    PoolEntry.objects.update(joined_at=timezone.now() - timedelta(seconds=120))
    services.pools_sweep()  # 500 points apart, windows wide open: an offer to confirm
    assert PoolEntry.objects.get(user=player).proposal_id is not None
    _accept_someones_challenge(player)
    assert not PoolEntry.objects.filter(user=player).exists()
    still = PoolEntry.objects.get(user=far)  # back in the pool at its place
    assert still.proposal_id is None and not Proposal.objects.exists()


def test_a_pairing_that_finds_a_player_seated_meanwhile_skips_only_that_pair():
    """The pool reads who is playing before it takes the players' start locks. Here a player's
    accept holds their lock, uncommitted, while a partner's join pairs the pool: the pairing
    waits for the lock, then finds the player seated and skips the pair (the join succeeds, the
    partner keeps waiting); the player ends in one match."""
    import threading

    from django.db import connection, transaction

    from games.services.starts import PLAYER_LOCK_CLASS

    ana, bogdan = rated("ana", 1500), rated("bogdan", 1500)
    challenge = game_services.match_create(creator=make_user(), rated=False)
    services.pool_join(user=ana, pool=CASUAL)
    accepted, release = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def accept_and_hold() -> None:
        try:
            with transaction.atomic():
                game_services.match_accept(user=ana, match_id=challenge.pk)
                accepted.set()
                release.wait(15)
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)
        finally:
            accepted.set()
            connection.close()

    def join() -> None:
        try:
            services.pool_join(user=bogdan, pool=CASUAL)
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)
        finally:
            connection.close()

    holder = threading.Thread(target=accept_and_hold)
    holder.start()
    assert accepted.wait(15)
    joiner = threading.Thread(target=join)
    joiner.start()
    waiting = 0
    for _ in range(100):  # until the pairing waits for ana's start lock (5 s at most)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                " AND classid = %s",
                [PLAYER_LOCK_CLASS],
            )
            (waiting,) = cursor.fetchone()
        if waiting:
            break
        threading.Event().wait(0.05)
    release.set()
    holder.join(30)
    joiner.join(30)
    assert not failures, failures
    assert waiting == 1  # the pairing did wait for the lock the accept held
    assert (
        Match.objects.filter(status="active").filter(Q(creator=ana) | Q(opponent=ana)).count() == 1
    )
    assert not Match.objects.filter(Q(creator=bogdan) | Q(opponent=bogdan)).exists()
    assert PoolEntry.objects.filter(user=bogdan).exists()
    assert not PoolEntry.objects.filter(user=ana).exists()
