"""Provably fair dice on the server: the seed is secret until the match ends, then
revealed; every roll of a played match verifies; seeds are the players'; the test seam marks a
match not verifiable."""

from __future__ import annotations

import json
import logging
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import selectors, services
from games.fairness import commitment, roll_pair, verify_export
from games.models import Match
from games.protocol import match_state
from games.services.state_rows import match_state_of
from nardy import choose_turn
from tests.factories import enable_totp, make_user
from tests.match_channel import MatchChannel

pytestmark = pytest.mark.django_db

# While a whole match is played, every page is looked at once in this many commands.
PAGES_EVERY = 10


class Witness:
    """Everything a match showed anyone: published events, snapshots, pages, exports, admin pages
    and log lines, gathered as text."""

    def __init__(self, client, admin_client, caplog, match_id: int) -> None:
        self.client, self.admin_client, self.caplog = client, admin_client, caplog
        self.match_id = match_id
        self.channel = MatchChannel(match_id)
        self.texts: list[tuple[str, str]] = []
        self.logs_seen = 0  # caplog keeps every record: each look takes the new ones only

    def see(self, what: str, value) -> None:
        text = value if isinstance(value, str) else json.dumps(value, default=str)
        self.texts.append((what, text))

    def look(self, *, pages: bool = True) -> None:
        """The snapshot and (with `pages`) every page that can show the match, as they are now."""
        snapshot = selectors.match_snapshot(self.match_id)
        self.see("snapshot", snapshot.state)
        if not pages:
            return
        match = Match.objects.get(pk=self.match_id)
        urls = {
            "match page": reverse("match", kwargs={"match_id": self.match_id}),
            "play": reverse("play"),
            "watch": reverse("watch"),
            "profile": reverse("profile", kwargs={"username": match.creator.username}),
        }
        if match.status in ("finished", "aborted"):
            urls["replay"] = reverse("match_replay", kwargs={"match_id": self.match_id})
            urls["export"] = reverse("match_export", kwargs={"match_id": self.match_id})
        for name, url in urls.items():
            response = self.client.get(url)
            assert response.status_code == 200, name
            self.see(name, response.content.decode())
        for name in ("change", "changelist"):
            url = (
                reverse("admin:games_match_change", args=[self.match_id])
                if name == "change"
                else reverse("admin:games_match_changelist")
            )
            response = self.admin_client.get(url)
            assert response.status_code == 200
            self.see(f"admin {name}", response.content.decode())
        records = self.caplog.records
        for record in records[self.logs_seen :]:
            self.see("log", record.getMessage())
        self.logs_seen = len(records)

    def places_showing(self, secret: str) -> list[str]:
        return sorted({what for what, text in self.texts if secret in text})


def run(witness: Witness, call, *args, pages: bool = True, **kwargs):
    """A service call with what it published on the match's channel, then a look at the snapshot
    and (with `pages`) every page."""
    result = call(*args, **kwargs)
    for message in witness.channel.messages():
        witness.see("event", message)
    witness.look(pages=pages)
    return result


def next_command(match_id: int, users: dict):
    """The next command of a match played by the engine's own choice of turn."""
    match = Match.objects.get(pk=match_id)
    game = match.games.order_by("-number").first()
    mover = users[match.player_id(game.seat_of_side(game.turn))]
    if game.phase == "roll":
        return services.game_roll, {"user": mover, "match_id": match_id, "version": match.version}
    turn = match_state_of(match, game).turn_state()
    steps = choose_turn(turn.start_board, turn.side, turn.dice, turn.first_turn, turn.rules)
    step = steps[len(game.steps)]
    return services.game_step_play, {
        "user": mover, "match_id": match_id, "version": match.version, "step": step,
    }  # fmt: skip


@pytest.fixture
def witness_setup(client, admin_client, admin_user, caplog):
    caplog.set_level(logging.DEBUG)
    enable_totp(admin_user)  # staff need two factors before the admin opens (web/urls.py)
    creator, opponent = make_user("seed_creator"), make_user("seed_opponent")
    client.force_login(creator)
    return creator, opponent, lambda match_id: Witness(client, admin_client, caplog, match_id)


