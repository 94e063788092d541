"""The rating chart's SVG in every language: coordinates are SVG syntax ("228.4"), never the
page's number format ("228,4" is no coordinate at all: the labels fall onto one line and the dot
vanishes). docs/architecture.md "How code is shaped here": numbers in SVG, JSON and attributes are
never
localised."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

from ratings.models import Rating
from ratings.records import player_chart
from tests.factories import make_user
from tests.ratings.conftest import play_rated

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _ in settings.LANGUAGES]
COORDINATE = re.compile(r"^-?\d+(\.\d+)?$")


def svg_of(html: str) -> str:
    return re.search(r'<svg class="rating-chart".*?</svg>', html, re.S).group(0)


def attribute(svg: str, element: str, name: str) -> list[str]:
    return re.findall(rf'<{element}\b[^>]*?\s{name}="([^"]*)"', svg)


@pytest.fixture
def charted_player():
    anna, boris = make_user("anna_chart"), make_user("boris_chart")
    # Ratings with fractions (the FIBS formula's decimals), so coordinates are not whole numbers.
    for index in range(5):
        winner, loser = (anna, boris) if index % 2 else (boris, anna)
        play_rated(winner, loser, length=(1, 3, 5)[index % 3])
    return anna


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_chart_is_drawn_with_svg_numbers_in_every_language(client, charted_player, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get(reverse("profile", args=[charted_player.username])).content.decode()
    assert f'<html lang="{language}"' in html
    svg = svg_of(html)
    chart = player_chart(charted_player, Rating.objects.get(user=charted_player))

    assert attribute(svg, "polyline", "points") == [chart.points]
    assert any("." in point for point in chart.points.split()), "the test needs fractions"
    assert attribute(svg, "circle", "cx") == [str(chart.last[0])]
    assert attribute(svg, "circle", "cy") == [str(chart.last[1])]
    assert attribute(svg, "line", "y1")[: len(chart.y_ticks)] == [
        str(tick.position) for tick in chart.y_ticks
    ]
    texts = re.findall(r'<text[^>]*\sy="([^"]*)"[^>]*>([^<]*)</text>', svg)
    assert [label for _, label in texts[: len(chart.y_ticks)]] == [
        str(tick.label) for tick in chart.y_ticks
    ]
    # Every number the SVG carries in an attribute reads as SVG reads it.
    for name, value in re.findall(r'\s(x1|x2|y1|y2|x|y|cx|cy|r)="([^"]*)"', svg):
        assert COORDINATE.match(value), f'{name}="{value}" in {language}'
    for pair in chart.points.split():
        assert re.match(r"^-?\d+(\.\d+)?,-?\d+(\.\d+)?$", pair)
