"""The "Play the computer" and "Play now" forms against hostile input: huge, nested, wrong-typed,
repeated and replayed fields get a clear error and change nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from games import strength
from games.models import Match
from tests.factories import make_user

pytestmark = pytest.mark.django_db

GOOD = {
    "level": "club",
    "rule_set_name": "traditional",
    "length": "",
    "turn_seconds": "60",
    "head_exception": "classic",
    "opening": "reroll",
}
HOSTILE = [
    {"level": ""},
    {"level": "grandmaster"},
    {"level": "x" * 100_000},
    {"level": "club\x00"},
    {"level[]": "club", "level": ""},
    {"rule_set_name": "backgammon"},
    {"length": "4"},
    {"length": "1" * 5000},
    {"length": "-1"},
    {"turn_seconds": "abc"},
    {"turn_seconds": "1e9"},
    {"turn_seconds": "45"},
    {"turn_seconds": "0", "rated": "on"},
    {"head_exception": {"nested": "dict"}},
    {"opening": "play_roll" * 1000},
]


@pytest.mark.parametrize("changes", HOSTILE)
def test_hostile_computer_forms_are_refused_and_change_nothing(client, changes):
    client.force_login(make_user("hostile"))
    form = {**GOOD, **{key: str(value) for key, value in changes.items()}}
    response = client.post(reverse("match_create_vs_bot"), form)
    assert response.status_code == 400
    assert 'id="computer-form"' in response.content.decode()  # the page again, with errors
    assert not Match.objects.exists()


def test_repeated_values_take_one_and_a_replayed_form_starts_one_match(client, fixed_dice):
    person = make_user("double_click")
    client.force_login(person)
    first = client.post(reverse("match_create_vs_bot"), {**GOOD, "level": ["master", "club"]})
    assert first.status_code == 302
    match = Match.objects.get()
    assert first["Location"] == match.get_absolute_url()
    assert match.opponent.bot_level == "club"  # a repeated field: Django takes the last value
    replayed = client.post(reverse("match_create_vs_bot"), GOOD, follow=True)
    assert "You are already playing the computer" in replayed.content.decode()
    assert Match.objects.count() == 1


def test_the_computer_form_needs_an_identity_and_a_post(client):
    response = client.post(reverse("match_create_vs_bot"), GOOD)
    assert response.status_code == 302 and reverse("account_login") in response["Location"]
    client.force_login(make_user("getter"))
    assert client.get(reverse("match_create_vs_bot")).status_code == 405
    assert not Match.objects.exists()


def test_play_now_needs_a_post_and_ignores_any_fields(client):
    assert client.get(reverse("play_now")).status_code == 405
    before = User.objects.count()
    response = client.post(
        reverse("play_now"), {"username": "admin", "is_staff": "on", "x" * 300: "y" * 10_000}
    )
    assert response.status_code == 302
    guest = User.objects.get(pk=client.session["_auth_user_id"])
    assert guest.is_guest and not guest.is_staff and guest.username.startswith("Guest-")
    assert User.objects.count() == before + 1


def test_the_play_page_offers_the_computer(client):
    client.force_login(make_user("curious"))
    page = client.get(reverse("play")).content.decode()
    assert 'id="computer-form"' in page
    for value in ("beginner", "club", "master", "expert"):
        assert f'value="{value}"' in page
    assert 'id="bot_rated"' in page and 'id="id_private"' in page
    anonymous = client.__class__().get(reverse("play")).content.decode()
    assert 'id="play-now"' in anonymous and 'id="computer-form"' not in anonymous


def test_a_guest_plays_the_expert_and_sees_the_measured_strength(client, fixed_dice, monkeypatch):
    measured = {
        "master": {"against": "club", "games": 2000, "wins": 1380, "low": 0.669, "high": 0.71},
        "expert": {"against": "master", "games": 612, "wins": 399, "low": 0.614, "high": 0.689},
    }
    monkeypatch.setattr(strength, "measured_strength", lambda: measured)
    client.post(reverse("play_now"))
    page = client.get(reverse("play")).content.decode()
    assert 'id="bot-strength"' in page and 'value="expert"' in page
    # The figures come from the benchmark's file: 399 of 612 is 65.2 %, its interval as given.
    assert "65.2\u00a0%" in page and "61.4–68.9\u00a0%" in page and "612" in page
    assert "69.0\u00a0%" in page and "2000" in page
    rules = client.get(reverse("rules")).content.decode()
    assert 'id="computer-strength"' in rules and "65.2\u00a0%" in rules
    response = client.post(reverse("match_create_vs_bot"), {**GOOD, "level": "expert"})
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.opponent.bot_level == "expert" and match.opponent.username == "Bot-Expert"
    assert not match.rated


def test_nothing_measured_shows_no_strength_table(client, monkeypatch):
    monkeypatch.setattr(strength, "measured_strength", lambda: {})
    client.force_login(make_user("early"))
    assert 'id="bot-strength"' not in client.get(reverse("play")).content.decode()
    assert 'id="computer-strength"' not in client.get(reverse("rules")).content.decode()