# Committed for real: the snapshot reads in its own REPEATABLE READ transaction.
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("ending", ["finished", "resigned", "aborted", "cancelled"])
def test_the_server_seed_is_shown_nowhere_before_the_end_and_everywhere_after(
    witness_setup, ending
):
    creator, opponent, make_witness = witness_setup
    match = services.match_create(creator=creator, length=1, client_seed="creator-seed")
    witness = make_witness(match.pk)
    witness.look()
    users = {creator.pk: creator, opponent.pk: opponent}
    if ending != "cancelled":
        run(witness, services.match_accept,
            user=opponent, match_id=match.pk, client_seed="opponent-seed")  # fmt: skip
        for _ in range(6):  # a few commands into the match
            call, arguments = next_command(match.pk, users)
            run(witness, call, **arguments)
    secret = Match.objects.get(pk=match.pk).server_seed
    assert witness.places_showing(commitment(secret))  # the commitment is public from the start
    assert witness.places_showing(secret) == []

    if ending == "finished":
        # Every event and snapshot of the whole match; the pages (eight requests a look, the
        # cost of this test) at every tenth command and after the last.
        for count in range(3000):
            call, arguments = next_command(match.pk, users)
            mark = len(witness.texts)
            run(witness, call, pages=count % PAGES_EVERY == 0, **arguments)
            if Match.objects.get(pk=match.pk).status != "active":
                witness.look()
                break
        ended = witness.texts[mark:]  # what the last step showed
        del witness.texts[mark:]
        assert witness.places_showing(secret) == []  # nothing showed it while the match ran
        witness.texts = ended
    else:
        witness.texts.clear()
        end = {
            "resigned": lambda: services.match_resign(user=opponent, match_id=match.pk),
            "cancelled": lambda: services.match_cancel(user=creator, match_id=match.pk),
            "aborted": lambda: (
                Match.objects.filter(pk=match.pk).update(
                    last_activity_at=timezone.now() - services.STALE_AFTER - timedelta(minutes=1)
                ),
                services.matches_close_stale(),
            ),
        }[ending]
        run(witness, end)
    finished = Match.objects.get(pk=match.pk)
    assert finished.status == {"resigned": "finished"}.get(ending, ending)
    shown = witness.places_showing(secret)
    assert "snapshot" in shown and "match page" in shown
    assert "admin change" not in shown and "log" not in shown  # never in the admin or the logs
    if ending != "cancelled":
        assert "export" in shown and "replay" in shown
        assert ending == "finished" or "event" in shown  # the match_over event reveals it
        report = verify_export(json.loads(dict(witness.texts)["export"]))
        assert report.ok, (report.problems, [c for c in report.checks if not c.ok])
        assert report.checks


def played_export(client, players, *, length: int = 3, resign_after: int | None = None) -> dict:
    """A match of `length` points played out (or resigned by seat 0 once ``resign_after``
    commands are made and the mover has rolled), as its JSON export."""
    creator, opponent = players
    match = services.match_create(creator=creator, length=length, client_seed="Ana_2026")
    services.match_accept(user=opponent, match_id=match.pk, client_seed="bogdan-7")
    users = {creator.pk: creator, opponent.pk: opponent}
    commands = 0
    while Match.objects.get(pk=match.pk).status == "active":
        rolled = Match.objects.get(pk=match.pk).games.order_by("-number").first().phase == "move"
        if resign_after is not None and commands >= resign_after and rolled:
            services.match_resign(user=creator, match_id=match.pk)
            break
        call, arguments = next_command(match.pk, users)
        call(**arguments)
        commands += 1
    response = client.get(reverse("match_export", kwargs={"match_id": match.pk}))
    return json.loads(response.content)


def test_every_roll_of_a_three_point_match_verifies(client, players):
    export = played_export(client, players)
    fairness = export["match"]["fairness"]
    assert fairness["client_seeds"] == ["Ana_2026", "bogdan-7"] and fairness["verifiable"]
    report = verify_export(export)
    assert report.ok, report.problems
    assert len(export["games"]) >= 2
    turns = sum(len(game["turns"]) for game in export["games"])
    assert len(report.checks) >= turns + 1  # every turn, the opening roll and its ties
    # Rolls are numbered in each game from 1, opening ties included.
    for game in export["games"]:
        ties = len(game["opening"]["ties"]) + 1 if game["opening"] else 0
        numbers = [turn["roll"] for turn in game["turns"]]
        assert numbers == list(range(ties + 1, ties + 1 + len(numbers)))


