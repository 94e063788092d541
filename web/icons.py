"""The site's icon, drawn from a few shapes: the favicon (SVG) and the installed app's PNGs
(192 and 512 px, and a 512 px "maskable" one whose picture keeps inside the safe circle the
phone's mask may cut to: https://www.w3.org/TR/appmanifest/#icon-masks, 40 % of the size around
the centre). Rasterised here with numpy (4 x 4 samples a pixel) and written as PNG with zlib, so
every committed image comes from this file:

    .venv/bin/python -m web.icons        # rewrites static/favicon.svg and static/icons/*.png

tests/web/test_icons.py checks that the committed files are what this draws.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from web.icon_files import BOARD, ICONS

STATIC = Path(__file__).resolve().parent.parent / "static"
VIEW = 32  # the drawing's own units: a 32 x 32 board corner
SAMPLES = 4  # per pixel and direction


@dataclass(frozen=True)
class Shape:
    kind: str  # "rect" (x, y, width, height, corner radius), "triangle" (3 points), "circle"
    colour: str
    geometry: tuple[float, ...]


# Two points of the board, a white and a black checker: as the favicon has always shown.
PICTURE = (
    Shape("triangle", "#c9562b", (4, 4, 9, 16, 14, 4)),
    Shape("triangle", "#c9562b", (18, 28, 23, 16, 28, 28)),
    Shape("circle", "#f7efe2", (23, 9, 4)),
    Shape("circle", "#222222", (9, 23, 4)),
)
ROUNDED = Shape("rect", BOARD, (0, 0, 32, 32, 6))
FULL_BLEED = Shape("rect", BOARD, (0, 0, 32, 32, 0))
# A maskable icon's picture shrinks to keep inside the safe circle (radius 0.4 of the size).
MASKABLE_SCALE = 0.72


def svg() -> str:
    def element(shape: Shape) -> str:
        g = [f"{value:g}" for value in shape.geometry]
        if shape.kind == "rect":
            return (
                f'<rect x="{g[0]}" y="{g[1]}" width="{g[2]}" height="{g[3]}" rx="{g[4]}" '
                f'fill="{shape.colour}"/>'
            )
        if shape.kind == "circle":
            return f'<circle cx="{g[0]}" cy="{g[1]}" r="{g[2]}" fill="{shape.colour}"/>'
        points = " ".join(f"{g[i]},{g[i + 1]}" for i in range(0, 6, 2))
        return f'<polygon points="{points}" fill="{shape.colour}"/>'

    body = "".join(element(shape) for shape in (ROUNDED, *PICTURE))
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {VIEW} {VIEW}">{body}</svg>\n'


def _inside(shape: Shape, x: np.ndarray, y: np.ndarray, scale: float) -> np.ndarray:
    """Which sample points (in the drawing's units) the shape covers; the picture scaled by
    `scale` about the centre."""
    centre = VIEW / 2
    if shape.kind != "rect":  # the background is never scaled
        x, y = (x - centre) / scale + centre, (y - centre) / scale + centre
    g = shape.geometry
    if shape.kind == "circle":
        return (x - g[0]) ** 2 + (y - g[1]) ** 2 <= g[2] ** 2
    if shape.kind == "rect":
        left, top, width, height, radius = g
        # The distance outside a rounded rectangle: from its corners' inner rectangle.
        dx = np.maximum(np.abs(x - (left + width / 2)) - (width / 2 - radius), 0)
        dy = np.maximum(np.abs(y - (top + height / 2)) - (height / 2 - radius), 0)
        return dx**2 + dy**2 <= radius**2 if radius else (dx == 0) & (dy == 0)
    (ax, ay, bx, by, cx, cy) = g

    def side(px, py, qx, qy):
        return (qx - px) * (y - py) - (qy - py) * (x - px)

    d1, d2, d3 = side(ax, ay, bx, by), side(bx, by, cx, cy), side(cx, cy, ax, ay)
    return ((d1 >= 0) & (d2 >= 0) & (d3 >= 0)) | ((d1 <= 0) & (d2 <= 0) & (d3 <= 0))


def _rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.float64) / 255


def raster(size: int, *, maskable: bool) -> np.ndarray:
    """The icon as size x size RGBA bytes (straight alpha)."""
    n = size * SAMPLES
    units = (np.arange(n, dtype=np.float64) + 0.5) * VIEW / n
    x, y = np.meshgrid(units, units)
    colour = np.zeros((size, size, 3))
    alpha = np.zeros((size, size))
    scale = MASKABLE_SCALE if maskable else 1.0
    for shape in (FULL_BLEED if maskable else ROUNDED, *PICTURE):
        covered = _inside(shape, x, y, scale).reshape(size, SAMPLES, size, SAMPLES)
        coverage = covered.mean(axis=(1, 3))
        # "Over" compositing (Porter and Duff), in straight alpha.
        new_alpha = coverage + alpha * (1 - coverage)
        blended = (
            _rgb(shape.colour) * coverage[..., None] + colour * (alpha * (1 - coverage))[..., None]
        )
        colour = np.where(
            new_alpha[..., None] > 0,
            blended / np.maximum(new_alpha, 1e-12)[..., None],
            0,
        )
        alpha = new_alpha
    pixels = np.concatenate([colour, alpha[..., None]], axis=2)
    return np.round(pixels * 255).astype(np.uint8)


def png(pixels: np.ndarray) -> bytes:
    """RGBA bytes as a PNG (https://www.w3.org/TR/png/): 8 bits a channel, no filter."""
    height, width, _ = pixels.shape

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    rows = b"".join(b"\x00" + pixels[row].tobytes() for row in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


def unpng(data: bytes) -> np.ndarray:
    """The pixels of a PNG that `png` wrote (for the test that compares them)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, idat, width, height = 8, b"", 0, 0
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    rows = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, 1 + width * 4)
    assert not rows[:, 0].any(), "only unfiltered rows"
    return rows[:, 1:].reshape(height, width, 4)


def main() -> None:
    (STATIC / "favicon.svg").write_text(svg())
    for name, (size, maskable) in ICONS.items():
        path = STATIC / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png(raster(size, maskable=maskable)))
        print(path)


if __name__ == "__main__":
    main()
