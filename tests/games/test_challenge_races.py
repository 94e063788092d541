"""Challenges made at the same moment (games/services/lifecycle.py `match_create`): two players
challenging each other directly both get their challenge, and two tabs of one player creating
invite links at once are still counted one after the other."""

from __future__ import annotations

import pytest

from games import services
from games.models import Match, MatchStatus
from games.services.challenges import challenge_direct
from realtime.errors import CommandError
from tests.factories import make_user
from tests.threads import run_together

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("trial", range(8))
def test_two_players_challenging_each_other_at_once_both_get_their_challenge(trial):
    ana, bogdan = make_user(f"ana{trial}"), make_user(f"bogdan{trial}")
    run_together(
        lambda: challenge_direct(creator=ana, invited=bogdan, turn_seconds=60, rated=False),
        lambda: challenge_direct(creator=bogdan, invited=ana, turn_seconds=60, rated=False),
    )
    made = Match.objects.filter(status=MatchStatus.OPEN).values_list("creator_id", "invited_id")
    assert sorted(made) == sorted([(ana.pk, bogdan.pk), (bogdan.pk, ana.pk)])


def test_invite_links_made_in_two_tabs_at_once_are_counted_one_after_the_other(settings):
    settings.PRIVATE_CHALLENGES_PER_HOUR = 1
    creator = make_user("inviter")
    refused = []

    def tab() -> None:
        try:
            services.match_create(creator=creator, private=True, rated=False)
        except CommandError as refusal:
            refused.append(refusal.code)

    run_together(tab, tab)
    assert refused == ["too_many_invites"]
    assert Match.objects.filter(creator=creator, private=True).count() == 1
