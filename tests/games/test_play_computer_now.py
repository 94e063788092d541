"""One click from the home page into a match against Bot-Beginner (web/views.py play_computer):
a visitor becomes a guest and plays at once; a player's committed server seed is the match's; a
player already playing is taken back to that match; hostile posts change nothing. And the
settings forms: the common choices at once, the rest (the client seed too) under "More options"."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.forms import BotMatchForm, MatchCreateForm
from games.models import Match
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def one_click(client, **data):
    return client.post(reverse("play_computer"), data)


def test_a_visitors_first_click_is_a_match_against_bot_beginner(client):
    before = User.objects.count()
    response = one_click(client, client_seed="my-seed_1")
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    guest = User.objects.get(pk=client.session["_auth_user_id"])
    assert guest.is_guest and User.objects.count() == before + 1
    assert match.creator == guest and match.opponent.username == "Bot-Beginner"
    assert (match.status, match.rated, match.length, match.turn_seconds) == ("active", False, 1, 60)
    assert match.client_seed_creator == "my-seed_1"


def test_the_home_page_commits_the_seed_the_click_plays_with(client):
    anna = make_user("anna_home")
    client.force_login(anna)
    html = client.get(reverse("home")).content.decode()
    shown = re.search(r"<code data-next-seed-hash>([0-9a-f]{64})</code>", html).group(1)
    one_click(client)
    match = Match.objects.get(creator=anna)
    assert match.server_seed_hash == shown
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", match.client_seed_creator)


def test_a_player_in_a_match_is_taken_back_to_it(client):
    anna = make_user("anna_busy")
    client.force_login(anna)
    first = one_click(client)
    again = one_click(client)
    assert Match.objects.filter(creator=anna).count() == 1
    assert again["Location"] == first["Location"]
    html = client.get(reverse("home")).content.decode()
    assert 'id="resume"' in html and first["Location"] in html


@pytest.mark.parametrize(
    "data",
    [{"client_seed": "x" * 100_000}, {"client_seed": "bad seed!"}, {"client_seed": "ü"}],
)
def test_a_bad_client_seed_is_refused_and_nothing_starts(client, data):
    client.force_login(make_user("anna_hostile"))
    response = client.post(reverse("play_computer"), data, follow=True)
    assert Match.objects.count() == 0
    assert response.redirect_chain[-1][0].startswith(reverse("play"))
    assert "1 to 64 letters" in response.content.decode()


def test_only_post_and_the_guest_limit(client, settings):
    assert client.get(reverse("play_computer")).status_code == 405
    settings.GUESTS_PER_ADDRESS_PER_HOUR = 0
    response = Client().post(reverse("play_computer"), follow=True)
    assert Match.objects.count() == 0 and not User.objects.filter(is_guest=True).exists()
    assert response.redirect_chain[-1][0] == reverse("home")


def test_the_forms_show_common_choices_and_fold_the_rest():
    bot = BotMatchForm(auto_id="bot_%s")
    assert [field.name for field in bot.common()] == [
        "level", "rule_set_name", "length", "turn_seconds",
    ]  # fmt: skip
    assert bot["level"].initial == "beginner"
    assert "client_seed" in [field.name for field in bot.more()]
    create = MatchCreateForm()
    assert "client_seed" in [field.name for field in create.more()]
    assert {"rule_set_name", "length", "turn_seconds", "rated"} == {
        field.name for field in create.common()
    }
    # A folded field with an error is shown unfolded.
    broken = MatchCreateForm({"rule_set_name": "traditional", "turn_seconds": "60",
                              "head_exception": "classic", "opening": "reroll",
                              "client_seed": "not a seed"})  # fmt: skip
    assert not broken.is_valid() and broken.more_has_errors()
    assert not MatchCreateForm().more_has_errors()


def test_the_play_page_folds_more_options(client):
    client.force_login(make_user("anna_fold"))
    html = client.get(reverse("play")).content.decode()
    assert html.count('<details class="more-options">') == 2
    folded = html.split('<details class="more-options">')[1].split("</details>")[0]
    assert 'name="client_seed"' in folded and 'name="level"' not in folded