def test_a_turn_cut_short_by_resigning_is_verified_too(client, players):
    export = played_export(client, players, resign_after=3)  # resigned after a roll
    game = export["games"][-1]
    unfinished = game["unfinished_turn"]
    assert unfinished is not None and unfinished["roll"] == game["rolls"]
    report = verify_export(export)
    assert report.ok, report.problems
    assert any(check.kind == "unfinished" for check in report.checks)


def flips(export: dict):
    """Exports that differ from `export` by one bit of a value the dice depend on."""

    def flipped(path: tuple, value):
        copy = json.loads(json.dumps(export))
        target = copy
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return copy

    fairness = export["match"]["fairness"]
    for key in ("server_seed", "server_seed_hash"):
        text = fairness[key]
        yield (
            key,
            flipped(("match", "fairness", key), text[:-1] + format(int(text[-1], 16) ^ 1, "x")),
        )
    seed = fairness["client_seeds"][1]
    yield (
        "client seed",
        flipped(("match", "fairness", "client_seeds", 1), seed[:-1] + chr(ord(seed[-1]) ^ 1)),
    )
    for g, game in enumerate(export["games"]):
        if game["opening"]:  # (white_seat tells whose die was whose in the opening roll only)
            yield "opening", flipped(("games", g, "opening", "white"), game["opening"]["white"] ^ 1)
            yield (
                f"game {g} white seat",
                flipped(("games", g, "white_seat"), game["white_seat"] ^ 1),
            )
        last = len(game["turns"]) - 1
        for t, turn in enumerate(game["turns"]):
            # Each flip verifies the whole export again: the first turns, every fifth and the
            # last stand for the rest (the same check of each roll, only its number differs).
            if not (t < 8 or t % 5 == 0 or t == last):
                continue
            for d in (0, 1):
                yield (
                    f"game {g} turn {t} die {d}",
                    flipped(("games", g, "turns", t, "dice", d), turn["dice"][d] ^ 1),
                )
            yield (
                f"game {g} turn {t} roll",
                flipped(("games", g, "turns", t, "roll"), turn["roll"] ^ 1),
            )
        yield f"game {g} rolls", flipped(("games", g, "rolls"), game["rolls"] ^ 1)


def test_a_one_bit_change_makes_verification_fail(client, players):
    # One game has every kind of value the dice depend on (seeds, opening, each turn's dice);
    # the three-point match above proves the games after the first.
    export = played_export(client, players, length=1)
    assert verify_export(export).ok
    changed = 0
    for what, tampered in flips(export):
        # A die flipped into the other die's value of the same roll is the same roll, read
        # in either order: that flip changes nothing the dice decide, so it is skipped.
        if tampered == export or _same_roll_reordered(export, tampered):
            continue
        assert not verify_export(tampered).ok, what
        changed += 1
    assert changed > 50


def _same_roll_reordered(original: dict, tampered: dict) -> bool:
    for game, other in zip(original["games"], tampered["games"], strict=True):
        for turn, changed in zip(game["turns"], other["turns"], strict=True):
            if turn["dice"] != changed["dice"]:
                return sorted(turn["dice"]) == sorted(changed["dice"])
    return False


def test_the_fixed_dice_seam_marks_a_match_not_verifiable(client, players, fixed_dice):
    creator, opponent = players
    match = services.match_create(creator=creator)
    services.match_accept(user=opponent, match_id=match.pk)
    match.refresh_from_db()
    assert match.dice_source == "fair"  # no die was queued: the fair roll was used
    fixed_dice(6, 2)
    other = services.match_create(creator=make_user(), rated=False)
    services.match_accept(user=make_user(), match_id=other.pk)
    other.refresh_from_db()
    assert other.dice_source == "fixed" and other.games.get().opening_white == 6
    services.match_resign(user=other.opponent, match_id=other.pk)
    export = json.loads(client.get(reverse("match_export", kwargs={"match_id": other.pk})).content)
    assert export["match"]["fairness"]["verifiable"] is False
    report = verify_export(export)
    assert not report.ok and "not verifiable" in report.problems[0]


