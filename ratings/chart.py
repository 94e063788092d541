"""The rating history chart's geometry (pure: no Django). The profile template draws it as an
inline SVG (no script, no external asset), so it reads the same on a phone and with JS off.

One step on the x axis per rated match (bursts of matches stay readable; the axis is labelled
with the dates of its ticks), the y axis spans the history with round gridlines.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 62, 14, 14, 32
MAX_POINTS = 400  # more are thinned evenly (the last point always kept)
STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500)


@dataclass(frozen=True)
class Tick:
    position: float
    label: object  # an int (rating) or a datetime (formatted by the template)


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    right: float
    top: int
    bottom: float
    points: str  # the polyline's "x,y x,y ..."
    last: tuple[float, float]
    first_rating: int
    last_rating: int
    y_ticks: list[Tick]
    x_ticks: list[Tick]


def _thin(history: list, limit: int) -> list:
    if len(history) <= limit:
        return history
    stride = (len(history) - 1) / (limit - 1)
    return [history[round(index * stride)] for index in range(limit)]


def _step(span: float) -> int:
    return next((step for step in STEPS if span / step <= 5), 1000)


def rating_chart(history: list[tuple[datetime.datetime, Decimal]]) -> Chart | None:
    """`history`: (when, rating) in time order, the first being the rating before the first
    rated match. None when there is nothing to draw."""
    if len(history) < 2:
        return None
    history = _thin(history, MAX_POINTS)
    ratings = [float(rating) for _, rating in history]
    step = _step(max(ratings) - min(ratings) or 1)
    low = (min(ratings) // step) * step
    high = (max(ratings) // step + 1) * step
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    last_index = len(history) - 1

    def x(index: int) -> float:
        return round(LEFT + (right - LEFT) * index / last_index, 1)

    def y(rating: float) -> float:
        return round(bottom - (bottom - TOP) * (rating - low) / (high - low), 1)

    coordinates = [(x(index), y(rating)) for index, rating in enumerate(ratings)]
    tick_count = min(4, last_index + 1)
    x_indices = sorted({round(last_index * part / (tick_count - 1)) for part in range(tick_count)})
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=right,
        top=TOP,
        bottom=bottom,
        points=" ".join(f"{px},{py}" for px, py in coordinates),
        last=coordinates[-1],
        first_rating=round(ratings[0]),
        last_rating=round(ratings[-1]),
        y_ticks=[Tick(y(value), int(value)) for value in _range(low, high, step)],
        x_ticks=_dated_ticks([(x(index), history[index][0]) for index in x_indices]),
    )


def _dated_ticks(ticks: list[tuple[float, datetime.datetime]]) -> list[Tick]:
    """One tick per date: a day of many matches would print the same date several times."""
    kept: list[Tick] = []
    for position, when in ticks:
        if not kept or kept[-1].label.date() != when.date():
            kept.append(Tick(position, when))
    if len(kept) > 1 and kept[-1].label.date() == ticks[-1][1].date():
        kept[-1] = Tick(ticks[-1][0], ticks[-1][1])  # the last date sits at the end of the axis
    return kept


def _range(low: float, high: float, step: int) -> list[float]:
    values, value = [], low
    while value <= high:
        values.append(value)
        value += step
    return values
