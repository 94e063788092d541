import pytest

from games import services
from games.dice import push_test_dice
from tests.factories import make_user


@pytest.fixture
def fixed_dice(settings):
    """Turn the test dice seam on (DEBUG + NARDY_TEST_DICE) and return the queueing function."""
    settings.DEBUG = True
    settings.NARDY_TEST_DICE = True
    push_test_dice()  # empty the queue
    yield push_test_dice
    push_test_dice()


@pytest.fixture
def players(db):
    return make_user("white_player"), make_user("black_player")


@pytest.fixture
def active_match(players, fixed_dice):
    """An accepted Traditional 1-point match: the creator (seat 0) won the opening roll 6-2 and
    plays White; nobody has rolled yet."""
    creator, opponent = players
    match = services.match_create(creator=creator, turn_seconds=60)
    fixed_dice(6, 2)
    services.match_accept(user=opponent, match_id=match.pk)
    match.refresh_from_db()
    return match
