"""Celery tasks for timed play: thin, they take ids and call services.

As docs/architecture.md "How code is shaped here" says.

- `enforce_deadline` is scheduled after commit for each turn's deadline (eta); the service checks
  under the match lock that the same turn is still open and that the deadline has passed.
- `sweep_deadlines` runs every half second from beat (DEADLINE_SWEEP_SECONDS) and enforces any
  deadline whose task was lost:
  a worker killed with SIGKILL keeps its prefetched eta tasks unacknowledged in Redis until the
  broker's visibility timeout (an hour), so the sweep is what keeps games moving.
- `expire_challenge` / `expire_challenges`: a direct challenge lapses after two minutes (the task
  scheduled for it, the beat sweep every 10 s in case it was lost).
- `close_stale_matches` closes matches nobody touches any more (services.matches_close_stale).
- `publish_live_boards`: the home page's small live boards, every LIVE_BOARDS_SECONDS from beat.
- A correspondence turn (docs/rules.md, Platform rules, Correspondence) gets no `enforce_deadline`
  task: its deadline is days ahead, past the broker's visibility timeout (a Redis eta task that
  old is delivered again every hour) and held in a worker's memory until then; `sweep_deadlines`
  finds it on the indexed `Game.turn_deadline` instead, within half a second of it, across any
  restart. `remind_correspondence` sends the reminders a day before (services/reminders.py), and
  `send_correspondence_email` the emails (games/correspondence_mail.py).
- `bot_act` / `nudge_bots`: the computer's moves, routed to their own queue (settings
  `CELERY_BOT_QUEUE`), so a Bot-Master turn never waits in front of a deadline's task.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime

from celery import shared_task
from django.db import transaction

from config.log_format import play_logging
from games import live_boards, schedule
from games.correspondence_mail import correspondence_email_send
from games.services import game_deadline_enforce, game_deadlines_due, matches_close_stale
from games.services.bots import bot_act as act
from games.services.bots import bots_nudge_stuck
from games.services.challenges import challenges_expire
from games.services.reminders import correspondence_reminders_send

log = logging.getLogger(__name__)


def schedule_deadline(match_id: int, game_id: int, turn_number: int, deadline: datetime) -> None:
    """Called after commit by the match services when a timed turn starts."""
    schedule_deadlines([(match_id, game_id, turn_number, deadline)])


def schedule_deadlines(deadlines: Iterable[tuple[int, int, int, datetime]]) -> None:
    """Called after commit with each timed turn that started: one producer (one broker
    connection taken from the pool) for them all, as a pairing wave starts hundreds."""
    with enforce_deadline.app.producer_or_acquire() as producer:
        for match_id, game_id, turn_number, deadline in deadlines:
            enforce_deadline.apply_async(
                (match_id, game_id, turn_number), eta=deadline, producer=producer
            )


@shared_task(name="games.enforce_deadline", acks_late=True, ignore_result=True)
def enforce_deadline(match_id: int, game_id: int, turn_number: int) -> None:
    with play_logging(match_id=match_id):
        wait = game_deadline_enforce(match_id=match_id, game_id=game_id, turn_number=turn_number)
    if wait is not None:  # woken early (clock skew between hosts): never act before the deadline
        enforce_deadline.apply_async((match_id, game_id, turn_number), countdown=wait)


def schedule_bot(match_id: int, version: int, pause: float) -> None:
    """Called after commit when a bot is to act in a match (games/services/bots.py)."""
    bot_act.apply_async((match_id, version), countdown=pause)


@shared_task(name="games.bot_act", acks_late=True, ignore_result=True, expires=600)
def bot_act(match_id: int, version: int) -> None:
    """The bot rolls, plays one step, or answers a rematch (a person's pace, one task each)."""
    with play_logging(match_id=match_id):
        act(match_id=match_id, version=version)


@shared_task(name="games.nudge_bots", ignore_result=True, expires=10)
def nudge_bots() -> int:
    """Beat: a bot whose move task was lost acts anyway (services.bots_nudge_stuck)."""
    return bots_nudge_stuck()


@shared_task(name="games.sweep_deadlines", ignore_result=True, expires=5)
def sweep_deadlines() -> int:
    enforced = 0
    for match_id, game_id, turn_number in game_deadlines_due():
        try:
            with play_logging(match_id=match_id):
                game_deadline_enforce(
                    match_id=match_id, game_id=game_id, turn_number=turn_number, skip_locked=True
                )
            enforced += 1
        except Exception:  # one broken match must not stop the others being enforced
            log.exception("enforcing the deadline of match %s failed", match_id)
    return enforced


def schedule_challenge_expiry(match_id: int, expires_at: datetime) -> None:
    """Called after a direct challenge is made: it lapses unanswered at `expires_at`."""
    transaction.on_commit(lambda: expire_challenge.apply_async((match_id,), eta=expires_at))


@shared_task(name="games.expire_challenge", acks_late=True, ignore_result=True)
def expire_challenge(match_id: int) -> int:
    return challenges_expire(match_id=match_id)


@shared_task(name="games.expire_challenges", ignore_result=True, expires=10)
def expire_challenges() -> int:
    """The beat's catch-all for expiry tasks that were lost (a killed worker)."""
    return challenges_expire()


@shared_task(name="games.close_stale_matches", ignore_result=True, expires=300)
def close_stale_matches() -> int:
    return matches_close_stale()


@shared_task(name="games.publish_live_boards", ignore_result=True, expires=5)
def publish_live_boards() -> bool:
    """The home page's live boards, once a period for every socket (games/live_boards.py)."""
    return live_boards.publish()


@shared_task(name="games.remind_correspondence", ignore_result=True, expires=50)
def remind_correspondence() -> int:
    return correspondence_reminders_send()


@shared_task(name="games.send_correspondence_email", acks_late=True, ignore_result=True)
def send_correspondence_email(user_id: int, match_id: int, kind: str) -> bool:
    return correspondence_email_send(user_id=user_id, match_id=match_id, kind=kind)


def schedule_correspondence_email(user_id: int, match_id: int, kind: str) -> None:
    send_correspondence_email.delay(user_id, match_id, kind)


def connect() -> None:
    """Fill games/schedule.py's hooks (GamesConfig.ready(), in every process)."""
    schedule.correspondence_email.fill(schedule_correspondence_email)
    schedule.deadlines.fill(schedule_deadlines)
    schedule.bot.fill(schedule_bot)
    schedule.challenge_expiry.fill(schedule_challenge_expiry)
