"""The reminder a day before a correspondence deadline, the emails and their opt-out, the home
page's "Your turn" list and the profile's Correspondence tab."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games import hooks, services
from games.correspondence_list import correspondence_rows, your_turn_rows
from games.correspondence_mail import correspondence_email_send
from games.models import Game
from games.services.reminders import correspondence_reminders_send, reminder_lead
from tests.factories import make_user
from tests.games.test_correspondence import correspondence, pass_the_deadline

pytestmark = pytest.mark.django_db


def started(creator, opponent, fixed_dice, *, days: int = 3):
    match = correspondence(creator, days=days, private=True)
    fixed_dice(6, 2)  # the creator plays White and moves first
    services.match_accept(user=opponent, match_id=match.pk, token=match.invite_token)
    match.refresh_from_db()
    return match


def left_on_clock(match, left: timedelta) -> Game:
    """The open turn with `left` still on its clock."""
    return pass_the_deadline(match, by=-left)


@pytest.fixture
def heard():
    got = []

    def receiver(sender, **kwargs):
        got.append((kwargs["user_id"], kwargs["match_id"]))

    hooks.correspondence_deadline_near.connect(receiver)
    yield got
    hooks.correspondence_deadline_near.disconnect(receiver)


def test_a_reminder_goes_once_a_day_before_the_deadline(
    players, fixed_dice, heard, django_capture_on_commit_callbacks
):
    creator, opponent = players
    match = started(creator, opponent, fixed_dice)
    with django_capture_on_commit_callbacks(execute=True):
        assert correspondence_reminders_send() == 0  # three days left
    left_on_clock(match, timedelta(hours=23))
    with django_capture_on_commit_callbacks(execute=True):
        assert correspondence_reminders_send() == 1
        assert correspondence_reminders_send() == 0  # the same deadline: once
    assert heard == [(creator.pk, match.pk)]


def test_the_one_day_clock_reminds_half_a_turn_before(players, fixed_dice, heard):
    creator, opponent = players
    match = started(creator, opponent, fixed_dice, days=1)
    assert reminder_lead(1) == timedelta(hours=12)
    left_on_clock(match, timedelta(hours=13))
    assert correspondence_reminders_send() == 0
    left_on_clock(match, timedelta(hours=11))
    assert correspondence_reminders_send() == 1


def test_a_new_turn_is_reminded_again(
    players, fixed_dice, heard, django_capture_on_commit_callbacks
):
    from tests.games.test_correspondence import play_own_turn

    creator, opponent = players
    match = started(creator, opponent, fixed_dice)
    left_on_clock(match, timedelta(hours=2))
    with django_capture_on_commit_callbacks(execute=True):
        correspondence_reminders_send()
    play_own_turn(creator, match.pk, fixed_dice)
    left_on_clock(match, timedelta(hours=2))
    with django_capture_on_commit_callbacks(execute=True):
        assert correspondence_reminders_send() == 1
    assert heard == [(creator.pk, match.pk), (opponent.pk, match.pk)]


def test_live_matches_are_never_reminded(active_match, heard):
    Game.objects.filter(match=active_match).update(
        turn_deadline=timezone.now() + timedelta(seconds=30)
    )
    assert correspondence_reminders_send() == 0


def test_the_email_goes_in_the_players_language_and_the_opt_out_is_honoured(
    players, fixed_dice, settings
):
    creator, opponent = players
    creator.language = "ru"
    creator.save(update_fields=["language"])
    match = started(creator, opponent, fixed_dice)
    mail.outbox.clear()
    assert correspondence_email_send(user_id=creator.pk, match_id=match.pk, kind="turn_due")
    (sent,) = mail.outbox
    assert sent.to == [creator.email]
    assert "Ваш ход" in sent.subject and opponent.username in sent.subject
    assert settings.SITE_URL + match.get_absolute_url() in sent.body
    # Turned off on the preferences page: nothing is sent, of either kind.
    creator.correspondence_emails = False
    creator.save(update_fields=["correspondence_emails"])
    for kind in ("turn_due", "deadline_near"):
        assert not correspondence_email_send(user_id=creator.pk, match_id=match.pk, kind=kind)
    assert len(mail.outbox) == 1


def test_no_email_to_an_unverified_address_a_stranger_or_after_the_end(players, fixed_dice):
    creator, _ = players
    unverified = make_user(verified=False)
    match = started(creator, unverified, fixed_dice)
    mail.outbox.clear()
    assert not correspondence_email_send(user_id=unverified.pk, match_id=match.pk, kind="turn_due")
    stranger = make_user()
    assert not correspondence_email_send(user_id=stranger.pk, match_id=match.pk, kind="turn_due")
    services.match_resign(user=creator, match_id=match.pk)
    assert not correspondence_email_send(user_id=creator.pk, match_id=match.pk, kind="turn_due")
    assert mail.outbox == []


def test_the_preferences_page_turns_the_emails_off(client, players):
    creator, _ = players
    client.force_login(creator)
    page = client.get(reverse("preferences"))
    assert b'name="correspondence_emails"' in page.content
    client.post(reverse("preferences"), {"language": "", "auto_roll": "on"})
    creator.refresh_from_db()
    assert creator.correspondence_emails is False


def test_your_turn_and_the_tab_are_sorted_by_the_time_left(players, fixed_dice, client):
    creator, opponent = players
    later = started(creator, opponent, fixed_dice, days=7)
    sooner = started(creator, opponent, fixed_dice, days=2)
    theirs = started(opponent, creator, fixed_dice, days=1)  # the opponent moves first there
    assert [row.match.pk for row in your_turn_rows(creator)] == [sooner.pk, later.pk]
    rows = correspondence_rows(creator)
    assert [row.match.pk for row in rows] == [theirs.pk, sooner.pk, later.pk]
    assert [row.to_play for row in rows] == [False, True, True]
    client.force_login(creator)
    home = client.get("/").content.decode()
    assert 'id="your-turn"' in home
    assert home.index(f'data-match-id="{sooner.pk}"') < home.index(f'data-match-id="{later.pk}"')
    tab = client.get(
        reverse("profile", kwargs={"username": creator.username}) + "?tab=correspondence"
    ).content.decode()
    order = [tab.index(f'data-match-id="{match.pk}"') for match in (theirs, sooner, later)]
    assert order == sorted(order)
    # The opponent's home lists only their own turn.
    client.force_login(opponent)
    assert [row.match.pk for row in your_turn_rows(opponent)] == [theirs.pk]


def test_a_live_match_is_resumed_and_never_listed_as_correspondence(active_match, players, client):
    creator, _ = players
    assert correspondence_rows(creator) == []
    client.force_login(creator)
    home = client.get("/").content.decode()
    assert 'id="resume"' in home and 'id="your-turn"' not in home


def test_correspondence_matches_are_not_in_the_live_lists(players, fixed_dice, active_match):
    from games.selectors import live_match_count, live_matches

    creator, opponent = players
    started(make_user(), make_user(), fixed_dice)
    assert [match.pk for match in live_matches()] == [active_match.pk]
    assert live_match_count() == 1
