"""What games' pages need from the apps above it (chat, pairing), which games never imports: they
fill these hooks in their `AppConfig.ready()` (config/hooks.py; docs/architecture.md,
"Architecture"); and
what games announces to them.
"""

from django.dispatch import Signal

from config.hooks import AnyOf, Hook, send_to_all

# Sent after commit whenever matches start (an accepted challenge, a pool pairing, a rematch, a
# match against the computer, a tournament's pairing wave: games/services/starts.py) with
# `match_ids` and `player_ids` (every person seated in them; bots have no waits), once for a
# start or a whole wave: pairing takes those players out of its pools, so nobody
# waits for a second match while playing one. Receivers run after the start's commit, outside
# its locks; one that raises is logged and the match has started all the same.
match_started = Signal()

# Sent after commit when a player challenges another directly (games/services/challenges.py
# `challenge_direct`), with `match_id`, `creator_id` and `invited_id`: notifications keeps it in
# the challenged player's bell. Receivers run after the commit; one that raises is logged and the
# challenge stands all the same.
challenge_sent = Signal()


def announce_challenge_sent(match_id: int, creator_id: int, invited_id: int) -> None:
    """Send `challenge_sent` (after the challenge's commit); a receiver that fails is logged."""
    send_to_all(
        challenge_sent, "challenge_sent", f"match {match_id}",
        sender=None, match_id=match_id, creator_id=creator_id, invited_id=invited_id,
    )  # fmt: skip


# Sent after commit whenever a started match ends, finished or aborted (games/services/context.py
# `Locked.save`), with `match_id`: tournaments score their matches from it (docs/rules.md "Arena
# tournaments"). Receivers read the match row, run outside its lock, and one that raises is
# logged; the match has ended all the same.
match_ended = Signal()

# (match, loser_seat) -> whether a rated match just won leaves both ratings alone: an arena match
# its loser left without playing (docs/rules.md "Arena tournaments", item 3; tournaments answers).
# Asked inside the ending's transaction, under the match's lock, before any rating is written.
rating_withheld = AnyOf("games.rating_withheld")

# (user or None) -> the Play page's quick-pairing card (pairing.selectors.play_page_pairing).
play_page_pairing = Hook("games.play_page_pairing")

# (match) -> the quick-pairing pool a match was paired from, as its key ("" for any other match):
# the end of the match offers a new opponent from the same pool (pairing.selectors.match_pool_key).
match_pool_key = Hook("games.match_pool_key")

# (match_id) -> whether the server drew both of the match's client seeds along with its server
# seed, so that no player's seed came after the commitment (a tournament's pairing wave:
# tournaments.selectors.client_seeds_drawn_by_server). The fairness panel and the export say so
# (games.selectors.fairness_with_seed_origin).
client_seeds_drawn_by_server = Hook("games.client_seeds_drawn_by_server")

# (match, request) -> the match page's Follow / Unfollow buttons for its players, rendered by
# friends (safe HTML, "" when there is nothing to follow; friends.hook_answers).
match_page_follow = Hook("games.match_page_follow")

# () -> what the match page's chat box needs: {"quick_phrases": ..., "chat_max_length": ...}.
match_page_chat = Hook("games.match_page_chat")

# (match_id, viewer_id=...) -> a finished match's whole chat as the replay shows it, without the
# messages of anyone the viewer blocks or is blocked by (chat.selectors.match_chat).
replay_chat = Hook("games.replay_chat")

# Sent after commit when a match ends finished (not aborted), with `match_id` and `rated`:
# analysis queues a rated match's post-match analysis (analysis/hook_answers.py). Receivers run
# outside the ending's transaction; one that raises is logged and the match has ended all the same.
match_finished = Signal()


# Sent after commit when a correspondence turn (docs/rules.md, Platform rules, Correspondence)
# waits for a player: a new turn, or the clock handed to them by a double (its answer), with
# `user_id`, `match_id` and `deadline` (an aware datetime). Sent from games/effects.py.
correspondence_turn_due = Signal()

# Sent once per turn when a correspondence turn's deadline is near (a day before it, half the
# turn on the one-day clock: games/services/reminders.py), with `user_id`, `match_id` and
# `deadline`, after the commit that recorded the reminder.
correspondence_deadline_near = Signal()


def announce_correspondence(
    signal: Signal, name: str, *, user_id: int, match_id: int, deadline
) -> None:
    """Send one of the two correspondence signals (after commit); a failing receiver is logged."""
    send_to_all(
        signal, name, f"match {match_id}",
        sender=None, user_id=user_id, match_id=match_id, deadline=deadline,
    )  # fmt: skip


def announce_match_finished(match_id: int, rated: bool) -> None:
    """Send `match_finished` (after the ending's commit); a receiver that fails is logged."""
    send_to_all(
        match_finished, "match_finished", f"match {match_id}",
        sender=None, match_id=match_id, rated=rated,
    )  # fmt: skip


# (match, request) -> the replay page's analysis panel, rendered by analysis (safe HTML): the
# button, live progress, marks, best moves, the graph and totals (analysis.selectors).
replay_analysis = Hook("games.replay_analysis")

# (match_id) -> a finished match's stored analysis for the JSON export, or None when it has none
# yet (docs/protocol.md, "Post-match analysis and the match export").
export_analysis = Hook("games.export_analysis")
