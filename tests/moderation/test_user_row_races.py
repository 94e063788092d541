"""Writes that lock their own user row to count one tab after another (a block, a report, a
chat line, a tournament) take it FOR NO KEY UPDATE (accounts/locks.py): two
players naming each other at the same moment both succeed, and the caps still hold."""

from __future__ import annotations

import pytest

from moderation.models import Block
from moderation.services import block_add
from realtime.errors import CommandError
from tests.factories import make_user
from tests.threads import run_together

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("trial", range(8))
def test_two_players_blocking_each_other_at_once_both_get_their_block(trial):
    ana, bogdan = make_user(f"ana{trial}"), make_user(f"bogdan{trial}")
    run_together(
        lambda: block_add(user=ana, target=bogdan), lambda: block_add(user=bogdan, target=ana)
    )
    blocks = Block.objects.values_list("blocker_id", "blocked_id")
    assert sorted(blocks) == sorted([(ana.pk, bogdan.pk), (bogdan.pk, ana.pk)])


def test_blocks_from_two_tabs_at_once_are_counted_one_after_the_other(settings):
    settings.MAX_BLOCKS = 1
    user, first, second = make_user("blocker"), make_user("first"), make_user("second")
    refused = []

    def tab(target) -> None:
        try:
            block_add(user=user, target=target)
        except CommandError as refusal:
            refused.append(refusal.code)

    run_together(lambda: tab(first), lambda: tab(second))
    assert refused == ["too_many_blocks"]
    assert Block.objects.filter(blocker=user).count() == 1
