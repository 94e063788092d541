"""Preferences list each language in its own name, whatever the page's language (as the footer's
selector does); a language the site does not offer is refused and changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_user

pytestmark = pytest.mark.django_db

OWN_NAMES = ["English", "Română", "Русский", "Українська", "Ελληνικά", "Srpski (latinica)"]


@pytest.mark.parametrize("page_language", ["en", "ru", "el"])
def test_languages_in_their_own_names(client, page_language):
    client.force_login(make_user(f"polyglot_{page_language}", language=page_language))
    html = client.get(reverse("preferences")).content.decode()
    select = html.split('name="language"', 1)[1].split("</select>", 1)[0]
    for name in OWN_NAMES:
        assert f">{name}</option>" in select, name


@pytest.mark.parametrize("bad", ["xx", "de", "ru" * 1000, "sr"])
def test_a_language_we_do_not_offer_is_refused(client, bad):
    user = make_user("picky", language="ru")
    client.force_login(user)
    response = client.post(reverse("preferences"), {"language": bad})
    assert response.status_code == 200  # the form again, with its error
    user.refresh_from_db()
    assert user.language == "ru"
