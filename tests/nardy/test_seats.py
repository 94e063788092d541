"""The match's seats and seeds in the engine (nardy/match/seats.py): taking seat 1 with the
pure eligibility checks, the creator's client seed, the rematch, the claim window as data
(docs/protocol.md `accept`, `client_seed`, `rematch`, `rematch_decline`, `claim`)."""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy import legal_next_steps, rule_set
from nardy import match as engine
from nardy.match import (
    Candidate,
    Challenge,
    ClientSeedSet,
    MatchRuleError,
    MatchState,
    Rematch,
    RematchAccepted,
    RematchDeclined,
    RematchOffered,
    RematchTerms,
    Seated,
    Started,
)

from .test_match import MATCH_SETTINGS, random_pairs

T0 = datetime(2026, 1, 1, tzinfo=UTC)
CREATOR, GUEST, OTHER = 7, 8, 9


def dice(game: int, roll: int) -> tuple[int, int]:
    return (6, 1) if roll == 1 else (3, 2)


def open_state(**challenge: object) -> MatchState:
    return MatchState(
        rules=rule_set("traditional"), turn_seconds=60, players=(CREATOR, None),
        client_seeds=("creator-seed", ""), challenge=Challenge(**challenge),  # type: ignore[arg-type]
    )  # fmt: skip


def candidate(**changes: object) -> Candidate:
    return dataclasses.replace(
        Candidate(user=GUEST, rating=1500, client_seed="guest-seed"), **changes
    )  # type: ignore[arg-type]


def begun(state: MatchState | None = None) -> MatchState:
    """An open challenge accepted and begun."""
    seated, _ = engine.accept(state or open_state(), candidate=candidate(), now=T0)
    started, _ = engine.begin(seated, dice=dice, now=T0)
    return started


def finished_state() -> MatchState:
    over, _ = engine.resign(begun(), seat=1, now=T0 + timedelta(seconds=5))
    return over


# --- Taking seat 1 -------------------------------------------------------------------------------


def test_accept_seats_the_player_with_their_seed_and_begin_starts_game_one() -> None:
    seated, events = engine.accept(open_state(), candidate=candidate(), now=T0)
    assert events == [Seated(player=GUEST, client_seed="guest-seed")]
    assert seated.players == (CREATOR, GUEST) and seated.status == "open"
    assert seated.client_seeds == ("creator-seed", "guest-seed")
    state, more = engine.begin(seated, dice=dice, now=T0)
    assert isinstance(more[0], Started)
    assert state.status == "active" and state.started_at == T0
    assert engine.replay(open_state(), events + more) == state


LATER = T0 + timedelta(minutes=2)


OUTSIDE = "your rating is outside the range asked for"
LINK = "this invitation link is not valid"


@pytest.mark.parametrize(
    ("challenge", "who", "now", "code", "reason"),
    [
        ({"invited": OTHER}, {}, T0, "not_invited", "this challenge is for another player"),
        ({"invite_token": "a"}, {"token": "b"}, T0, "not_found", LINK),
        ({"invite_token": "a"}, {}, T0, "not_found", LINK),
        ({"expires_at": LATER}, {}, LATER, "match_not_active", "this challenge has expired"),
        ({}, {"user": CREATOR}, T0, "not_a_player", "you cannot accept your own challenge"),
        ({}, {"active": False}, T0, "not_a_player", "this account is not active"),
        ({"rated": True}, {"may_play_rated": False}, T0, "guest_not_rated",
         "guests play casual games only"),
        ({"min_rating": 1501}, {}, T0, "outside_range", OUTSIDE),
        ({"max_rating": 1499}, {}, T0, "outside_range", OUTSIDE),
        ({"min_rating": 1600, "max_rating": 1200}, {}, T0, "outside_range", OUTSIDE),
    ],
)  # fmt: skip
def test_accept_refuses_with_the_protocols_code(challenge, who, now, code, reason) -> None:
    state = open_state(**challenge)
    with pytest.raises(MatchRuleError) as refused:
        engine.accept(state, candidate=candidate(**who), now=now)
    assert (refused.value.code, str(refused.value)) == (code, reason)


@pytest.mark.parametrize(
    ("challenge", "who"),
    [
        ({"invited": GUEST, "invite_token": None}, {}),
        ({"invite_token": "abc"}, {"token": "abc"}),
        ({"expires_at": LATER}, {}),
        ({"rated": True}, {}),
        ({"min_rating": 1500, "max_rating": 1500}, {}),
    ],
)
def test_accept_lets_in_who_the_challenge_asks_for(challenge, who) -> None:
    state, _ = engine.accept(open_state(**challenge), candidate=candidate(**who), now=T0)
    assert state.players == (CREATOR, GUEST)


