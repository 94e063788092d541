"""Guests (accounts/guests.py): "Play now" without an account, casual play only (forged
forms too), sign-up keeps the guest's matches, the per-address limit, and the clean-up."""

from __future__ import annotations

import itertools
import re
import secrets
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.guests import guest_create, guests_delete_unused
from accounts.models import User
from games import services
from games.models import Match, MatchStatus
from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db
# Fresh addresses and emails per run: the per-address counters and allauth's mail limits live in
# Redis, which outlives a test run. Each address in its own /64: an IPv6 client counts per /64.
RUN = secrets.token_hex(3)
_addresses = (f"2001:db8:{RUN[:4]}:{n:x}::1" for n in itertools.count(1))


def play_now(client, address: str | None = None):
    return client.post(reverse("play_now"), REMOTE_ADDR=address or next(_addresses))


def test_play_now_gives_a_signed_in_guest_who_lands_on_the_computer(client):
    response = play_now(client)
    assert response.status_code == 302 and response["Location"] == reverse("play") + "#computer"
    guest = User.objects.get(pk=client.session["_auth_user_id"])
    assert guest.is_guest and not guest.is_bot and not guest.has_usable_password()
    assert re.fullmatch(r"Guest-\d{4}", guest.username)
    assert not guest.may_play_rated and not guest.may_report_or_challenge
    page = client.get(reverse("play")).content.decode()
    assert 'id="guest-notice"' in page and guest.username in page
    assert 'id="bot_rated"' not in page and 'id="id_rated"' not in page
    assert 'id="id_private"' not in page
    # Pressing it again keeps the same guest.
    play_now(client)
    assert User.objects.filter(is_guest=True).count() == 1


def test_guests_are_limited_per_address(client, settings):
    settings.GUESTS_PER_ADDRESS_PER_HOUR = 2
    address = next(_addresses)
    for _ in range(2):
        assert play_now(client.__class__(), address).status_code == 302
    before = User.objects.count()
    refused = client.__class__()
    response = play_now(refused, address)
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert "_auth_user_id" not in refused.session
    assert User.objects.count() == before
    # Another address is not limited by this one.
    fresh = client.__class__()
    play_now(fresh)
    assert "_auth_user_id" in fresh.session


@pytest.mark.parametrize(
    ("path", "fields"),
    [
        ("match_create", {"rated": "on"}),
        ("match_create", {"private": "on"}),
        ("match_create", {"rated": "on", "private": "on"}),
        ("match_create_vs_bot", {"rated": "on", "level": "club"}),
    ],
)
def test_forged_forms_do_not_give_guests_rated_play_or_invites(client, path, fields):
    play_now(client)
    form = {"rule_set_name": "traditional", "turn_seconds": "60", "reserve_seconds": "0",
            "head_exception": "classic", "opening": "reroll", **fields}  # fmt: skip
    response = client.post(reverse(path), form)
    assert response.status_code == 400
    assert "Sign up to play rated or to invite a friend." in response.content.decode()
    assert not Match.objects.exists()


def test_the_services_refuse_guests_rated_play_whatever_calls_them(fixed_dice):
    guest = guest_create(address=next(_addresses))
    with pytest.raises(services.CommandError) as refused:
        services.match_create(creator=guest, rated=True)
    assert refused.value.code == "guest_not_allowed"
    with pytest.raises(services.CommandError):
        services.match_create(creator=guest, rated=False, private=True)
    rated = services.match_create(creator=make_user("rated_host"), rated=True)
    with pytest.raises(services.CommandError) as refused:
        services.match_accept(user=guest, match_id=rated.pk)
    assert refused.value.code == "guest_not_rated"
    assert Match.objects.get(pk=rated.pk).status == MatchStatus.OPEN
    # Casual games against people are theirs to play.
    casual = services.match_create(creator=make_user("casual_host"), rated=False)
    fixed_dice(6, 2)
    services.match_accept(user=guest, match_id=casual.pk)
    assert Match.objects.get(pk=casual.pk).status == MatchStatus.ACTIVE
    own = services.match_create(creator=guest, rated=False, turn_seconds=None)
    assert own.status == MatchStatus.OPEN and not own.rated


def test_signing_up_from_a_guest_session_keeps_the_matches(client, fixed_dice):
    play_now(client)
    guest = User.objects.get(is_guest=True)
    match = services.match_create_vs_bot(user=guest, level="beginner")
    services.match_resign(user=guest, match_id=match.pk)
    # A guest may open the sign-up page (allauth would send a signed-in visitor away).
    assert client.get(reverse("account_signup")).status_code == 200
    back = match.get_absolute_url()
    response = client.post(
        reverse("account_signup"),
        {"username": "olena", "email": f"olena{RUN}@example.com", "password1": PASSWORD,
         "password2": PASSWORD, "next": back},
    )  # fmt: skip
    # Still signed in, as the same row, and back where the player signed up from.
    assert response.status_code == 302 and response["Location"] == back
    user = User.objects.get(username="olena")
    assert client.session["_auth_user_id"] == str(user.pk)
    assert user.pk == guest.pk and not user.is_guest and user.has_usable_password()
    assert Match.objects.get(pk=match.pk).creator_id == user.pk
    assert not User.objects.filter(is_guest=True).exists()
    assert mail.outbox[-1].to == [f"olena{RUN}@example.com"]
    profile = client.get(reverse("profile", kwargs={"username": "olena"})).content.decode()
    assert f'data-match-id="{match.pk}"' in profile and "Bot-Beginner" in profile


def test_a_signed_in_person_is_still_sent_away_from_sign_up_and_log_in(client):
    client.force_login(make_user("regular"))
    for name in ("account_signup", "account_login"):
        response = client.get(reverse(name))
        assert response.status_code == 302, name
    # ...and a person's sign-up makes a new row, never touching a guest's.
    anonymous = client.__class__()
    assert anonymous.get(reverse("account_signup")).status_code == 200


def test_unused_guests_are_deleted_after_thirty_days(fixed_dice):
    now = timezone.now()
    old = now - timedelta(days=31)
    unused = guest_create(address=next(_addresses))
    played = guest_create(address=next(_addresses))
    recent = guest_create(address=next(_addresses))
    returning = guest_create(address=next(_addresses))
    person = make_user("long_gone")
    User.objects.filter(pk__in=[unused.pk, played.pk, person.pk]).update(date_joined=old)
    User.objects.filter(pk=returning.pk).update(date_joined=old, last_login=now - timedelta(days=2))
    User.objects.filter(pk=person.pk).update(last_login=old)
    services.match_create_vs_bot(user=played, level="club")
    assert guests_delete_unused() == 1
    remaining = set(User.objects.values_list("pk", flat=True))
    assert unused.pk not in remaining
    assert {played.pk, recent.pk, returning.pk, person.pk} <= remaining


def test_the_clean_up_runs_from_beat(settings):
    from accounts.tasks import delete_unused_guests
    from config.celery import app

    entry = next(
        e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == delete_unused_guests.name
    )
    assert entry["schedule"] <= 24 * 3600
    assert delete_unused_guests.name in app.tasks
