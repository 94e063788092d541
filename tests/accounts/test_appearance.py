"""Light or dark, the board and the checkers (accounts/appearance.py): a visitor's choice in a
cookie, a player's (a guest's too) on the account, drawn by the server on the first paint; a
value not offered, a forged cookie or another site's `next` change nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.appearance import COOKIE_NAME, Appearance, from_cookie
from accounts.guests import guest_create
from accounts.models import BoardTheme, CheckerColours, ColourScheme, User
from tests.factories import make_user

pytestmark = pytest.mark.django_db
URL = "/settings/appearance/"
DARK_SHEET = 'href="/static/css/dark.css"'


def html_tag(client, path="/rules/") -> str:
    html = client.get(path).content.decode()
    return html.split("<html", 1)[1].split(">", 1)[0]


def dark_sheet(client, path="/rules/") -> str | None:
    """How the page links the dark sheet: "always", "device" (on a dark device) or None."""
    html = client.get(path).content.decode()
    if DARK_SHEET not in html:
        return None
    link = html.split(DARK_SHEET, 1)[1].split(">", 1)[0]
    return "device" if 'media="(prefers-color-scheme: dark)"' in link else "always"


def test_stored_values_never_change():
    assert ColourScheme.values == ["system", "light", "dark"]
    assert BoardTheme.values == ["wood", "felt", "contrast"]
    assert CheckerColours.values == ["ivory-ebony", "ivory-crimson", "pearl-navy"]


def test_a_visitor_follows_the_device_until_choosing(client):
    assert 'data-colour-scheme="system"' in html_tag(client)
    assert 'data-board-theme="wood"' in html_tag(client)
    assert dark_sheet(client) == "device"
    assert COOKIE_NAME not in client.cookies


def test_a_visitors_choice_lives_in_a_cookie_and_draws_the_first_paint(client):
    response = client.post(URL, {"colour_scheme": "dark", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    cookie = response.cookies[COOKIE_NAME]
    assert cookie.value == "dark.wood.ivory-ebony" and cookie["httponly"]
    assert dark_sheet(client) == "always"
    # Only the board: the scheme already chosen stays.
    client.post(URL, {"board_theme": "felt", "checker_colours": "pearl-navy"})
    tag = html_tag(client)
    assert 'data-colour-scheme="dark"' in tag
    assert 'data-board-theme="felt"' in tag and 'data-checkers="pearl-navy"' in tag
    client.post(URL, {"colour_scheme": "light"})
    assert dark_sheet(client) is None
    assert 'name="color-scheme" content="light"' in client.get("/rules/").content.decode()


def test_a_players_choice_is_saved_and_beats_the_cookie(client):
    player = make_user("painter")
    client.cookies[COOKIE_NAME] = "dark.felt.pearl-navy"
    client.force_login(player)
    # Signed in, the account's look applies, not the device's cookie.
    assert 'data-colour-scheme="system"' in html_tag(client)
    client.post(URL, {"board_theme": "contrast", "next": reverse("preferences")})
    player.refresh_from_db()
    assert (player.colour_scheme, player.board_theme) == ("system", "contrast")
    assert 'data-board-theme="contrast"' in html_tag(client, reverse("preferences"))


def test_a_guests_choice_is_on_its_row_and_in_the_cookie(client):
    guest = guest_create(address=None)
    client.force_login(guest)
    response = client.post(URL, {"colour_scheme": "dark"})
    guest.refresh_from_db()
    assert guest.colour_scheme == "dark"
    assert response.cookies[COOKIE_NAME].value.startswith("dark.")


@pytest.mark.parametrize(
    "asked",
    [
        {"colour_scheme": "purple"},
        {"board_theme": "wood" * 5000},
        {"checker_colours": ""},
        {"colour_scheme": "dark", "board_theme": "<script>"},
    ],
)
def test_a_value_not_offered_changes_nothing(client, asked):
    player = make_user("stubborn")
    client.force_login(player)
    response = client.post(URL, asked)
    assert response.status_code == 400
    assert COOKIE_NAME not in response.cookies
    player.refresh_from_db()
    assert Appearance(player.colour_scheme, player.board_theme, player.checker_colours) == (
        Appearance()
    )


def test_another_sites_next_goes_to_the_appearance_page(client):
    response = client.post(URL, {"colour_scheme": "dark", "next": "https://evil.example/"})
    assert response["Location"] == URL


def test_only_get_and_post(client):
    assert client.put(URL).status_code == 405


@pytest.mark.parametrize(
    ("cookie", "expected"),
    [
        ("dark.felt.pearl-navy", Appearance("dark", "felt", "pearl-navy")),
        ("dark", Appearance("dark")),
        ("purple.felt", Appearance(board_theme="felt")),
        ('dark."><script>.x', Appearance("dark")),
        ("dark." * 1000, Appearance("dark")),
        ("", Appearance()),
        (None, Appearance()),
    ],
)
def test_a_forged_or_old_cookie_keeps_what_is_offered(cookie, expected):
    assert from_cookie(cookie) == expected


def test_a_forged_cookie_reaches_no_page(client):
    client.cookies[COOKIE_NAME] = 'dark"><script>alert(1)</script>'
    html = client.get("/rules/").content.decode()
    assert "<script>alert(1)" not in html
    assert 'data-colour-scheme="system"' in html_tag(client)


def test_the_preferences_page_and_the_visitors_page_offer_every_choice(client):
    html = client.get(URL).content.decode()
    for value in BoardTheme.values + CheckerColours.values + ColourScheme.values:
        assert f'value="{value}"' in html, value
    client.force_login(make_user("chooser"))
    html = client.get(reverse("preferences")).content.decode()
    assert 'id="appearance-form"' in html and f'action="{URL}"' in html


def test_the_database_refuses_a_look_not_offered():
    from django.db import IntegrityError, transaction

    player = make_user("forger")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.filter(pk=player.pk).update(board_theme="marble")
