"""What a page in another language must not show: the English of our catalogs (tests/i18n, e2e)."""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

import polib
from django.conf import settings
from django.utils.translation import to_locale

PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sdr]|%[sdr]|\{[a-z_]+\}|<[^>]+>")
# The site's languages beside English, as (language code, locale folder).
LANGUAGES = [
    (code, to_locale(code)) for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE
]


@cache
def english_sentences(locale: str) -> tuple[str, ...]:
    """Phrases of the English source strings that a page in `locale` must not show: each msgid's
    longest placeholder-free fragment of two words or more, when its translation differs."""
    path = Path(settings.BASE_DIR) / "locale" / locale / "LC_MESSAGES" / "django.po"
    found = set()
    for entry in polib.pofile(str(path)).translated_entries():
        for msgid in (entry.msgid, entry.msgid_plural):
            if not msgid or msgid in (entry.msgstr, *entry.msgstr_plural.values()):
                continue
            fragment = max(PLACEHOLDER.split(msgid), key=len).strip(" ,.:;()—–-")
            if " " in fragment and len(fragment) >= 8:
                found.add(fragment)
    return tuple(sorted(found))


def visible_text(page_html: str) -> str:
    """The page's text, its JSON string blocks decoded (the JS strings live there)."""
    text = re.sub(r"\\u([0-9a-fA-F]{4})", lambda match: chr(int(match.group(1), 16)), page_html)
    text = re.sub(r"<[^>]+>", " ", text)
    return re.sub(r"\s+", " ", html.unescape(text))


def english_left_on(page_html: str, locale: str) -> list[str]:
    text = visible_text(page_html)
    return [sentence for sentence in english_sentences(locale) if sentence in text]
