"""Colours read from our style sheets, and WCAG 2.1's contrast ratio between two of them
(https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio, relative luminance from sRGB): what the
theme tests compute from the custom properties, before any browser draws them."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "static"
BLOCK = re.compile(r"([^{}]+)\{([^{}]*)\}")
PROPERTY = re.compile(r"(--[\w-]+)\s*:\s*([^;]+);")
COMMENT = re.compile(r"/\*.*?\*/", re.S)


def blocks(path: str) -> list[tuple[str, dict[str, str]]]:
    """Each rule of a sheet (its selector, its custom properties), in the sheet's order."""
    text = COMMENT.sub("", (STATIC / path).read_text())
    return [
        (selector.strip(), dict(PROPERTY.findall(body))) for selector, body in BLOCK.findall(text)
    ]


def rules(path: str) -> dict[str, str]:
    """Each selector's declarations as written (for checking which property a rule draws with)."""
    text = COMMENT.sub("", (STATIC / path).read_text())
    return {selector.strip(): " ".join(body.split()) for selector, body in BLOCK.findall(text)}


def rgb(colour: str) -> tuple[int, int, int]:
    match = re.fullmatch(r"#([0-9a-fA-F]{6})", colour.strip())
    assert match, f"{colour!r} is not #rrggbb"
    value = match.group(1)
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def luminance(colour: str) -> float:
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(channel) for channel in rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)
