import pytest

from games import services
from tests.factories import make_user


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


def cookie_for(client, user) -> tuple[bytes, bytes]:
    """The session cookie header of `user`, signed in through the test `client`."""
    client.force_login(user)
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


@pytest.fixture
def match_setup(fixed_dice, client):
    """An accepted 1-point match (White to roll) and each player with a session cookie."""
    white, black = make_user("wsw"), make_user("wsb")
    match = services.match_create(creator=white)
    fixed_dice(6, 1)
    services.match_accept(user=black, match_id=match.pk)
    match.refresh_from_db()
    return match, (white, cookie_for(client, white)), (black, cookie_for(client.__class__(), black))
