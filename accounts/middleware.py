from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from realtime.language import user_language


class UserLanguageMiddleware:
    """A signed-in user's saved language beats the cookie and the browser, on every device.

    Sits after AuthenticationMiddleware; LocaleMiddleware (before it) has already activated the
    cookie's or the browser's choice and sets Content-Language from whatever is active on the way
    out.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = user_language(getattr(request, "user", None))
        if language and language != request.LANGUAGE_CODE:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)
