"""The installable site's three answers (web/pwa.py): the manifest in the page's language, the
service worker with its version and the files it keeps, the offline page that is nobody's."""

from __future__ import annotations

import json
import re

import pytest
from django.test import override_settings

from tests.factories import make_user
from web import pwa

pytestmark = pytest.mark.django_db


def worker_source(client, query="") -> str:
    response = client.get("/sw.js" + query)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    return response.content.decode()


def kept(source: str) -> list[str]:
    return json.loads(re.search(r"const KEPT = (\[.*?\]);", source, re.DOTALL).group(1))


def test_the_manifest_has_what_an_installable_app_needs(client):
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["name"] == "Long Nardy" and manifest["short_name"] == "Nardy"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/",
        "/",
        "standalone",
    )
    assert manifest["theme_color"] and manifest["background_color"]
    pngs = {
        (icon["sizes"], icon["purpose"])
        for icon in manifest["icons"]
        if icon["type"] == "image/png"
    }
    assert pngs == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200, icon


@pytest.mark.parametrize(("asked", "name", "language"), [
    ("ru", "Длинные нарды", "ru"), ("el", "Μακρύ νάρδι", "el"), ("xx", "Long Nardy", "en"),
    ("ru" * 500, "Long Nardy", "en"),
])  # fmt: skip
def test_the_manifest_speaks_the_pages_language(client, asked, name, language):
    manifest = client.get("/manifest.webmanifest", {"lang": asked}).json()
    assert (manifest["name"], manifest["lang"]) == (name, language)


def test_the_worker_keeps_only_static_files_and_the_offline_page(client):
    source = worker_source(client, "?lang=ru")
    urls = kept(source)
    assert "/static/css/site.css" in urls and "/static/js/board.js" in urls
    assert all(url.startswith("/static/") for url in urls)
    assert not any("/admin/" in url for url in urls)  # the site's own files, not the admin's
    assert 'const OFFLINE = "/offline/?lang=ru";' in source


def test_the_worker_version_follows_the_files(client, tmp_path):
    folder = tmp_path / "static"
    (folder / "css").mkdir(parents=True)
    (folder / "css" / "one.css").write_text("a { color: red }")
    with override_settings(STATICFILES_DIRS=[folder], DEBUG=True):
        first = pwa.kept_static()
        assert first[0] == ("/static/css/one.css",)
        assert pwa.kept_static() == first
        (folder / "css" / "one.css").write_text("a { color: blue }")
        changed = pwa.kept_static()
        (folder / "css" / "two.css").write_text("")
        added = pwa.kept_static()
    assert len({first[1], changed[1], added[1]}) == 3


def test_the_version_is_in_the_worker_so_a_deploy_replaces_it(client):
    _urls, version = pwa.kept_static()
    assert f'const VERSION = "{version}";' in worker_source(client)


def test_the_offline_page_is_nobodys(client):
    player = make_user("secret_name")
    client.force_login(player)
    response = client.get("/offline/", {"lang": "ru"})
    html = response.content.decode()
    assert response.status_code == 200 and 'id="offline"' in html and 'lang="ru"' in html
    assert "secret_name" not in html and "csrfmiddlewaretoken" not in html
    assert not response.cookies


def test_only_get(client):
    for path in ("/sw.js", "/manifest.webmanifest", "/offline/"):
        assert client.post(path).status_code == 405


def test_every_page_links_the_manifest_and_the_worker(client):
    html = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="uk").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest?lang=uk">' in html
    assert '<meta name="service-worker" content="/sw.js?lang=uk">' in html
    assert 'id="install-app"' in html and "hidden>" in html
