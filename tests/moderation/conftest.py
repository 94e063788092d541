"""Moderators and matches for the moderation tests."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from games import services
from tests.factories import enable_totp, make_user


def make_moderator(username: str = "mod"):
    """A staff member in the Moderators group, with TOTP set up (the admin needs it)."""
    moderator = make_user(username, is_staff=True)
    moderator.groups.add(Group.objects.get(name="Moderators"))
    enable_totp(moderator)
    return moderator


@pytest.fixture
def moderator(db):
    return make_moderator()


def active_match(fixed_dice, creator, opponent, **options):
    """An accepted match; the creator won the opening roll (6-2) and is to roll."""
    match = services.match_create(creator=creator, **options)
    fixed_dice(6, 2)
    services.match_accept(user=opponent, match_id=match.pk)
    match.refresh_from_db()
    return match
