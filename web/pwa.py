"""The installable site: the web app manifest, the service worker (served from the root, so its
scope is every page) and the page it shows when the network is gone.

What the worker keeps (templates/pwa/service_worker.js): the site's own static files, named as
the pages name them (hashed names in production), under a version computed from their contents,
so a deploy that changes any of them installs a new worker and drops the old cache; and the
offline page, fetched without cookies so it is nobody's page. It never keeps a page's HTML, a
match's state, an API answer or a socket's traffic: pages go to the network and, failing that,
get the offline page; everything but /static/ is left to the network untouched.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from django.conf import settings
from django.contrib.staticfiles.finders import FileSystemFinder
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from realtime.language import supported_language
from web.icon_files import BOARD, ICONS

# The page colour of the light scheme (static/css/site.css --bg), shown while the app starts.
BACKGROUND = "#f4efe6"


def _language(request: HttpRequest) -> str:
    """The `lang` the page asked for (the manifest and the offline page are fetched without
    cookies), else the request's own."""
    return supported_language(request.GET.get("lang")) or translation.get_language()


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest (https://www.w3.org/TR/appmanifest/), named in the page's language."""
    language = _language(request)
    with translation.override(language):
        name, short_name = _("Long Nardy"), _("Nardy")
        description = _("Play long backgammon against people and the computer.")
    icons = [
        {"src": static(path), "sizes": f"{size}x{size}", "type": "image/png",
         "purpose": "maskable" if maskable else "any"}
        for path, (size, maskable) in ICONS.items()
    ]  # fmt: skip
    icons.append({"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"})
    document = {
        "id": "/",
        "name": name,
        "short_name": short_name,
        "description": description,
        "lang": language,
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": BOARD,
        "icons": icons,
    }
    response = JsonResponse(document, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@lru_cache(maxsize=1)
def _kept_static() -> tuple[tuple[str, ...], str]:
    return _static_and_version()


def _static_and_version() -> tuple[tuple[str, ...], str]:
    """The URLs of the site's own static files (not the admin's) and a digest of their contents
    and names: a changed file changes the digest."""
    digest = hashlib.sha256()
    urls = []
    finder = FileSystemFinder()
    for path, storage in sorted(finder.list([]), key=lambda found: found[0]):
        url = staticfiles_storage.url(path)
        with storage.open(path) as file:
            digest.update(url.encode() + b"\0" + hashlib.sha256(file.read()).digest())
        urls.append(url)
    return tuple(urls), digest.hexdigest()[:16]


def kept_static() -> tuple[tuple[str, ...], str]:
    """What the worker keeps and its version; computed once a process in production (the files
    only change with a deploy), at each request in development."""
    return _static_and_version() if settings.DEBUG else _kept_static()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    urls, version = kept_static()
    offline = f"{reverse('offline')}?lang={_language(request)}"
    source = render_to_string(
        "pwa/service_worker.js",
        {
            "version": json.dumps(version),
            "static_prefix": json.dumps(settings.STATIC_URL),
            "offline": json.dumps(offline),
            "kept": json.dumps(list(urls), indent=0),
        },
    )
    response = HttpResponse(source, content_type="text/javascript; charset=utf-8")
    # The browser compares the worker with the server's at each visit: never a stale copy.
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """The page the worker shows when a page cannot be fetched. It never looks at who asks (the
    worker fetches it without cookies): nothing on it belongs to anyone."""
    with translation.override(_language(request)):
        return render(request, "pwa/offline.html", {"language": translation.get_language()})