def test_the_opening_roll_and_its_ties_come_from_the_seeds(players):
    creator, opponent = players
    match = services.match_create(creator=creator, client_seed="c0")
    services.match_accept(user=opponent, match_id=match.pk, client_seed="c1")
    match.refresh_from_db()
    game = match.games.get()
    draws = [roll_pair(match.server_seed, ("c0", "c1"), 1, roll) for roll in range(1, 40)]
    ties = [list(pair) for pair in draws[: len(game.opening_ties)]]
    assert game.opening_ties == ties and all(a == b for a, b in ties)
    first, second = draws[len(ties)]
    assert first != second and game.rolls == len(ties) + 1
    assert game.white_seat == (0 if first > second else 1)
    assert (game.opening_white, game.opening_black) == (max(first, second), min(first, second))


def test_client_seeds_are_the_players_and_replaceable_only_before_the_start(players):
    creator, opponent = players
    match = services.match_create(creator=creator)
    assert len(match.client_seed_creator) == 32  # none sent: the server drew one
    services.match_client_seed(user=creator, match_id=match.pk, client_seed="my_own-seed")
    match.refresh_from_db()
    assert match.client_seed_creator == "my_own-seed"
    for bad in ("", "a:b", "x" * 65, "ünïcode", 7, ["a"]):
        with pytest.raises(services.CommandError) as refused:
            services.match_client_seed(user=creator, match_id=match.pk, client_seed=bad)
        assert refused.value.code == "bad_field"
    with pytest.raises(services.CommandError) as refused:
        services.match_client_seed(user=opponent, match_id=match.pk, client_seed="mine")
    assert refused.value.code == "not_a_player"
    with pytest.raises(services.CommandError):
        services.match_accept(user=opponent, match_id=match.pk, client_seed="no:colons")
    services.match_accept(user=opponent, match_id=match.pk, client_seed="opp")
    match.refresh_from_db()
    assert match.client_seeds == ("my_own-seed", "opp")
    with pytest.raises(services.CommandError) as refused:
        services.match_client_seed(user=creator, match_id=match.pk, client_seed="late")
    assert refused.value.code == "match_not_active"
    assert Match.objects.get(pk=match.pk).client_seed_creator == "my_own-seed"


def test_a_rematch_commits_with_the_offer_and_takes_each_players_new_seed(client, players):
    creator, opponent = players
    match = services.match_create(creator=creator, rated=False)
    services.match_accept(user=opponent, match_id=match.pk)
    services.match_resign(user=opponent, match_id=match.pk)
    services.match_rematch_offer(user=opponent, match_id=match.pk, client_seed="offer-seed")
    match.refresh_from_db()
    pending = match.rematch_server_seed
    published = commitment(pending)
    state = match_state(
        match, match_state_of(match, match.games.get()), [], usernames={}, ratings={},
        now=timezone.now(),
    )  # fmt: skip
    assert state["match"]["rematch"]["server_seed_hash"] == published
    pages = [
        json.dumps(state),
        client.get(reverse("match", kwargs={"match_id": match.pk})).content.decode(),
        client.get(reverse("match_export", kwargs={"match_id": match.pk})).content.decode(),
    ]
    assert all(pending not in page for page in pages)  # the rematch's seed stays secret
    assert all(match.server_seed in page for page in pages)  # this match's is revealed
    services.match_rematch_offer(user=creator, match_id=match.pk, client_seed="accept-seed")
    match.refresh_from_db()
    rematch = match.rematch
    # The accepting player is seat 0 of the rematch, the offering one seat 1; the server seed is
    # the one committed to with the offer, before the accepting browser chose its seed.
    assert rematch.creator == creator and rematch.client_seeds == ("accept-seed", "offer-seed")
    assert rematch.server_seed_hash == published and rematch.server_seed == pending
    assert (match.rematch_client_seed, match.rematch_server_seed) == ("", "")


def test_a_declined_rematch_forgets_its_seeds(players):
    creator, opponent = players
    match = services.match_create(creator=creator, rated=False)
    services.match_accept(user=opponent, match_id=match.pk)
    services.match_resign(user=opponent, match_id=match.pk)
    services.match_rematch_offer(user=opponent, match_id=match.pk)
    services.match_rematch_decline(user=creator, match_id=match.pk)
    match.refresh_from_db()
    assert (match.rematch_client_seed, match.rematch_server_seed) == ("", "")
