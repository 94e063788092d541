from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import make_user
from tournaments.arena import PLAYED_TURNS
from tournaments.models import Pairing, Status, Tournament
from tournaments.services.players import tournament_join


def rated(username: str, rating: float = 1500, matches: int = 0):
    from ratings.models import Rating

    user = make_user(username)
    Rating.objects.create(user=user, rating=rating, peak=rating, matches=matches)
    return user


def arena(*, running: bool = True, minutes: int = 30, **fields) -> Tournament:
    """A tournament started a minute ago (or starting in an hour), 30 minutes long."""
    now = timezone.now()
    starts_at = now - timedelta(minutes=1) if running else now + timedelta(hours=1)
    fields.setdefault("name", "Evening arena")
    return Tournament.objects.create(
        starts_at=starts_at, ends_at=starts_at + timedelta(minutes=minutes), minutes=minutes,
        status=Status.RUNNING if running else Status.SCHEDULED,
        started_at=starts_at if running else None, **fields,
    )  # fmt: skip


def waiting_arena(users) -> Tournament:
    """An arena the users joined before its start, starting now: nobody is paired yet."""
    tournament = arena(running=False)
    for user in users:
        tournament_join(user=user, tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(
        status=Status.RUNNING, starts_at=timezone.now()
    )
    assert not Pairing.objects.exists()
    return tournament


def finished_tournament_match():
    """A tournament match its loser resigned: (its id, the winner)."""
    from games import services as game_services
    from tournaments.models import Player

    ana, bogdan = rated("seed_ana"), rated("seed_bogdan")
    tournament = arena()
    for user in (ana, bogdan):
        tournament_join(user=user, tournament_id=tournament.pk)
    match_id = Player.objects.get(user=ana).playing_id
    game_services.match_resign(user=bogdan, match_id=match_id)
    assert Pairing.objects.filter(match_id=match_id).exists()
    return match_id, ana


@pytest.fixture
def players():
    return [rated(f"arena{index}", 1500 + 10 * index) for index in range(4)]


@pytest.fixture(autouse=True)
def _clean_changed_set():
    """This run's set of changed tournaments (tournaments/live.py) starts and ends empty."""
    from config.redis_client import sync_client
    from tournaments import live

    client = sync_client()
    keys = lambda: [live._dirty_key(), *client.keys(f"{live._dirty_key()}:sent:*")]  # noqa: E731
    client.delete(*keys())
    yield
    client.delete(*keys())


def after_the_waits(tournament) -> int:
    """As if the wait between two players' meetings and the minute of the match rate had passed
    since every match so far began (docs/rules.md "Arena tournaments", item 2), then a wave."""
    from django.db.models import F

    from tournaments.arena import MEETING_WAIT, RATE_WINDOW
    from tournaments.models import ArenaPair
    from tournaments.services.pairing import tournament_pair

    ago = MEETING_WAIT + RATE_WINDOW
    ArenaPair.objects.update(last_started_at=F("last_started_at") - ago)
    Pairing.objects.update(created_at=F("created_at") - ago)
    return tournament_pair(tournament_id=tournament.pk)


def play_turns(match_id: int, turns: int = PLAYED_TURNS) -> None:
    """Both players of an active match play `turns` turns each through the services, as a page
    does: enough for an arena match to count (tournaments/arena.py PLAYED_TURNS)."""
    from games.models import Turn

    for _command in range(turns * 2 * 40):
        if Turn.objects.filter(game__match_id=match_id, by_server=False).count() >= 2 * turns:
            return
        assert advance(match_id), f"match {match_id} ended"
    raise AssertionError(f"{turns} turns each were not played in match {match_id}")


def advance(match_id: int, absent_id: int | None = None) -> bool:
    """One command of whoever is to move, as a page sends it: roll, then the first of the
    `legal_steps` until the turn passes (docs/protocol.md). When the mover is `absent_id`, their
    turn's time runs out instead and the server plays it, counting a timeout (games/services/
    clocks.py). False once the match is over."""
    from games import services as game_services
    from games.models import Match, MatchStatus
    from games.selectors import match_snapshot
    from nardy import Step
    from tests.games.timing import expire_in

    match = Match.objects.select_related("creator", "opponent").get(pk=match_id)
    if match.status != MatchStatus.ACTIVE:
        return False
    snapshot = match_snapshot(match_id)
    game, section = snapshot.state["game"], snapshot.state["match"]
    seat = next(p["seat"] for p in section["players"] if p["side"] == game["turn"])
    user, version = (match.creator, match.opponent)[seat], snapshot.version
    if user.pk == absent_id:
        game_row = expire_in(match, -0.1, schedule=False)
        game_services.game_deadline_enforce(
            match_id=match_id, game_id=game_row.pk, turn_number=game_row.turn_number
        )
    elif game["phase"] == "roll":
        game_services.game_roll(user=user, match_id=match_id, version=version)
    elif game["awaiting_confirm"]:
        game_services.game_turn_confirm(user=user, match_id=match_id, version=version)
    else:
        step = Step(*game["legal_steps"][0])
        game_services.game_step_play(user=user, match_id=match_id, version=version, step=step)
    return True
