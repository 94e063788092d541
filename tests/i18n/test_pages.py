"""Every page in every language; how the language is chosen and remembered."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import formats, timezone, translation

from accounts.models import User
from games import services
from tests.factories import make_user
from tests.i18n.catalog_text import LANGUAGES, english_left_on

pytestmark = pytest.mark.django_db

# The game's own words each Rules page must use (docs/glossary.md).
RULES_WORDS = {
    "en": ["Rules of Long Nardy", "head", "Mars", "Oin"],
    "ru": ["Правила длинных нард", "голов", "шашк", "Марс", "дом"],
    "uk": ["Правила довгих нард", "голов", "шашк", "Марс", "будин"],
    "ro": ["Regulile jocului de narde lungi", "capul", "pul", "Marț", "Oin"],
    "el": ["Μακρύ νάρδι: οι κανόνες", "μάνα", "πούλι", "ζάρι", "Μαρς"],
    "sr-latn": ["Pravila dugih nardi", "glav", "figur", "Mars", "kuć"],
}
# allauth's own msgids (its catalogs translate them); held in names so that makemessages, which
# reads literal gettext() calls, does not copy them into ours.
# Our own greeting (templates/account/email/base_message.txt), held in a name likewise.
GREETING = "Hello from Long Nardy!"
ALLAUTH_RESET_SUBJECT = "Password Reset Email"


def html_language(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.content.decode())[1]


@pytest.fixture
def finished_match():
    creator, opponent = make_user(), make_user()
    match = services.match_create(creator=creator, turn_seconds=60, rated=False)
    services.match_accept(user=opponent, match_id=match.pk)
    services.match_resign(user=opponent, match_id=match.pk)
    return match, creator


def site_pages(client, finished_match) -> dict[str, str]:
    match, creator = finished_match
    open_challenge = services.match_create(creator=make_user(), turn_seconds=60)
    client.force_login(creator)
    return {
        "login": reverse("account_login"),  # these two anonymously (signed in, they redirect)
        "password_reset": reverse("account_reset_password"),
        "home": reverse("home"),
        "rules": reverse("rules"),
        "fairness": reverse("fairness"),
        "play": reverse("play"),
        "watch": reverse("watch"),
        "leaderboard": reverse("leaderboard"),
        "profile": reverse("profile", kwargs={"username": creator.username}),
        "preferences": reverse("preferences"),
        "challenge": reverse("match", kwargs={"match_id": open_challenge.pk}),
        "match": reverse("match", kwargs={"match_id": match.pk}),
        "replay": reverse("match_replay", kwargs={"match_id": match.pk}),
    }


@pytest.mark.parametrize(("code", "locale"), LANGUAGES)
def test_every_page_is_in_the_chosen_language_with_no_english_sentence_left(
    client, finished_match, code, locale
):
    anonymous = client.__class__()
    for browser in (client, anonymous):
        browser.cookies["django_language"] = code
    for name, url in site_pages(client, finished_match).items():
        response = (anonymous if name in ("login", "password_reset") else client).get(url)
        assert response.status_code == 200, name
        assert html_language(response) == code, name
        page = response.content.decode()
        with translation.override(code):
            assert translation.gettext("Long Nardy") in page, name
        assert english_left_on(page, locale) == [], f"{name} in {code}"


def test_the_english_check_finds_english(client, finished_match):
    """The check above can fail: the English page shows the catalog's English sentences."""
    response = client.get(reverse("play"))
    assert english_left_on(response.content.decode(), "ru")


@pytest.mark.parametrize("code", [code for code, _locale in LANGUAGES] + ["en"])
def test_rules_page_is_written_in_each_language_with_the_games_own_words(client, code):
    client.cookies["django_language"] = code
    page = client.get(reverse("rules")).content.decode()
    for word in RULES_WORDS[code]:
        assert word in page, (code, word)
    assert "Rules of Long Nardy" not in page or code == "en"


# Each Fair dice page's title, and the byte layout that must be exact in every language.
FAIRNESS_TITLES = {
    "en": "Fair dice: how every roll can be checked",
    "ru": "Честные кости",
    "uk": "Чесні кості",
    "ro": "Zaruri corecte",
    "el": "Τίμια ζάρια",
    "sr-latn": "Poštene kockice",
}
BYTE_LAYOUT = ["HMAC-SHA256", "SHA-256", "252", "<code>b mod 6 + 1</code>", "alice:bob:1:3"]


@pytest.mark.parametrize("code", [code for code, _locale in LANGUAGES] + ["en"])
def test_fair_dice_page_explains_the_byte_layout_in_each_language(client, code):
    client.cookies["django_language"] = code
    page = client.get(reverse("fairness")).content.decode()
    assert FAIRNESS_TITLES[code] in page
    for fragment in BYTE_LAYOUT:
        assert fragment in page, (code, fragment)
    assert "&lt;client seed 0&gt;" in page or code != "en"
    assert FAIRNESS_TITLES["en"] not in page or code == "en"