def test_accept_is_refused_once_the_seat_is_taken_or_the_challenge_gone() -> None:
    cancelled, _ = engine.cancel(open_state(), now=T0)
    for state in (begun(), cancelled):
        with pytest.raises(MatchRuleError) as refused:
            engine.accept(state, candidate=candidate(user=OTHER), now=T0)
        assert refused.value.code == "match_not_active"


# --- The creator's client seed -------------------------------------------------------------------


def test_the_creator_replaces_their_seed_while_the_challenge_is_open() -> None:
    state, events = engine.set_client_seed(open_state(), seat=0, client_seed="mine_2026")
    assert events == [ClientSeedSet(seat=0, client_seed="mine_2026")]
    assert state.client_seeds == ("mine_2026", "")


@pytest.mark.parametrize("seat", [1, None])
def test_only_the_creator_changes_the_seed(seat) -> None:
    with pytest.raises(MatchRuleError) as refused:
        engine.set_client_seed(open_state(), seat=seat, client_seed="x")
    assert refused.value.code == "not_a_player"


def test_the_seeds_are_fixed_once_the_match_started() -> None:
    started = begun()
    with pytest.raises(MatchRuleError) as refused:
        engine.set_client_seed(started, seat=0, client_seed="late")
    assert refused.value.code == "match_not_active"
    assert started.client_seeds == ("creator-seed", "guest-seed")


# --- The rematch ---------------------------------------------------------------------------------


def test_an_offer_keeps_the_server_seed_drawn_first() -> None:
    state, events = engine.offer_rematch(
        finished_state(), seat=0, client_seed="a", server_seed="S1"
    )
    assert events == [RematchOffered(seat=0, client_seed="a", server_seed="S1")]
    again, _ = engine.offer_rematch(state, seat=0, client_seed="b", server_seed="S2")
    assert again.rematch == Rematch(offered_by=0, client_seed="b", server_seed="S1")


def test_the_opponents_offer_stands_so_asking_accepts_it_and_the_accepter_is_seat_zero() -> None:
    offered, _ = engine.offer_rematch(finished_state(), seat=0, client_seed="a", server_seed="S")
    terms = engine.rematch_terms(
        offered, seat=1, client_seed="b", fresh_client_seed="F", fresh_server_seed="X"
    )
    assert terms == RematchTerms(creator_seat=1, client_seeds=("b", "a"), server_seed="S")
    assert (
        engine.rematch_terms(
            offered, seat=0, client_seed="b", fresh_client_seed="F", fresh_server_seed="X"
        )
        is None
    )  # one's own offer: offering again
    state, events = engine.accept_rematch(offered, seat=1, terms=terms, match_id=43)  # type: ignore[arg-type]
    assert events == [RematchAccepted(seat=1, terms=terms, match_id=43)]  # type: ignore[arg-type]
    assert state.rematch == Rematch(match_id=43)


def test_the_computer_accepts_a_persons_offer_at_once() -> None:
    terms = engine.rematch_terms(
        finished_state(), seat=0, client_seed="p", fresh_client_seed="bot", fresh_server_seed="S",
        bot_seat=1,
    )  # fmt: skip
    assert terms == RematchTerms(creator_seat=1, client_seeds=("bot", "p"), server_seed="S")


def test_decline_and_withdraw_end_the_offer() -> None:
    offered, _ = engine.offer_rematch(finished_state(), seat=0, client_seed="a", server_seed="S")
    for seat in (0, 1):
        state, events = engine.decline_rematch(offered, seat=seat)
        assert events == [RematchDeclined(seat=seat)]
        assert state.rematch == Rematch(declined=True)
        with pytest.raises(MatchRuleError) as refused:
            engine.decline_rematch(state, seat=1 - seat)
        assert str(refused.value) == "there is no rematch offer"


def test_no_rematch_before_the_end_after_an_abort_or_once_started() -> None:
    active = begun()
    aborted, _ = engine.abort_before_start(active, seat=0, now=T0)
    offered, _ = engine.offer_rematch(finished_state(), seat=0, client_seed="a", server_seed="S")
    terms = RematchTerms(1, ("b", "a"), "S")
    started, _ = engine.accept_rematch(offered, seat=1, terms=terms, match_id=43)
    for state, reason in [
        (active, "a rematch is offered after the match"),
        (aborted, "a rematch is offered after the match"),
        (open_state(), "a rematch is offered after the match"),
        (started, "the rematch has already started"),
    ]:
        for ask in (
            lambda s: engine.offer_rematch(s, seat=0, client_seed="a", server_seed="S"),
            lambda s: engine.rematch_terms(s, seat=1, client_seed="b", fresh_client_seed="F",
                                           fresh_server_seed="X"),
            lambda s: engine.accept_rematch(s, seat=1, terms=terms, match_id=44),
        ):  # fmt: skip
            with pytest.raises(MatchRuleError) as refused:
                ask(state)
            assert (refused.value.code, str(refused.value)) == ("match_not_finished", reason)


