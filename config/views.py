from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.cache import never_cache

from config.health import run_checks


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def rules(request: HttpRequest) -> HttpResponse:
    """The rules as written for the page's language (templates/rules/<code>.html), else English."""
    language = translation.get_language()
    return render(
        request, "rules.html", {"rules_templates": [f"rules/{language}.html", "rules/en.html"]}
    )


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    results = run_checks()
    failing = sorted(name for name, state in results.items() if state != "ok")
    status = 503 if failing else 200
    return JsonResponse(
        {"status": "ok" if not failing else "failing", "failing": failing, "checks": results},
        status=status,
    )
