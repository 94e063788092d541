from collections.abc import Callable

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from moderation.selectors import unseen_warnings
from moderation.services import warnings_mark_seen
from moderation.warning_flags import warning_flag_key

# Requests that are not pages a person reads: a warning waits for the next real page.
NOT_PAGES = ("/static/", "/healthz", "/metrics", "/i18n/")


class WarningMiddleware:
    """A moderator's warning is shown on the user's next page, once.

    Sits after MessageMiddleware: the warning becomes a message of the page being rendered and
    is marked seen (moderation.services.warnings_mark_seen). A page view reads only a cache flag
    (Redis) set when a warning is given, so pages cost no extra database query; the database is
    read when the flag is up."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and request.method == "GET"
            and not request.path.startswith(NOT_PAGES)
            and cache.get(warning_flag_key(user.pk))
        ):
            self._show_warnings(request, user.pk)
        return self.get_response(request)

    def _show_warnings(self, request: HttpRequest, user_id: int) -> None:
        warnings = unseen_warnings(user_id)
        for warning in warnings:
            messages.warning(
                request, _("A moderator warns you: %(reason)s") % {"reason": warning.reason}
            )
        warnings_mark_seen(user_id=user_id, sanction_ids=[warning.pk for warning in warnings])
        cache.delete(warning_flag_key(user_id))
