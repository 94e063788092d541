"""Every write to tournaments (docs/architecture.md "How code is shaped here": keyword-only, a
transaction,
the tournament's lock first (tournaments/locks.py), side effects after commit).

- `players.py`: create a tournament, join, withdraw, pause and resume;
- `pairing.py`: the pairing wave, a match's start, scoring a finished match exactly once;
- `clock.py`: start and finish on time, the beat's sweep, series;
- `moderation.py`: cancel a tournament, remove a player, with an audit row each;
- `chat.py`: the tournament's chat.
"""
