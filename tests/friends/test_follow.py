"""Following (friends/services.py, friends/selectors.py): who may follow whom, the limit under
the follower's row lock, presence from the sockets' online set, and the pages."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from accounts.models import User
from config.redis_client import sync_client
from friends.models import Follow
from friends.selectors import follower_count, friends_of, friends_playing
from friends.services import follow_add, follow_remove
from games import services
from moderation import services as moderation
from moderation.models import Sanction, SanctionKind
from realtime.errors import CommandError
from realtime.socket_limits import LAPSE_SECONDS, online_key
from tests.factories import make_user
from tests.threads import run_together

pytestmark = pytest.mark.django_db


def refused(code: str, **kwargs) -> None:
    with pytest.raises(CommandError) as error:
        follow_add(**kwargs)
    assert error.value.code == code


def test_following_is_one_way_and_counted_once():
    ana, bogdan = make_user("ana"), make_user("bogdan")
    follow_add(user=ana, target=bogdan)
    follow_add(user=ana, target=bogdan)  # again: the same row
    assert Follow.objects.count() == 1
    assert follower_count(bogdan.pk) == 1 and follower_count(ana.pk) == 0
    assert follow_remove(user=ana, target_id=bogdan.pk) is True
    assert follow_remove(user=ana, target_id=bogdan.pk) is False


def test_nobody_follows_themselves_a_guest_a_bot_or_a_banned_player():
    ana = make_user("ana")
    refused("self", user=ana, target=ana)
    guest = make_user("guest_one", is_guest=True)
    refused("guest", user=guest, target=ana)  # a guest is told to sign up
    refused("not_a_player", user=ana, target=guest)
    bot = User.objects.filter(is_bot=True).first()
    refused("not_a_player", user=ana, target=bot)
    banned = make_user("banned")
    Sanction.objects.create(user=banned, kind=SanctionKind.BAN, reason="x", created_by=ana)
    refused("not_a_player", user=ana, target=banned)
    refused("banned", user=banned, target=ana)
    assert not Follow.objects.exists()


@pytest.mark.parametrize("blocker", ["follower", "followed"])
def test_a_block_either_way_refuses_the_follow_and_hides_presence(blocker):
    ana, bogdan = make_user("ana"), make_user("bogdan")
    follow_add(user=ana, target=bogdan)
    moderation.block_add(user=ana if blocker == "follower" else bogdan,
                         target=bogdan if blocker == "follower" else ana)  # fmt: skip
    sync_client().zadd(online_key(), {str(bogdan.pk): time.time() + 60})
    (friend,) = friends_of(ana)
    assert friend.hidden and not friend.online and friend.last_seen is None
    follow_remove(user=ana, target_id=bogdan.pk)
    refused("blocked", user=ana, target=bogdan)


@pytest.mark.django_db(transaction=True)
def test_the_follow_limit_holds_against_tabs_at_once(settings):
    """Four tabs follow four players at once with one place left: exactly one gets it."""
    settings.FOLLOWS_PER_USER = 3
    ana = make_user("ana")
    targets = [make_user(f"t{n}") for n in range(3)]
    for target in targets[:2]:
        follow_add(user=ana, target=target)
    racers = [make_user(f"r{n}") for n in range(4)]
    limited = []

    def follow(target) -> None:
        try:
            follow_add(user=ana, target=target)
        except CommandError as error:
            limited.append(error.code)

    run_together(*[lambda target=target: follow(target) for target in racers])
    assert limited == ["follow_limit"] * 3
    assert Follow.objects.filter(follower=ana).count() == 3
    refused("follow_limit", user=ana, target=targets[2])


def test_friends_show_playing_online_and_last_seen(fixed_dice):
    ana, playing, online, away, never = (make_user(name) for name in
                                         ("ana", "p1", "o1", "a1", "n1"))  # fmt: skip
    for target in (playing, online, away, never):
        follow_add(user=ana, target=target)
    opponent = make_user("opp")
    match = services.match_create(creator=playing)
    fixed_dice(6, 2)
    services.match_accept(user=opponent, match_id=match.pk)
    now = time.time()
    sync_client().zadd(online_key(), {str(online.pk): now + 60, str(away.pk): now - 600})
    friends = {friend.user.username: friend for friend in friends_of(ana)}
    assert [friend.user.username for friend in friends_of(ana)][:2] == ["p1", "o1"]
    assert friends["p1"].match_id == match.pk
    assert friends["o1"].online and not friends["o1"].playing
    assert not friends["a1"].online
    assert abs(friends["a1"].last_seen.timestamp() - (now - 600 - LAPSE_SECONDS)) < 1
    assert friends["n1"].last_seen is None
    assert [friend.user.username for friend in friends_playing(ana)] == ["p1"]


def test_the_pages_follow_unfollow_and_list(client):
    ana, bogdan = make_user("ana"), make_user("bogdan")
    client.force_login(ana)
    profile = client.get(reverse("profile", kwargs={"username": "bogdan"}))
    assert b'data-follow="bogdan"' in profile.content
    client.post(reverse("follow", kwargs={"username": "bogdan"}))
    assert Follow.objects.filter(follower=ana, followed=bogdan).exists()
    page = client.get(reverse("friends"))
    assert b'data-friend="bogdan"' in page.content
    assert reverse("challenge_player", kwargs={"username": "bogdan"}).encode() in page.content
    # An outside `next` is not followed back.
    answer = client.post(reverse("unfollow", kwargs={"username": "bogdan"}),
                         {"next": "https://evil.example/"})  # fmt: skip
    assert answer["Location"] == reverse("profile", kwargs={"username": "bogdan"})
    assert not Follow.objects.exists()
    # Bogdan sees a count, not who.
    follow_add(user=ana, target=bogdan)
    client.force_login(bogdan)
    own = client.get(reverse("profile", kwargs={"username": "bogdan"}))
    assert b'id="follower-count">1 follower<' in own.content and b'href="/@/ana"' not in own.content


def test_a_guest_is_told_to_sign_up_and_follows_nobody(client):
    make_user("bogdan")
    client.force_login(make_user("guest_two", is_guest=True))
    page = client.get(reverse("friends"))
    assert b'id="friends-guest"' in page.content
    client.post(reverse("follow", kwargs={"username": "bogdan"}))
    assert not Follow.objects.exists()


def test_signed_out_visitors_cannot_follow(client):
    make_user("bogdan")
    answer = client.post(reverse("follow", kwargs={"username": "bogdan"}))
    assert answer.status_code == 302 and "login" in answer["Location"]
    assert not Follow.objects.exists()
