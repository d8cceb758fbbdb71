"""What every ruleset's ``board_png`` shares (Pillow): each draws a forum post's PNG in its
SVG's own units, multiplied by ``SCALE``, so the picture keeps the SVG's geometry and colours
at twice the pixels."""

from __future__ import annotations

import io
from collections.abc import Iterable
from functools import cache

from PIL import Image, ImageDraw, ImageFont

SCALE = 2

RGB = tuple[int, int, int]


def rgb(value: str) -> RGB:
    """``#rrggbb`` (or the SVG shorthand ``#rgb``) as Pillow's colour."""
    v = value.lstrip("#")
    if len(v) == 3:
        v = "".join(c * 2 for c in v)
    return int(v[0:2], 16), int(v[2:4], 16), int(v[4:6], 16)


def rgba(value: str) -> tuple[int, int, int, int] | None:
    """``#rrggbb`` or ``#rrggbbaa`` with its alpha; ``none`` or nothing is no paint at all."""
    if not value or value == "none":
        return None
    v = value.lstrip("#")
    return (*rgb(v[:6]), int(v[6:8], 16) if len(v) == 8 else 255)


@cache
def font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    """Pillow's own font at ``size`` SVG units: the server needs no font files."""
    try:
        return ImageFont.load_default(size=size * SCALE)
    except TypeError:  # Pillow without FreeType: the bitmap font
        return ImageFont.load_default()


def box(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
    """The pixels of the SVG rectangle from (x0, y0) to (x1, y1): Pillow includes both
    corners, the SVG not the far one."""
    return x0 * SCALE, y0 * SCALE, x1 * SCALE - 1, y1 * SCALE - 1


def circle_box(cx: float, cy: float, r: float) -> tuple[float, float, float, float]:
    """The box Pillow draws the SVG circle at (cx, cy) of radius r in."""
    return (cx - r) * SCALE, (cy - r) * SCALE, (cx + r) * SCALE, (cy + r) * SCALE


def scaled(points: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    return [(x * SCALE, y * SCALE) for x, y in points]


def text(draw: ImageDraw.ImageDraw, x: float, y: float, words: str, *, size: int, fill: tuple[int, ...] | None,
         anchor: str, bold: bool = False) -> None:
    """``words`` at the SVG point (x, y); bold is the text outlined in its own colour (the
    default font has no bold face)."""
    draw.text((x * SCALE, y * SCALE), words, fill=fill, font=font(size), anchor=anchor,
              stroke_width=1 if bold else 0, stroke_fill=fill)


def png_bytes(image: Image.Image) -> bytes:
    """The picture as PNG bytes, without an alpha channel (forum images are opaque)."""
    out = io.BytesIO()
    (image if image.mode == "RGB" else image.convert("RGB")).save(out, format="PNG", optimize=True)
    return out.getvalue()