# --- The claim window, as data -------------------------------------------------------------------


def test_a_claim_needs_the_opponent_away_past_the_window() -> None:
    active = begun()
    with pytest.raises(MatchRuleError) as present:
        engine.claim_abandoned(active, seat=0, now=T0, away_ms=None, window_ms=60_000)
    assert present.value.code == "opponent_present"
    with pytest.raises(MatchRuleError) as waiting:
        engine.claim_abandoned(active, seat=0, now=T0, away_ms=58_500, window_ms=60_000)
    assert waiting.value.code == "reconnect_window" and waiting.value.params == {"seconds": 2}
    over, _ = engine.claim_abandoned(active, seat=0, now=T0, away_ms=60_000, window_ms=60_000)
    assert over.winner_seat == 0 and over.end_reason == "abandoned"


# --- Replay --------------------------------------------------------------------------------------


@MATCH_SETTINGS
@given(st.integers(0, 2**32))
def test_a_whole_match_from_the_open_challenge_to_the_rematch_replays(seed) -> None:
    """Seeds, the seat taken, random play to the end, offers and a decline, the rematch: the
    events replayed from the open challenge give the final state."""
    rng = random.Random(seed)
    first = open_state()
    roll = random_pairs(rng)
    state, log = engine.set_client_seed(first, seat=0, client_seed="s0")
    state, events = engine.accept(state, candidate=candidate(), now=T0)
    log += events
    state, events = engine.begin(state, dice=roll, now=T0)
    log += events
    now = T0
    while state.status == "active":
        now += timedelta(seconds=3)
        game = state.game
        assert game is not None
        if game.phase == "roll":
            state, events = engine.roll(state, seat=game.mover_seat, dice=roll, now=now)
        else:
            choice = rng.choice(legal_next_steps(state.turn_state()))  # type: ignore[arg-type]
            state, events = engine.step(
                state, seat=game.mover_seat, step=choice, dice=roll, now=now
            )
        log += events
    for seat in (rng.randint(0, 1), rng.randint(0, 1)):
        state, events = engine.offer_rematch(
            state, seat=seat, client_seed=f"r{seat}", server_seed="S"
        )
        log += events
        if rng.random() < 0.5:
            state, events = engine.decline_rematch(state, seat=1 - seat)
            log += events
    terms = engine.rematch_terms(state, seat=1, client_seed="b", fresh_client_seed="F",
                                 fresh_server_seed="X")  # fmt: skip
    if terms is not None:
        state, events = engine.accept_rematch(state, seat=1, terms=terms, match_id=2)
        log += events
    assert engine.replay(first, log) == state
    assert state.client_seeds == ("s0", "guest-seed")


# --- Withdrawing a challenge ---------------------------------------------------------------------


@pytest.mark.parametrize(("seat", "code"), [(1, "not_a_player"), (None, "not_a_player")])
def test_only_the_creator_withdraws_a_challenge(seat, code) -> None:
    with pytest.raises(MatchRuleError) as refused:
        engine.cancel(open_state(), now=T0, seat=seat)
    assert refused.value.code == code


def test_the_creator_or_the_site_withdraws_an_open_challenge_only() -> None:
    for seat in (0, "site"):
        state, _ = engine.cancel(open_state(), now=T0, seat=seat)
        assert state.status == "cancelled"
        with pytest.raises(MatchRuleError) as refused:
            engine.cancel(state, now=T0, seat=seat)
        assert refused.value.code == "match_not_active"


def test_only_the_challenged_player_declines_a_direct_challenge() -> None:
    direct = open_state(invited=GUEST)
    with pytest.raises(MatchRuleError) as stranger:
        engine.decline_challenge(direct, user=OTHER, now=T0)
    assert stranger.value.code == "not_invited"
    with pytest.raises(MatchRuleError) as public:
        engine.decline_challenge(open_state(), user=GUEST, now=T0)
    assert public.value.code == "not_invited"
    declined, events = engine.decline_challenge(direct, user=GUEST, now=T0)
    assert declined.status == "cancelled" and engine.replay(direct, events) == declined
    with pytest.raises(MatchRuleError) as again:
        engine.decline_challenge(declined, user=GUEST, now=T0)
    assert again.value.code == "match_not_active"
