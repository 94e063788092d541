"""One match at a time per player (games/services/starts.py): every way a match starts — an
accepted challenge, a pool pairing, a rematch, a match against the computer — ends the players'
other open challenges, and nobody starts a second match while playing one, also from two tabs at
once. Real PostgreSQL rows and threads; the pool waits' side is tests/pairing/test_hooks.py."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import transaction
from django.utils import translation

from games import services
from games.effects import AfterCommit
from games.fairness import new_client_seed, new_server_seed, roll_pair
from games.models import Match, MatchStatus
from games.services import CommandError
from games.services.bots import bot_act
from games.services.challenges import challenge_direct
from games.services.starts import NewMatch, matches_start_many
from games.services.state_rows import row_values
from nardy import rule_set
from pairing import services as pairing
from pairing.pools import Pool
from tests.factories import make_user
from tests.threads import run_together

pytestmark = pytest.mark.django_db(transaction=True)

CASUAL_POOL = Pool("traditional", 1, 60, False)


def live_matches_of(user) -> list[Match]:
    return list(
        Match.objects.filter(status=MatchStatus.ACTIVE).filter(creator=user)
        | Match.objects.filter(status=MatchStatus.ACTIVE, opponent=user)
    )


def accepting(player) -> Callable[[], object]:
    """Someone's open challenge; starting is the player accepting it."""
    challenge = services.match_create(creator=make_user(), rated=False)
    return lambda: services.match_accept(user=player, match_id=challenge.pk)


def pool_pairing(player) -> Callable[[], object]:
    """Starting is the player and a partner joining a pool: they are paired at once."""

    def start() -> None:
        pairing.pool_join(user=player, pool=CASUAL_POOL)
        pairing.pool_join(user=make_user(), pool=CASUAL_POOL)

    return start


def rematch(player) -> Callable[[], object]:
    """A finished match whose opponent offers a rematch; starting is the player accepting."""
    other = make_user()
    first = services.match_create(creator=other, rated=False, private=True)
    services.match_accept(user=player, match_id=first.pk, token=first.invite_token)
    services.match_resign(user=other, match_id=first.pk)
    services.match_rematch_offer(user=other, match_id=first.pk)
    return lambda: services.match_rematch_offer(user=player, match_id=first.pk)


def against_the_computer(player) -> Callable[[], object]:
    return lambda: services.match_create_vs_bot(user=player, level="beginner")


def make_challenges(player) -> list[Match]:
    """An open challenge, an invite link and a direct challenge, all of `player`'s."""
    return [
        services.match_create(creator=player, rated=False),
        services.match_create(creator=player, rated=False, private=True),
        challenge_direct(creator=player, invited=make_user(), rated=False),
    ]


# Each prepares what the player needs, and returns the command that starts the match.
STARTS: dict[str, Callable[..., Callable[[], object]]] = {
    "accept": accepting,
    "pool": pool_pairing,
    "rematch": rematch,
    "computer": against_the_computer,
}


def start_by_accepting(player) -> None:
    accepting(player)()


@pytest.mark.parametrize("way", STARTS)
def test_starting_any_match_cancels_the_players_open_challenges(way):
    player = make_user("busy_player")
    start = STARTS[way](player)
    challenges = make_challenges(player)
    start()
    (playing,) = live_matches_of(player)
    for challenge in challenges:
        challenge.refresh_from_db()
        assert challenge.status == MatchStatus.CANCELLED, (way, challenge)
    # The public one can no longer give the player a second match.
    with pytest.raises(CommandError) as refused:
        services.match_accept(user=make_user(), match_id=challenges[0].pk)
    assert refused.value.code == "match_not_active"
    assert live_matches_of(player) == [playing]


def test_an_open_challenge_does_not_survive_a_pool_pairing():
    """The reported case: a player with an open challenge is paired from a pool; someone then
    accepts the challenge. Before the fix the player had two matches at once."""
    ana, bogdan, cezar = make_user("ana"), make_user("bogdan"), make_user("cezar")
    challenge = services.match_create(creator=ana, rated=False)
    pairing.pool_join(user=ana, pool=CASUAL_POOL)
    pairing.pool_join(user=bogdan, pool=CASUAL_POOL)
    assert len(live_matches_of(ana)) == 1
    with pytest.raises(CommandError):
        services.match_accept(user=cezar, match_id=challenge.pk)
    assert len(live_matches_of(ana)) == 1 and live_matches_of(cezar) == []


