"""The profile's counts (ratings/counts.py) stay equal to counting every match again, as the
profile did on each view before: after wins, losses, timeouts, aborts (not counted),
annulments, a guest's sign-up, and matches ending at once."""

from __future__ import annotations

import datetime
import re
import secrets
from collections import Counter

import pytest
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Game, Match
from moderation import services as moderation
from ratings.counts import record_count_match, record_revert_match
from ratings.models import CountedMatch, HeadToHead, RecordCount
from ratings.services import rating_apply_match, rating_revert_match
from tests.factories import PASSWORD, make_user
from tests.games.timing import expire_in
from tests.moderation.conftest import active_match, make_moderator
from tests.ratings.conftest import finished_match
from tests.threads import run_together

FIGURES = ("played", "won", "timeouts", "abandoned", "mars_given", "mars_taken")


def recount(player) -> dict[str, dict[str, int]]:
    """The record counted again from the rows: finished matches, annulled ones left out."""
    figures: dict[str, Counter] = {}
    finished = Match.objects.filter(
        Q(creator=player) | Q(opponent=player), status="finished", annulled_at__isnull=True
    )
    for match in finished:
        seat = match.seat_of(player.pk)
        won = match.winner_id == player.pk
        row = figures.setdefault(match.rule_set_name, Counter(dict.fromkeys(FIGURES, 0)))
        row["played"] += 1
        row["won"] += won
        row["timeouts"] += match.timeouts(seat)
        row["abandoned"] += not won and match.end_reason == "abandoned"
        for game in Game.objects.filter(match=match, result="mars"):
            winner = game.seat_of_side(game.winner_side)
            row["mars_given" if winner == seat else "mars_taken"] += 1
    return {name: dict(row) for name, row in figures.items()}


def counted(player) -> dict[str, dict[str, int]]:
    rows = RecordCount.objects.filter(user=player, played__gt=0)
    return {row.rule_set_name: {name: getattr(row, name) for name in FIGURES} for row in rows}


def head_to_head_recount() -> dict[tuple[int, int], int]:
    wins: Counter = Counter()
    for match in Match.objects.filter(status="finished", annulled_at__isnull=True):
        loser = match.opponent_id if match.winner_id == match.creator_id else match.creator_id
        wins[(match.winner_id, loser)] += 1
    return dict(wins)


def head_to_head_counted() -> dict[tuple[int, int], int]:
    rows = HeadToHead.objects.filter(wins__gt=0).values_list("winner_id", "loser_id", "wins")
    return {(winner, loser): wins for winner, loser, wins in rows}


def assert_counts_match(*players) -> None:
    for player in players:
        assert counted(player) == recount(player), player.username
    assert head_to_head_counted() == head_to_head_recount()


def figure(html: str, name: str) -> int:
    return int(re.search(rf'id="{name}">(\d+)<', html).group(1))


@pytest.mark.django_db
def test_counts_follow_wins_losses_timeouts_aborts_and_an_annulment(
    fixed_dice, client, django_capture_on_commit_callbacks
):
    anna, boris = make_user("rec_anna"), make_user("rec_boris")
    won = active_match(fixed_dice, anna, boris, turn_seconds=60, rated=True)
    services.match_resign(user=boris, match_id=won.pk)
    lost = active_match(fixed_dice, boris, anna, turn_seconds=60, rule_set_name="tournament")
    services.match_resign(user=anna, match_id=lost.pk)
    aborted = active_match(fixed_dice, anna, boris, turn_seconds=60)
    services.match_abort(user=boris, match_id=aborted.pk)
    timed_out = active_match(fixed_dice, anna, boris, turn_seconds=60)
    game = expire_in(timed_out, -0.1, schedule=False)  # anna (White, to roll) runs out of time
    fixed_dice(2, 1)
    services.game_deadline_enforce(match_id=timed_out.pk, game_id=game.pk, turn_number=1)
    services.match_resign(user=anna, match_id=timed_out.pk)
    assert Match.objects.get(pk=aborted.pk).status == "aborted"
    assert Match.objects.get(pk=timed_out.pk).timeouts_creator == 1
    assert_counts_match(anna, boris)
    assert counted(anna) == {
        "traditional": {"played": 2, "won": 1, "timeouts": 1, "abandoned": 0,
                        "mars_given": 0, "mars_taken": 0},
        "tournament": {"played": 1, "won": 0, "timeouts": 0, "abandoned": 0,
                       "mars_given": 0, "mars_taken": 0},
    }  # fmt: skip
    html = client.get(reverse("profile", args=[anna.username])).content.decode()
    assert (figure(html, "matches-won"), figure(html, "matches-lost")) == (1, 2)
    assert figure(html, "timeouts") == 1

    with django_capture_on_commit_callbacks(execute=True):
        moderation.match_annul(moderator=make_moderator(), match_id=won.pk, reason="collusion")
    assert_counts_match(anna, boris)
    assert counted(anna)["traditional"]["won"] == 0
    html = client.get(reverse("profile", args=[anna.username])).content.decode()
    assert (figure(html, "matches-won"), figure(html, "matches-lost")) == (0, 2)
    # Taking it out again, or counting it again, changes nothing.
    before = (counted(anna), counted(boris), head_to_head_counted())
    assert rating_revert_match(match_id=won.pk) == 0
    assert record_revert_match(match_id=won.pk) is False
    assert record_count_match(match=Match.objects.get(pk=won.pk)) is False
    assert (counted(anna), counted(boris), head_to_head_counted()) == before


