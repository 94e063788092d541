"""Usernames: the words `guest` and `bot` at the start of a name are the site's own (its guests
and bots), however they are written; a name must show something (accounts/usernames.py)."""

from __future__ import annotations

import itertools

import pytest
from django.urls import reverse

from accounts.guests import guest_create
from accounts.models import User
from accounts.usernames import reserved_word
from games.services.bots import BOT_NAMES
from tests.factories import PASSWORD, enable_totp, make_user

pytestmark = pytest.mark.django_db

RESERVED = [
    "Guest-4821", "guest-1", "GUEST_77", "Guest", "Guest4821", "GuestUser", "Bot-Masters",
    "bot", "BOT-x", "Bot_Club", "Bot.Master", "BotMaster", "Bot7",
    "B0t-Master", "Gu3st-12", "6ot-1", "9uest-2", "bo7",              # digits for letters
    "Вот-1", "ВОТ", "Guеst-5", "Βοτ-2",                              # Cyrillic, Greek letters
    "Ｂｏｔ-1", "𝐁𝐨𝐭-1", "ʙᴏᴛ", "Bót-1", "Gũest-3",                # NFKC forms, accents
    "_Bot-Master", "B.o.t-1", "B-o-t",                                # separators
]  # fmt: skip
FREE = ["Botanist", "Guestbook", "BOTANIST", "Bob", "Bots", "Guests", "Abbot", "natalia",
        "Boston", "robot", "ВОТУМ"]  # fmt: skip


_sign_ups = itertools.count(1)


def sign_up(client, username: str):
    """A sign-up from an address of its own (allauth limits sign-ups per address)."""
    number = next(_sign_ups)
    return client.post(reverse("account_signup"), {
        "username": username, "email": f"signup{number}@example.com",
        "password1": PASSWORD, "password2": PASSWORD,
    }, REMOTE_ADDR=f"198.51.{number // 250}.{number % 250 + 1}")  # fmt: skip


def test_the_sites_own_names_are_reserved():
    assert all(reserved_word(name) == "bot" for name in BOT_NAMES.values())
    assert reserved_word(guest_create(address="192.0.2.80").username) == "guest"


@pytest.mark.parametrize("name", RESERVED)
def test_sign_up_refuses_names_that_pass_for_the_sites_own(client, name):
    response = sign_up(client, name)
    assert response.status_code == 200
    assert "belong to the site" in response.content.decode()
    assert not User.objects.filter(is_guest=False, is_bot=False).exists()


@pytest.mark.parametrize("name", FREE)
def test_sign_up_keeps_ordinary_names(client, name):
    assert sign_up(client, name).status_code == 302
    assert User.objects.filter(username=name).exists()


@pytest.mark.parametrize("name", ["\u3164\u3164\u3164", "\u115f\u1160\u3164\uffa0"])
def test_sign_up_refuses_names_that_show_nothing(client, name):
    response = sign_up(client, name)
    assert response.status_code == 200 and "shows nothing" in response.content.decode()
    assert not User.objects.filter(is_bot=False).exists()


def test_a_guest_signing_up_chooses_a_name_of_their_own(client):
    client.post(reverse("play_now"), REMOTE_ADDR="192.0.2.81")
    guest = User.objects.get(is_guest=True)
    response = sign_up(client, guest.username)  # keeping "Guest-NNNN"
    assert response.status_code == 200
    assert User.objects.get(pk=guest.pk).is_guest


def admin_form_data(form) -> dict:
    """What the admin's change form posts when sent as rendered."""
    data = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if value is None or field.disabled:
            continue
        if hasattr(field.widget, "widgets"):  # split date and time
            for part, piece in enumerate(field.widget.decompress(value)):
                data[f"{name}_{part}"] = piece
        elif isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = value
    return data


def test_the_admin_refuses_the_same_names_but_edits_the_bots(client):
    root = make_user("root", is_staff=True, is_superuser=True)
    enable_totp(root)
    client.force_login(root)

    def change(user, **fields):
        url = reverse("admin:accounts_user_change", args=[user.pk])
        data = admin_form_data(client.get(url).context["adminform"].form)
        return client.post(url, {**data, **fields})

    player = make_user("renamed")
    response = change(player, username="Bot-Master2")
    assert response.status_code == 200 and "belong to the site" in response.content.decode()
    assert change(player, username="renamed_well").status_code == 302
    assert User.objects.get(pk=player.pk).username == "renamed_well"
    # The site's own accounts keep their names when other fields change.
    bot = User.objects.get(username=BOT_NAMES["master"])
    assert change(bot, language="ru").status_code == 302
    assert User.objects.get(pk=bot.pk).language == "ru"
    # A new user through the admin: the same rule.
    response = client.post(reverse("admin:accounts_user_add"), {
        "username": "Guest-1", "usable_password": "true",
        "password1": PASSWORD, "password2": PASSWORD,
    })  # fmt: skip
    assert response.status_code == 200 and not User.objects.filter(username="Guest-1").exists()
