"""A ban strikes the player out of the arenas not over (tournaments/hook_answers.py, through
moderation's `user_banned`), as a moderator's removal does: points shown struck out, never
ranked, no place on the podium or the profile; and a moderator's removal from a tournament that
finished within the week writes its places again (tournaments/services/moderation.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from games import services as game_services
from games.models import Match
from moderation.models import Sanction
from moderation.services import sanction_lift, user_ban
from realtime.errors import CommandError
from tests.factories import make_user
from tests.moderation.conftest import make_moderator
from tests.tournaments.conftest import after_the_waits, arena, play_turns, rated
from tournaments import selectors
from tournaments.models import ModerationEntry, Player, Status, Tournament
from tournaments.services.clock import tournament_finish
from tournaments.services.moderation import tournament_player_remove
from tournaments.services.players import tournament_join

pytestmark = pytest.mark.django_db(transaction=True)


def player(user) -> Player:
    return Player.objects.get(user=user)


def resign(loser) -> None:
    """After enough turns for the match to count (docs/rules.md "Arena tournaments", item 3)."""
    play_turns(player(loser).playing_id)
    game_services.match_resign(user=loser, match_id=player(loser).playing_id)


def leader_and_two(tournament):
    """`cheat` beats `second` twice (4 points) and is playing him again; `third` waits."""
    cheat, second, third = rated("cheat", 1600), rated("second", 1500), rated("third", 1400)
    for user in (cheat, second):
        tournament_join(user=user, tournament_id=tournament.pk)
    resign(second)
    after_the_waits(tournament)  # the two meet again (docs/rules.md "Arena tournaments", 2)
    resign(second)
    after_the_waits(tournament)
    play_turns(player(cheat).playing_id)  # played: the ban's loss counts for the opponent
    tournament_join(user=third, tournament_id=tournament.pk)
    assert player(cheat).points == 4 and player(cheat).playing_id
    return cheat, second, third


def finish(tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(ends_at=timezone.now())
    assert tournament_finish(tournament_id=tournament.pk)


def places(tournament) -> dict[str, int | None]:
    return {row.username: row.place for row in selectors.standings(tournament.pk)}


def podium(tournament) -> list[str]:
    return [row["user"] for row in selectors.podium(selectors.standings(tournament.pk))]


def test_a_ban_strikes_the_leader_out_of_a_running_arena():
    tournament = arena()
    cheat, second, third = leader_and_two(tournament)
    version = Tournament.objects.get(pk=tournament.pk).version
    user_ban(moderator=make_moderator(), user=cheat, reason="engine")
    banned = player(cheat)
    assert banned.removed and banned.points == 4  # kept, struck out
    assert Tournament.objects.get(pk=tournament.pk).version > version  # the page hears of it
    # Their match ended as their loss; the opponent is paired with the one free player, not
    # with the banned one again.
    assert player(second).points == 2
    assert banned.playing_id is None
    pairs = set(Match.objects.filter(tournament_pairing__tournament=tournament, status="active")
                .values_list("creator_id", "opponent_id"))  # fmt: skip
    assert pairs and all(cheat.pk not in pair for pair in pairs)
    assert places(tournament) == {"second": 1, "third": 2, "cheat": None}
    own = selectors.standings_page(selectors.standings(tournament.pk), page=1, user_id=cheat.pk)
    assert own["own"]["struck_out"] and own["me"]["removed"] and not own["me"]["joined"]
    finish(tournament)
    assert player(cheat).final_place is None
    assert podium(tournament) == ["second", "third"]
    history = selectors.history_of(cheat.pk)
    assert [(row["place"], row["struck_out"]) for row in history] == [(None, True)]
    assert selectors.history_of(second.pk)[0]["place"] == 1


def test_a_ban_before_the_start_strikes_out_and_a_lift_does_not_bring_back():
    tournament = arena(running=False)
    cheat = rated("early")
    tournament_join(user=cheat, tournament_id=tournament.pk)
    moderator = make_moderator()
    sanction = user_ban(moderator=moderator, user=cheat, reason="spam")
    assert player(cheat).removed
    sanction_lift(moderator=make_moderator("other_mod"), sanction_id=sanction.pk, reason="ok")
    with pytest.raises(CommandError) as refused:
        tournament_join(user=cheat, tournament_id=tournament.pk)
    assert refused.value.code == "removed"


def test_a_ban_leaves_finished_and_cancelled_tournaments_as_they_are():
    done, cancelled = arena(), arena()
    cheat, *_others = leader_and_two(done)
    resign(cheat)  # cheat 4 points, second 2
    finish(done)
    tournament_join(user=cheat, tournament_id=cancelled.pk)  # busy: joined, not paired
    Tournament.objects.filter(pk=cancelled.pk).update(status=Status.CANCELLED)
    user_ban(moderator=make_moderator(), user=cheat, reason="late")
    rows = dict(Player.objects.filter(user=cheat).values_list("tournament_id", "removed"))
    assert rows == {done.pk: False, cancelled.pk: False}
    assert player_in(done, cheat).final_place == 1  # until a moderator re-places it


def player_in(tournament, user) -> Player:
    return Player.objects.get(tournament=tournament, user=user)


def test_a_moderator_re_places_a_recently_finished_arena():
    tournament = arena()
    cheat, second, third = leader_and_two(tournament)
    resign(cheat)
    finish(tournament)
    assert podium(tournament)[0] == "cheat" and player(cheat).final_place == 1
    moderator = make_moderator()
    user_ban(moderator=moderator, user=cheat, reason="engine, found after the end")
    tournament_player_remove(moderator=moderator, tournament_id=tournament.pk, user_id=cheat.pk,
                             reason="engine")  # fmt: skip
    assert player(cheat).final_place is None and player(second).final_place == 1
    assert podium(tournament)[0] == "second"
    assert selectors.history_of(cheat.pk)[0]["place"] is None
    assert selectors.history_of(second.pk)[0]["place"] == 1
    entry = ModerationEntry.objects.get()
    assert (entry.action, entry.target_user_id, entry.moderator_id) == ("remove", cheat.pk,
                                                                         moderator.pk)  # fmt: skip


@pytest.mark.parametrize("case", ["a week ago", "twice", "no reason", "own case", "not staff",
                                  "not joined", "sanctioned moderator"])  # fmt: skip
def test_each_bad_re_placing_is_refused_and_changes_nothing(case):
    tournament = arena()
    cheat, second, _third = leader_and_two(tournament)
    resign(cheat)
    finish(tournament)
    moderator = make_moderator()
    target, reason, refused_with = cheat.pk, "engine", CommandError
    if case == "a week ago":
        Tournament.objects.filter(pk=tournament.pk).update(
            finished_at=timezone.now() - timedelta(days=7, minutes=1)
        )
    elif case == "twice":
        tournament_player_remove(moderator=moderator, tournament_id=tournament.pk,
                                 user_id=cheat.pk, reason="once")  # fmt: skip
    elif case == "no reason":
        reason = "   "
    elif case == "own case":
        Player.objects.create(tournament=tournament, user=moderator, points=40)
        target = moderator.pk
    elif case == "not staff":
        moderator, refused_with = second, PermissionDenied
    elif case == "not joined":
        target = make_user("outsider").pk
    elif case == "sanctioned moderator":
        Sanction.objects.create(user=moderator, kind="ban", reason="x",
                                created_by=make_user("boss"))  # fmt: skip
        refused_with = PermissionDenied
    before = list(Player.objects.order_by("pk").values_list("removed", "final_place"))
    entries = ModerationEntry.objects.count()
    with pytest.raises(refused_with):
        tournament_player_remove(moderator=moderator, tournament_id=tournament.pk,
                                 user_id=target, reason=reason)  # fmt: skip
    assert list(Player.objects.order_by("pk").values_list("removed", "final_place")) == before
    assert ModerationEntry.objects.count() == entries
