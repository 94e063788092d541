"""What ratings needs from the apps above it, which it never imports: they fill these hooks in
their `AppConfig.ready()` (config/hooks.py; docs/architecture.md, "Architecture")."""

from config.hooks import Hook

# (match) -> ratings.counts.Outcome: what a finished match adds to its players' records (games
# reads its own rows: the winner, the end reason, the timeouts, the mars games).
match_outcome = Hook("ratings.match_outcome")
