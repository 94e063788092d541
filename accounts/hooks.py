"""What accounts needs from the apps above it, which it never imports: they fill these hooks in
their `AppConfig.ready()` (config/hooks.py; docs/architecture.md, "Architecture")."""

from config.hooks import Hook

# () -> a boolean expression over a User row (e.g. Exists(...OuterRef("pk")...)): true when the
# user has a history others see (games: a match played), so an unused guest is kept.
has_history = Hook("accounts.has_history")
