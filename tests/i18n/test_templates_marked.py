"""No template shows text that is not marked for translation (an unmarked string
stays English in every language). makemessages only sees marked strings; this sees the rest."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

TEMPLATES = Path(settings.BASE_DIR) / "templates"
# Written once per language on purpose (web.views.rules and games.views.fairness pick the
# file by language).
PER_LANGUAGE = (TEMPLATES / "rules", TEMPLATES / "fairness")
REMOVE = [
    re.compile(r"{% comment %}.*?{% endcomment %}", re.S),
    re.compile(r"{#.*?#}", re.S),
    re.compile(r"{% blocktrans(late)?\b.*?{% endblocktrans(late)? %}", re.S),
    re.compile(r"<script\b.*?</script>", re.S),  # JSON string blocks: keys, values {% trans %}
    re.compile(r"<style\b.*?</style>", re.S),
    re.compile(r"{%.*?%}|{{.*?}}", re.S),
]
ATTRIBUTE = re.compile(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"')
WORD = re.compile(r"[^\W\d_]{2,}")


def unmarked_text(source: str) -> list[str]:
    for pattern in REMOVE:
        source = pattern.sub(" ", source)
    found = [value for value in ATTRIBUTE.findall(source) if WORD.search(value)]
    text = re.sub(r"<[^>]*>", " ", source)
    found += [word for word in WORD.findall(text)]
    return found


def test_no_template_shows_unmarked_text():
    checked = 0
    problems = {}
    for path in sorted(TEMPLATES.rglob("*.html")):
        if any(folder in path.parents for folder in PER_LANGUAGE):
            continue
        checked += 1
        unmarked = unmarked_text(path.read_text())
        if unmarked:
            problems[str(path.relative_to(TEMPLATES))] = unmarked
    assert checked > 10
    assert problems == {}, f"text not marked for translation: {problems}"


def test_the_check_sees_unmarked_text_and_attributes():
    assert unmarked_text('<p>Roll the dice</p><a title="Next page" href="{% url "x" %}">»</a>') == [
        "Next page",
        "Roll",
        "the",
        "dice",
    ]
    assert unmarked_text('<p>{% trans "Roll" %} {{ user }}</p>{# note #}') == []