@pytest.mark.parametrize("way", STARTS)
def test_a_player_in_a_match_starts_no_second_one(way):
    player = make_user("playing_already")
    start = STARTS[way](player)
    start_by_accepting(player)
    (playing,) = live_matches_of(player)
    with pytest.raises(CommandError) as refused:
        start()
    assert refused.value.code == "in_a_match"
    assert live_matches_of(player) == [playing]


def test_a_challenge_made_while_playing_waits_for_the_creators_match_to_end():
    """A player may post a challenge during a match (for the next one); nobody can accept it
    while the creator plays, and the refusal says why."""
    ana, bogdan = make_user("ana"), make_user("bogdan")
    start_by_accepting(ana)
    challenge = services.match_create(creator=ana, rated=False)
    with pytest.raises(CommandError) as refused, translation.override("en"):
        services.match_accept(user=bogdan, match_id=challenge.pk)
    assert refused.value.code == "in_a_match"
    assert refused.value.message == "Your opponent is playing another match now."
    challenge.refresh_from_db()
    assert challenge.status == MatchStatus.OPEN and challenge.opponent_id is None
    (playing,) = live_matches_of(ana)
    services.match_resign(user=ana, match_id=playing.pk)
    services.match_accept(user=bogdan, match_id=challenge.pk)
    assert live_matches_of(ana) == live_matches_of(bogdan) == [Match.objects.get(pk=challenge.pk)]


def outcomes(*commands: Callable[[], object]) -> list[object]:
    """Run the commands from threads at once; each result is a Match or a refusal's code."""
    results: list[object] = []

    def run(command: Callable[[], object]) -> Callable[[], None]:
        def call() -> None:
            try:
                results.append(command())
            except CommandError as refused:
                results.append(refused.code)

        return call

    run_together(*(run(command) for command in commands))
    return results


@pytest.mark.parametrize("trial", range(3))
def test_two_tabs_accepting_two_challenges_at_once_get_one_match(trial):
    player = make_user(f"two_tabs_{trial}")
    challenges = [
        services.match_create(creator=make_user(), rated=False),
        services.match_create(creator=make_user(), rated=False),
        services.match_create(creator=make_user(), rated=False),
    ]
    results = outcomes(
        *(
            (lambda pk=challenge.pk: services.match_accept(user=player, match_id=pk))
            for challenge in challenges
        )
    )
    assert results.count("in_a_match") == 2, results
    assert len(live_matches_of(player)) == 1


@pytest.mark.parametrize("trial", range(3))
def test_accepting_while_ones_own_challenge_is_accepted_gives_one_match(trial):
    player = make_user(f"both_ways_{trial}")
    mine = services.match_create(creator=player, rated=False)
    theirs = services.match_create(creator=make_user(), rated=False)
    taker = make_user()
    results = outcomes(
        lambda: services.match_accept(user=taker, match_id=mine.pk),
        lambda: services.match_accept(user=player, match_id=theirs.pk),
    )
    assert len(live_matches_of(player)) == 1, results
    assert sum(isinstance(result, Match) for result in results) == 1


@pytest.mark.parametrize("trial", range(3))
def test_a_pool_pairing_and_an_accept_at_once_give_one_match(trial):
    player, partner = make_user(f"pooled_{trial}"), make_user(f"partner_{trial}")
    challenge = services.match_create(creator=make_user(), rated=False)
    pairing.pool_join(user=player, pool=CASUAL_POOL)
    outcomes(
        lambda: pairing.pool_join(user=partner, pool=CASUAL_POOL),
        lambda: services.match_accept(user=player, match_id=challenge.pk),
    )
    assert len(live_matches_of(player)) == 1
    # The partner is paired with the player or still waits; never seated twice either.
    assert len(live_matches_of(partner)) <= 1


def test_the_computers_rematch_counts_too(fixed_dice):
    """A person's rematch offer to the computer is a start like any other."""
    person = make_user("rematcher")
    match = services.match_create_vs_bot(user=person, level="beginner")
    services.match_resign(user=person, match_id=match.pk)
    start_by_accepting(person)
    with pytest.raises(CommandError) as refused:
        services.match_rematch_offer(user=person, match_id=match.pk)
    assert refused.value.code == "in_a_match"
    match.refresh_from_db()
    assert match.rematch_id is None and match.rematch_offered_by is None
    bot_act(match_id=match.pk, version=match.version)  # the bot offers; accepting is refused
    with pytest.raises(CommandError):
        services.match_rematch_offer(user=person, match_id=match.pk)
    assert len(live_matches_of(person)) == 1


