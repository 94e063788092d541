"""The notifications service (notifications/services.py) and what the lower apps' signals make
of it (notifications/hook_answers.py, notifications/arenas.py): preferences, blocks, the cap per
sender per hour, one row per news, the newest kept, and each kind from its real source."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from analysis.services import analysis_request, analysis_run
from friends.services import follow_add
from games import hooks as games_hooks
from games import services
from games.services.challenges import challenge_direct
from moderation import services as moderation
from notifications.arenas import arenas_starting_announce
from notifications.models import DEFAULT_KINDS, Kind, Notification
from notifications.services import kinds_set, notify, notify_many
from tests.analysis.conftest import finished_empty_match
from tests.factories import make_user
from tests.moderation.conftest import make_moderator
from tests.tournaments.conftest import arena
from tournaments.services.players import tournament_join

pytestmark = pytest.mark.django_db


def kinds_of(user) -> list[str]:
    return list(Notification.objects.filter(recipient=user).values_list("kind", flat=True))


def test_stored_kind_values_never_change():
    assert sorted(Kind.values) == sorted([
        "challenge", "friend_playing", "arena_starting", "correspondence_turn",
        "correspondence_deadline", "analysis_ready", "report_decided",
    ])  # fmt: skip
    assert Kind.FRIEND_PLAYING not in DEFAULT_KINDS  # opt-in


def test_the_recipients_choice_of_kinds_decides():
    ana = make_user("ana")
    assert notify(recipient_id=ana.pk, kind=Kind.FRIEND_PLAYING) is None  # off until chosen
    assert notify(recipient_id=ana.pk, kind=Kind.ANALYSIS_READY) is not None
    kinds_set(user_id=ana.pk, kinds=[Kind.FRIEND_PLAYING])
    assert notify(recipient_id=ana.pk, kind=Kind.FRIEND_PLAYING) is not None
    assert notify(recipient_id=ana.pk, kind=Kind.ANALYSIS_READY) is None
    with pytest.raises(ValueError):
        kinds_set(user_id=ana.pk, kinds=["spam"])
    with pytest.raises(ValueError):
        notify(recipient_id=ana.pk, kind="spam")


def test_nobody_notifies_themselves_nor_across_a_block():
    ana, bogdan = make_user("ana"), make_user("bogdan")
    assert notify(recipient_id=ana.pk, kind=Kind.CHALLENGE, sender_id=ana.pk) is None
    moderation.block_add(user=ana, target=bogdan)
    assert notify(recipient_id=ana.pk, kind=Kind.CHALLENGE, sender_id=bogdan.pk) is None
    assert notify(recipient_id=bogdan.pk, kind=Kind.CHALLENGE, sender_id=ana.pk) is None
    assert not Notification.objects.exists()


def test_a_sender_rings_a_bell_at_most_the_cap_an_hour(settings):
    settings.NOTIFICATIONS_PER_SENDER_PER_HOUR = 3
    ana, flooder, other = make_user("ana"), make_user("flooder"), make_user("other")
    kept = [notify(recipient_id=ana.pk, kind=Kind.CHALLENGE, sender_id=flooder.pk)
            for _ in range(10)]  # fmt: skip
    assert sum(row is not None for row in kept) == 3
    # Another sender, or another recipient of the same sender, is counted apart.
    assert notify(recipient_id=ana.pk, kind=Kind.CHALLENGE, sender_id=other.pk) is not None
    assert notify(recipient_id=other.pk, kind=Kind.CHALLENGE, sender_id=flooder.pk) is not None
    assert Notification.objects.filter(recipient=ana).count() == 4


def test_the_same_news_is_one_row_and_the_newest_are_kept(settings):
    settings.NOTIFICATIONS_KEPT = 5
    ana, bogdan = make_user("ana"), make_user("bogdan")
    assert len(notify_many(recipient_ids=[ana.pk, bogdan.pk], kind=Kind.ARENA_STARTING,
                           dedupe_key="arena:1")) == 2  # fmt: skip
    assert notify_many(recipient_ids=[ana.pk, bogdan.pk], kind=Kind.ARENA_STARTING,
                       dedupe_key="arena:1") == []  # fmt: skip
    for number in range(7):
        notify(recipient_id=ana.pk, kind=Kind.ANALYSIS_READY, payload={"n": number})
    kept = list(Notification.objects.filter(recipient=ana).order_by("id"))
    assert [row.payload.get("n") for row in kept] == [2, 3, 4, 5, 6]
    assert Notification.objects.filter(recipient=bogdan).count() == 1


def test_a_direct_challenge_is_kept_in_the_bell_with_its_buttons(
    django_capture_on_commit_callbacks,
):
    ana, bogdan = make_user("ana"), make_user("bogdan")
    with django_capture_on_commit_callbacks(execute=True):
        match = challenge_direct(creator=ana, invited=bogdan, turn_seconds=60)
    (row,) = Notification.objects.filter(recipient=bogdan)
    assert (row.kind, row.sender_id, row.payload["match_id"]) == (Kind.CHALLENGE, ana.pk, match.pk)
    assert row.payload["accept_url"] == f"/matches/{match.pk}/accept/"


def test_followers_who_chose_it_hear_a_friend_started_playing(
    fixed_dice, django_capture_on_commit_callbacks
):
    player, opponent = make_user("player"), make_user("opponent")
    keen, quiet = make_user("keen"), make_user("quiet")
    for follower in (keen, quiet):
        follow_add(user=follower, target=player)
    kinds_set(user_id=keen.pk, kinds=DEFAULT_KINDS | {Kind.FRIEND_PLAYING})
    match = services.match_create(creator=player)
    fixed_dice(6, 2)
    with django_capture_on_commit_callbacks(execute=True):
        services.match_accept(user=opponent, match_id=match.pk)
    (row,) = Notification.objects.filter(kind=Kind.FRIEND_PLAYING)
    assert (row.recipient_id, row.sender_id) == (keen.pk, player.pk)
    assert row.payload == {"match_id": match.pk, "player": "player"}


def test_the_requester_hears_their_analysis_is_ready(django_capture_on_commit_callbacks):
    ana, bogdan = make_user("ana"), make_user("bogdan")
    match = finished_empty_match(ana, bogdan)
    with django_capture_on_commit_callbacks(execute=True):
        analysis_request(user=ana, match_id=match.pk)
    with django_capture_on_commit_callbacks(execute=True):
        analysis_run(match_id=match.pk)
    assert kinds_of(ana) == [Kind.ANALYSIS_READY] and kinds_of(bogdan) == []
    assert Notification.objects.get(recipient=ana).payload["url"] == f"/matches/{match.pk}/replay/"


@pytest.mark.parametrize("decision", ["closed", "warned"])
def test_the_reporter_hears_of_the_decision_never_its_words(
    decision, django_capture_on_commit_callbacks
):
    reporter, target, moderator = make_user("reporter"), make_user("target"), make_moderator()
    report = moderation.report_create(reporter=reporter, target=target, reason="other")
    with django_capture_on_commit_callbacks(execute=True):
        if decision == "closed":
            moderation.report_close(moderator=moderator, report_id=report.pk,
                                    resolution="secret words")  # fmt: skip
        else:
            moderation.user_warn(moderator=moderator, user=target, reason="secret words",
                                 report_id=report.pk)  # fmt: skip
    (row,) = Notification.objects.filter(recipient=reporter)
    assert row.payload == {"player": "target", "acted": decision == "warned"}
    assert "secret" not in str(row.payload)
    assert kinds_of(target) == []


def test_an_arenas_players_hear_a_minute_before_its_start_once():
    joined, withdrawn, outsider = make_user("joined"), make_user("withdrawn"), make_user("out")
    tournament = arena(running=False)
    for user in (joined, withdrawn):
        tournament_join(user=user, tournament_id=tournament.pk)
    tournament.players.filter(user=withdrawn).update(withdrawn=True)
    assert arenas_starting_announce() == 0  # an hour to go
    tournament.starts_at = timezone.now() + timedelta(seconds=50)
    tournament.save(update_fields=["starts_at"])
    assert arenas_starting_announce() == 1
    assert arenas_starting_announce() == 0  # the next sweep tells nobody again
    assert kinds_of(joined) == [Kind.ARENA_STARTING]
    assert kinds_of(withdrawn) == kinds_of(outsider) == []


def test_the_notifications_page_clears_only_ones_own_and_the_kinds_are_chosen(client):
    ana, bogdan = make_user("ana"), make_user("bogdan")
    mine = notify(recipient_id=ana.pk, kind=Kind.ANALYSIS_READY, payload={"url": "/x/"})
    theirs = notify(recipient_id=bogdan.pk, kind=Kind.ANALYSIS_READY, payload={"url": "/x/"})
    client.force_login(ana)
    assert b"The analysis of your match is ready" in client.get("/notifications/").content
    client.post("/notifications/clear/", {"id": str(theirs.pk)})
    assert Notification.objects.filter(pk=theirs.pk).exists()
    for hostile in ("-1", "1e9", "x", "9" * 40, " 1"):
        assert client.post("/notifications/read/", {"id": hostile}).status_code == 400
    client.post("/notifications/read/", {"id": str(mine.pk)})
    mine.refresh_from_db()
    assert mine.read_at is not None
    client.post("/notifications/clear/")
    assert not Notification.objects.filter(recipient=ana).exists()
    assert Notification.objects.filter(pk=theirs.pk).exists()
    client.post("/notifications/kinds/", {"kinds": [Kind.FRIEND_PLAYING]})
    assert notify(recipient_id=ana.pk, kind=Kind.ANALYSIS_READY) is None
    client.post("/notifications/kinds/", {"kinds": ["spam"]})  # refused: the choice stands
    assert notify(recipient_id=ana.pk, kind=Kind.FRIEND_PLAYING) is not None
    page = client.get("/settings/")
    assert b'id="notification-choices"' in page.content
    assert b'value="friend_playing"' in page.content


def test_a_correspondence_turn_rings_the_bell_once_per_turn(
    fixed_dice, django_capture_on_commit_callbacks
):
    creator, opponent = make_user("corr_creator"), make_user("corr_opponent")
    match = services.match_create(creator=creator, time_control="correspondence", move_days=2,
                                  turn_seconds=None)  # fmt: skip
    fixed_dice(6, 2)
    with django_capture_on_commit_callbacks(execute=True):
        services.match_accept(user=opponent, match_id=match.pk, token=match.invite_token)
    (row,) = Notification.objects.filter(recipient=creator, kind=Kind.CORRESPONDENCE_TURN)
    assert (row.sender_id, row.payload["match_id"], row.payload["opponent"]) == (
        opponent.pk, match.pk, "corr_opponent"
    )  # fmt: skip
    # The same news again is one row; a day before the deadline, the second kind.

    deadline = timezone.datetime.fromisoformat(row.payload["deadline"])
    games_hooks.announce_correspondence(
        games_hooks.correspondence_turn_due, "correspondence_turn_due",
        user_id=creator.pk, match_id=match.pk, deadline=deadline,
    )  # fmt: skip
    games_hooks.announce_correspondence(
        games_hooks.correspondence_deadline_near, "correspondence_deadline_near",
        user_id=creator.pk, match_id=match.pk, deadline=deadline,
    )  # fmt: skip
    assert sorted(kinds_of(creator)) == [Kind.CORRESPONDENCE_DEADLINE, Kind.CORRESPONDENCE_TURN]
