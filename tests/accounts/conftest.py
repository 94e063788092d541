"""Fixtures shared with tests/games."""

from tests.games.conftest import fixed_dice  # noqa: F401 - a fixture for these tests too
