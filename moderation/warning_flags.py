"""The cache flag that a user has a warning to see (moderation/middleware.py shows it): set by the
service that warns and at login, read by the middleware on every page."""

from django.core.cache import cache


def warning_flag_key(user_id: int) -> str:
    return f"moderation:warned:{user_id}"


def flag_unseen_warning(user_id: int) -> None:
    """Mark that the user has a warning to see (moderation.services.user_warn, after commit; and
    at login, from the database, should the cache have lost the flag)."""
    cache.set(warning_flag_key(user_id), 1, timeout=None)