@pytest.mark.django_db
def test_a_guest_who_signs_up_keeps_the_counts(client, fixed_dice):
    client.post(reverse("play_now"), REMOTE_ADDR=f"2001:db8::{secrets.token_hex(2)}:1")
    guest = User.objects.get(is_guest=True)
    match = services.match_create_vs_bot(user=guest, level="beginner")
    services.match_resign(user=guest, match_id=match.pk)
    bot = Match.objects.get(pk=match.pk).opponent
    name, email = f"olga{secrets.token_hex(3)}", f"olga{secrets.token_hex(3)}@example.com"
    client.post(
        reverse("account_signup"),
        {"username": name, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )
    guest.refresh_from_db()
    assert guest.username == name and not guest.is_guest
    assert_counts_match(guest, bot)
    assert counted(guest)["traditional"]["played"] == 1
    html = client.get(reverse("profile", args=[name])).content.decode()
    assert (figure(html, "matches-won"), figure(html, "matches-lost")) == (0, 1)
    html = client.get(reverse("profile", args=[bot.username])).content.decode()
    assert figure(html, "matches-won") == counted(bot)["traditional"]["won"] >= 1


@pytest.mark.django_db
def test_mars_abandoned_and_head_to_head_are_counted_from_the_games(client):
    anna, boris = make_user("mars_anna"), make_user("mars_boris")
    match = finished_match(anna, boris, counted=False, end_reason="abandoned")
    for number, (white_seat, winner_side, result) in enumerate(
        [(0, "w", "mars"), (1, "w", "mars"), (1, "b", "mars"), (0, "b", "oin")], start=1
    ):
        Game.objects.create(
            match=match, number=number, white_seat=white_seat, start_board=[0] * 24,
            board=[0] * 24, turn_board=[0] * 24, turn="w", phase="over",
            turn_started_at=timezone.now(), result=result, winner_side=winner_side,
        )  # fmt: skip
    assert record_count_match(match=match) is True
    assert record_count_match(match=match) is False
    # anna (seat 0) won the mars games where seat 0 won: White in game 1, Black in game 3.
    assert counted(anna)["traditional"] == {
        "played": 1, "won": 1, "timeouts": 0, "abandoned": 0, "mars_given": 2, "mars_taken": 1,
    }  # fmt: skip
    assert counted(boris)["traditional"]["abandoned"] == 1
    assert_counts_match(anna, boris)
    client.force_login(boris)
    html = client.get(reverse("profile", args=[anna.username])).content.decode()
    assert re.search(r'id="head-to-head">[^<]*mars_anna won 1, you won 0', html)


@pytest.mark.django_db(transaction=True)
def test_matches_ending_and_annulled_at_once_are_each_counted_once():
    anna, boris = make_user("race_anna"), make_user("race_boris")
    annulled = finished_match(anna, boris)
    rating_apply_match(match=annulled, winner_id=anna.pk, loser_id=boris.pk)
    Match.objects.filter(pk=annulled.pk).update(annulled_at=timezone.now())
    ending = [finished_match(anna, boris, counted=False) for _ in range(2)]
    ending.append(finished_match(boris, anna, counted=False))
    errors = []

    def guarded(work):
        def run():
            try:
                work()
            except Exception as error:  # noqa: BLE001 - reported below
                errors.append(error)

        return run

    def end(match):
        def work():
            with transaction.atomic():  # as a match's end: ratings, then the records
                rating_apply_match(
                    match=match,
                    winner_id=match.winner_id,
                    loser_id=match.creator_id + match.opponent_id - match.winner_id,
                )
                record_count_match(match=match)  # fmt: skip

        return work

    run_together(
        *[guarded(end(match)) for match in ending],
        guarded(end(ending[0])),  # the same end twice
        guarded(lambda: rating_revert_match(match_id=annulled.pk)),
        guarded(lambda: rating_revert_match(match_id=annulled.pk)),
    )
    assert errors == []
    assert CountedMatch.objects.filter(reverted_at__isnull=True).count() == 3
    assert_counts_match(anna, boris)
    assert counted(anna)["traditional"]["played"] == 3


@pytest.mark.django_db(transaction=True)
@pytest.mark.migrations  # unapplies and reapplies migrations: make test-all only
def test_the_migration_fills_the_counts_and_numbers_the_history():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    before = [node for node in leaves if node[0] != "ratings"]
    before.append(("ratings", "0005_board_keyset_indexes"))
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    OldUser, OldMatch = old.get_model("accounts", "User"), old.get_model("games", "Match")
    OldGame = old.get_model("games", "Game")
    OldChange = old.get_model("ratings", "RatingChange")
    anna = OldUser.objects.create(username="mig_anna", email="ma@example.com")
    boris = OldUser.objects.create(username="mig_boris", email="mb@example.com")
    for player in (anna, boris):
        old.get_model("ratings", "Rating").objects.create(user=player)
    now = timezone.now()
    plan = [  # (winner, status, annulled, end reason, timeouts of the creator)
        (anna, "finished", False, "resigned", 2), (boris, "finished", False, "abandoned", 0),
        (anna, "finished", True, "resigned", 0), (None, "aborted", False, "aborted", 0),
        (anna, "finished", False, "finished", 1),
    ]  # fmt: skip
    for index, (winner, status, annulled, reason, timeouts) in enumerate(plan):
        match = OldMatch.objects.create(
            creator=anna, opponent=boris, six_block="end_of_turn", head_exception="classic",
            opening="reroll", undo_allowed=True, length=1, turn_seconds=60, rated=True,
            status=status, winner=winner, end_reason=reason, timeouts_creator=timeouts,
            finished_at=now, annulled_at=now if annulled else None,
        )  # fmt: skip
        OldGame.objects.create(
            match=match, number=1, white_seat=0, start_board=[0] * 24, board=[0] * 24,
            turn_board=[0] * 24, turn="w", phase="over", turn_started_at=now,
            result="mars", winner_side="w" if winner == anna else "b",
        )  # fmt: skip
        if winner is not None:
            for player in (anna, boris):
                OldChange.objects.create(
                    user=player, match=match, before=1500, after=1500, delta=0, length=1,
                    won=player == winner, created_at=now - datetime.timedelta(minutes=10 - index),
                )  # fmt: skip

    executor = MigrationExecutor(connection)
    executor.migrate(leaves)

    from ratings.models import Rating, RatingChange

    anna, boris = User.objects.get(pk=anna.pk), User.objects.get(pk=boris.pk)
    assert_counts_match(anna, boris)
    assert counted(anna)["traditional"] == {
        "played": 3, "won": 2, "timeouts": 3, "abandoned": 1, "mars_given": 2, "mars_taken": 1,
    }  # fmt: skip
    assert counted(boris)["traditional"]["abandoned"] == 0  # boris won the abandoned one
    numbers = list(RatingChange.objects.filter(user=anna).order_by("created_at")
                   .values_list("number", flat=True))  # fmt: skip
    assert numbers == [1, 2, 3, 4]
    assert Rating.objects.get(user=anna).history_length == 4