def test_choice_labels_take_the_languages_plural_forms(client):
    client.force_login(make_user())
    page = client.get(reverse("play"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    for label in ["1 очко", "3 очка", "5 очков", "7 очков", "30 секунд", "1 минута", "2 минуты"]:
        assert f">{label}<" in page, label


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("ru-RU,ru;q=0.9,en;q=0.8", "ru"),
        ("el-GR,el;q=0.9", "el"),
        ("sr-Latn-RS,sr;q=0.9", "sr-latn"),
        ("sr", "sr-latn"),
        ("uk", "uk"),
        ("ro-MD", "ro"),
        ("de-DE,de;q=0.9", "en"),
        ("", "en"),
        ("xx;q=garbage,,;", "en"),
    ],
)
def test_first_visit_follows_accept_language(client, header, expected):
    assert html_language(client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE=header)) == expected


def test_selector_sets_the_cookie_and_it_beats_accept_language(client):
    response = client.post(reverse("set_language"), {"language": "el", "next": reverse("rules")})
    assert response.status_code == 302 and response["Location"] == reverse("rules")
    assert response.cookies["django_language"].value == "el"
    assert html_language(client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="ru")) == "el"


def test_a_signed_in_users_choice_is_saved_and_follows_them_to_another_browser(client):
    user = make_user()
    client.force_login(user)
    client.post(reverse("set_language"), {"language": "uk", "next": "/"})
    user.refresh_from_db()
    assert user.language == "uk"

    other_browser = client.__class__()
    other_browser.force_login(user)
    other_browser.cookies["django_language"] = "ro"
    response = other_browser.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="el")
    assert html_language(response) == "uk"
    assert response["Content-Language"] == "uk"


@pytest.mark.parametrize("hostile", ["de", "", "x" * 300, "../../etc", "ru\x00"])
def test_selector_refuses_a_language_the_site_does_not_offer(client, hostile):
    user = make_user(language="ro")
    client.force_login(user)
    response = client.post(reverse("set_language"), {"language": hostile, "next": "/"})
    assert response.status_code == 302
    assert "django_language" not in response.cookies
    user.refresh_from_db()
    assert user.language == "ro"


@pytest.mark.parametrize("hostile", ["de", "x" * 300, "sr"])
def test_preferences_refuse_a_language_the_site_does_not_offer(client, hostile):
    user = make_user(language="el")
    client.force_login(user)
    response = client.post(reverse("preferences"), {"language": hostile})
    assert response.status_code == 200 and "language" in response.context["form"].errors
    user.refresh_from_db()
    assert user.language == "el"


def test_preferences_save_the_language_or_follow_the_browser(client):
    user = make_user(language="el")
    client.force_login(user)
    response = client.post(reverse("preferences"), {"language": "ru"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.language == "ru"
    client.post(reverse("preferences"), {"language": ""})
    user.refresh_from_db()
    assert user.language == ""
    assert html_language(client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="ro")) == "ro"


def test_sign_up_keeps_the_page_language_and_the_verification_mail_is_in_it(client, settings):
    settings.ACCOUNT_RATE_LIMITS = False
    client.cookies["django_language"] = "el"
    response = client.post(
        reverse("account_signup"),
        {
            "email": "nikos@example.com",
            "username": "nikos",
            "password1": "a-long-enough-password-42",
            "password2": "a-long-enough-password-42",
        },
    )
    assert response.status_code == 302
    assert User.objects.get(username="nikos").language == "el"
    (message,) = mail.outbox
    with translation.override("el"):
        greeting = translation.gettext(GREETING)
    assert greeting != GREETING and message.body.startswith(greeting)


def test_password_reset_mail_is_in_the_users_language_not_the_pages(client):
    make_user("olena", language="uk")
    client.post(
        reverse("account_reset_password"),
        {"email": "olena@example.com"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    (message,) = mail.outbox
    with translation.override("uk"):
        subject = translation.gettext(ALLAUTH_RESET_SUBJECT)
    assert subject != "Password Reset Email" and subject in message.subject
    assert "You're receiving this email" not in message.body


def test_admin_titles_are_translated(client, admin_user):
    from tests.factories import enable_totp

    enable_totp(admin_user)  # staff need two factors before the admin opens (web/urls.py)
    client.force_login(admin_user)
    page = client.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Администрирование «Длинных нард»" in page
    assert "Long Nardy administration" not in page


def test_dates_are_written_the_languages_way(client):
    user = make_user()
    url = reverse("profile", kwargs={"username": user.username})
    joined = timezone.localtime(user.date_joined)
    with translation.override("en"):
        english = formats.date_format(joined, "DATE_FORMAT")
    for code in ("ru", "uk", "ro", "el", "sr-latn"):
        client.cookies["django_language"] = code
        with translation.override(code):
            expected = formats.date_format(joined, "DATE_FORMAT")
        assert expected != english
        assert expected in client.get(url).content.decode(), code
