"""The pages that belong to no single app: home, the rules, the health probe."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.cache import never_cache

from config.health import cached_checks
from games.rules import ruleset


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def rules(request: HttpRequest) -> HttpResponse:
    """The rules as written for the page's language (templates/rules/<code>.html), else English."""
    language = translation.get_language()
    # The clocks' figures come from the one vocabulary (games/rules/ruleset.py), the reconnect
    # window from the settings: the pages never spell a figure of their own.
    clocks = {
        "nardeon_free": ruleset.NARDEON_FREE_SECONDS,
        "nardeon_reserve_minutes": ruleset.NARDEON_RESERVE_SECONDS // 60,
        "nardeon_limit": ruleset.NARDEON_TURN_LIMIT_SECONDS,
        "omerta_step": ruleset.OMERTA_STEP_SECONDS,
        "reconnect": settings.RECONNECT_WINDOW_SECONDS,
    }
    return render(
        request,
        "rules.html",
        {"rules_templates": [f"rules/{language}.html", "rules/en.html"], "clocks": clocks},
    )


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 or 503 for anyone; which part fails, and why, for staff and HEALTHZ_ALLOWED_IPS."""
    results = cached_checks()
    failing = sorted(name for name, state in results.items() if state != "ok")
    body: dict[str, object] = {"status": "ok" if not failing else "failing"}
    user = request.user
    if request.META.get("REMOTE_ADDR") in settings.HEALTHZ_ALLOWED_IPS or (
        user.is_authenticated and user.is_staff
    ):
        body.update(failing=failing, checks=results)
    return JsonResponse(body, status=503 if failing else 200)
