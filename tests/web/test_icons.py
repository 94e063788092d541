"""The committed icons are what web/icons.py draws (no image in the repository comes from
elsewhere): the favicon's SVG text, and each PNG's pixels; and each PNG has the size the manifest
says, opaque where a maskable icon must be."""

from __future__ import annotations

import numpy as np
import pytest

from web import icons
from web.icon_files import ICONS


def test_the_favicon_is_drawn_by_the_script():
    assert (icons.STATIC / "favicon.svg").read_text() == icons.svg()


@pytest.mark.parametrize(("name", "drawn"), ICONS.items())
def test_each_png_is_drawn_by_the_script(name, drawn):
    size, maskable = drawn
    committed = icons.unpng((icons.STATIC / name).read_bytes())
    assert committed.shape == (size, size, 4)
    assert np.array_equal(committed, icons.raster(size, maskable=maskable))


def test_a_maskable_icon_is_opaque_to_its_edges_and_the_other_rounded():
    maskable = icons.unpng((icons.STATIC / "icons/icon-maskable-512.png").read_bytes())
    rounded = icons.unpng((icons.STATIC / "icons/icon-512.png").read_bytes())
    assert (maskable[..., 3] == 255).all()
    assert rounded[0, 0, 3] == 0 and rounded[256, 256, 3] == 255


def test_the_maskable_picture_keeps_inside_the_safe_circle():
    """Outside the circle of radius 0.4 x size (W3C "icon masks") only the board's colour."""
    pixels = icons.unpng((icons.STATIC / "icons/icon-maskable-512.png").read_bytes())
    y, x = np.mgrid[0:512, 0:512] + 0.5
    outside = (x - 256) ** 2 + (y - 256) ** 2 > (0.4 * 512) ** 2
    board = np.array([int(icons.BOARD[i : i + 2], 16) for i in (1, 3, 5)])
    assert (pixels[outside][:, :3] == board).all()


def test_png_round_trip():
    pixels = np.arange(3 * 2 * 4, dtype=np.uint8).reshape(3, 2, 4)
    assert np.array_equal(icons.unpng(icons.png(pixels)), pixels)
