"""The tournament's chat is its players' until the end (docs/rules.md "Arena tournaments", item
6; tournaments/services/chat.py): a spectator who never joined, a removed or banned player, and
anyone after the end or a cancellation are refused with a clear message and nothing stored; the
page offers the form only to those it would accept."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from moderation.services import user_ban, user_chat_mute
from realtime.errors import CommandError
from tests.factories import make_user
from tests.moderation.conftest import make_moderator
from tests.tournaments.conftest import arena, rated
from tournaments.models import ChatLine, Player, Status, Tournament
from tournaments.services.chat import tournament_chat_post
from tournaments.services.clock import tournament_finish
from tournaments.services.moderation import tournament_player_remove
from tournaments.services.players import tournament_join, tournament_withdraw

pytestmark = pytest.mark.django_db(transaction=True)


def joined(tournament, name: str = "talker"):
    user = rated(name)
    tournament_join(user=user, tournament_id=tournament.pk)
    return user


def end(tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(ends_at=timezone.now())


@pytest.mark.parametrize("when", ["scheduled", "running", "withdrawn"])
def test_a_player_chats_before_the_start_while_it_runs_and_after_withdrawing(when):
    tournament = arena(running=when != "scheduled")
    user = joined(tournament)
    if when == "withdrawn":
        tournament_withdraw(user=user, tournament_id=tournament.pk)
    line = tournament_chat_post(user=user, tournament_id=tournament.pk, text=" good luck ")
    assert (line.text, line.tournament_id) == ("good luck", tournament.pk)


@pytest.mark.parametrize(
    ("case", "code"),
    [
        ("spectator", "not_joined"),
        ("another tournament's player", "not_joined"),
        ("removed", "removed"),
        ("banned", "banned"),
        ("muted", "muted"),
        ("past the end, before the sweep", "tournament_over"),
        ("finished", "tournament_over"),
        ("cancelled", "tournament_over"),
        ("guest", "login_required"),
        ("bot", "login_required"),
        ("deactivated", "account_inactive"),
        ("missing tournament", "not_found"),
    ],
)
def test_each_outsider_or_late_line_is_refused_and_stores_nothing(case, code):
    tournament = arena(rated=False)
    user = joined(tournament)
    tournament_id = tournament.pk
    moderator = make_moderator()
    if case == "spectator":
        user = rated("watcher")
    elif case == "another tournament's player":
        user = joined(arena(), "elsewhere")
    elif case == "removed":
        tournament_player_remove(moderator=moderator, tournament_id=tournament_id,
                                 user_id=user.pk, reason="abuse")  # fmt: skip
    elif case == "banned":
        user_ban(moderator=moderator, user=user, reason="abuse")
    elif case == "muted":
        user_chat_mute(moderator=moderator, user=user, reason="abuse",
                       ends_at=timezone.now() + timedelta(hours=1))  # fmt: skip
    elif case == "past the end, before the sweep":
        end(tournament)
    elif case == "finished":
        end(tournament)
        assert tournament_finish(tournament_id=tournament_id)
    elif case == "cancelled":
        Tournament.objects.filter(pk=tournament_id).update(status=Status.CANCELLED)
    elif case == "guest":
        user = make_user("Guest-4242", is_guest=True)
        tournament_join(user=user, tournament_id=tournament_id)  # casual: guests play
    elif case == "bot":
        user = make_user("Bot-Club", is_bot=True, bot_level="club")
    elif case == "deactivated":
        type(user).objects.filter(pk=user.pk).update(is_active=False)
    elif case == "missing tournament":
        tournament_id += 1000
    with pytest.raises(CommandError) as refused:
        tournament_chat_post(user=user, tournament_id=tournament_id, text="hello")
    assert refused.value.code == code
    assert str(refused.value.message)
    assert not ChatLine.objects.exists()


def test_the_refusals_are_translated():
    from django.utils import translation

    tournament = arena()
    with translation.override("ru"), pytest.raises(CommandError) as refused:
        tournament_chat_post(user=rated("watcher"), tournament_id=tournament.pk, text="привет")
    assert str(refused.value.message) != "Only the tournament's players chat here: join it first."
    end(tournament)
    with translation.override("ru"), pytest.raises(CommandError) as late:
        tournament_chat_post(user=joined(tournament), tournament_id=tournament.pk, text="gg")
    assert late.value.code == "tournament_over"
    assert str(late.value.message) != "This tournament is over: its chat is closed."


def chat_form_shown(tournament, user) -> bool:
    client = Client()
    if user is not None:
        client.force_login(user)
    page = client.get(reverse("tournament", kwargs={"tournament_id": tournament.pk}))
    html = page.content.decode()
    form_open = '<form id="chat-form" class="chat-form">' in html
    note_shown = '<p class="muted small" id="chat-closed">' in html
    assert form_open != note_shown  # the one or the other
    return form_open


def test_the_page_offers_the_form_only_to_whom_it_would_accept():
    tournament = arena()
    player = joined(tournament)
    withdrawn = joined(tournament, "gone")
    Player.objects.filter(user=withdrawn).update(withdrawn=True, playing=None)
    removed = joined(tournament, "removed")
    Player.objects.filter(user=removed).update(removed=True)
    assert chat_form_shown(tournament, player)
    assert chat_form_shown(tournament, withdrawn)
    assert not chat_form_shown(tournament, removed)
    assert not chat_form_shown(tournament, rated("watcher"))
    assert not chat_form_shown(tournament, None)
    end(tournament)
    assert tournament_finish(tournament_id=tournament.pk)
    assert not chat_form_shown(tournament, player)