# --- Many matches at once (a tournament's pairing wave: starts.py `matches_start_many`) --------


def timed_casual(seats, index: int = 0) -> NewMatch:
    return NewMatch(
        seats=seats, rule_set_name="traditional", rules=rule_set("traditional", match_length=1),
        rated=False, turn_seconds=60, client_seeds=(new_client_seed(), new_client_seed()),
        server_seed=new_server_seed(),
    )  # fmt: skip


@pytest.mark.django_db(transaction=False)  # its after-commit work is captured, not done
def test_a_wave_begins_every_match_with_its_seeds_roll_and_deadline(
    django_capture_on_commit_callbacks,
):
    people = [make_user(f"wave_{index}") for index in range(24)]
    news = [timed_casual((people[i].pk, people[i + 1].pk)) for i in range(0, 24, 2)]
    with django_capture_on_commit_callbacks(execute=False) as callbacks, transaction.atomic():
        begun = matches_start_many(news)
    assert [(c.match.creator_id, c.match.opponent_id) for c in begun] == [n.seats for n in news]
    [effects] = [callback.effects for callback in callbacks if isinstance(callback, AfterCommit)]
    assert len(callbacks) == 2  # the one value, and one announcement for the whole wave
    assert effects.lobby_changed
    for new, context in zip(news, begun, strict=True):
        match = Match.objects.get(pk=context.match.pk)
        # What the context holds is what was written (the events were built from it).
        assert row_values(match) == row_values(context.match)
        assert match.status == MatchStatus.ACTIVE and match.started_at is not None
        assert (match.server_seed, match.client_seeds) == (new.server_seed, new.client_seeds)
        game = match.games.get()
        assert row_values(game) == row_values(context.game)
        ties = [tuple(tie) for tie in game.opening_ties]
        for number, tie in enumerate(ties, start=1):
            assert tie == roll_pair(new.server_seed, new.client_seeds, 1, number)
        opening = roll_pair(new.server_seed, new.client_seeds, 1, len(ties) + 1)
        assert (game.opening_white, game.opening_black) == (max(opening), min(opening))
        events = effects.events[match.pk]
        assert [event["version"] for event in events] == list(range(1, match.version + 1))
        assert (match.pk, match.started_at) in effects.began
        assert (match.pk, game.pk, game.turn_number, game.turn_deadline) in effects.deadlines
    assert len(effects.deadlines) == len(effects.began) == len(news)


def test_a_wave_leaves_out_only_the_match_of_a_player_who_is_playing():
    people = [make_user(f"left_out_{index}") for index in range(6)]
    start_by_accepting(people[2])  # the third player is in a match already
    (playing,) = live_matches_of(people[2])
    news = [timed_casual((people[i].pk, people[i + 1].pk)) for i in range(0, 6, 2)]
    with transaction.atomic():
        begun = matches_start_many(news)
    assert [(c.match.creator_id, c.match.opponent_id) for c in begun] == [
        news[0].seats,
        news[2].seats,
    ]
    assert live_matches_of(people[2]) == [playing] and live_matches_of(people[3]) == []
    for user in people[:2] + people[4:]:
        assert len(live_matches_of(user)) == 1


@pytest.mark.parametrize("trial", range(3))
def test_two_waves_sharing_players_at_once_never_seat_one_twice(trial):
    people = [make_user(f"waves_{trial}_{index}") for index in range(8)]
    ids = [person.pk for person in people]
    # Every player is in one pair of each wave, with another partner in each.
    first = [timed_casual((ids[i], ids[i + 1])) for i in range(0, 8, 2)]
    second = [timed_casual((ids[i], ids[(i + 3) % 8])) for i in range(0, 8, 2)]

    def wave(news):
        def start() -> None:
            with transaction.atomic():
                matches_start_many(news)

        return start

    run_together(wave(first), wave(second))
    for person in people:
        assert len(live_matches_of(person)) == 1, person
    assert Match.objects.filter(status=MatchStatus.ACTIVE).count() == 4
