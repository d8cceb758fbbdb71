"""The board as a PNG for forum posts (Pillow), drawn like ``board_svg``: the same squares,
colours, Objective stars, knots and headquarters, from the public view only."""

from __future__ import annotations

import io
import math
from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from game_pages.wormlord.board_svg import (
    CELL,
    COLOURS,
    COLUMNS,
    HEIGHT,
    INK,
    MARGIN,
    SIZE,
    TERRAIN_FILL,
    WIDTH,
)

SCALE = 2


def _rgb(value: str) -> tuple[int, int, int]:
    v = value.lstrip("#")
    if len(v) == 3:
        v = "".join(c * 2 for c in v)
    return int(v[0:2], 16), int(v[2:4], 16), int(v[4:6], 16)


@cache
def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size * SCALE)
    except TypeError:  # Pillow without FreeType: the bitmap font
        return ImageFont.load_default()


def _star(cx: float, cy: float, outer: float, inner: float) -> list[tuple[float, float]]:
    points = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = math.pi / 2 + i * math.pi / 5
        points.append(((cx + r * math.cos(a)) * SCALE, (cy - r * math.sin(a)) * SCALE))
    return points


def _box(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
    return x0 * SCALE, y0 * SCALE, x1 * SCALE - 1, y1 * SCALE - 1


def _space(draw: ImageDraw.ImageDraw, space: dict[str, Any]) -> None:
    s = SCALE
    px, py = MARGIN + int(space["x"]) * CELL, MARGIN + (SIZE - 1 - int(space["y"])) * CELL
    cx, cy = px + CELL / 2, py + CELL / 2
    terrain = space["terrain"]
    fill = COLOURS.get(space.get("base") or "", TERRAIN_FILL.get(terrain, "#ffffff"))
    draw.rectangle(_box(px + 1, py + 1, px + CELL - 1, py + CELL - 1), fill=_rgb(fill), outline=_rgb("#999999"),
                   width=s)
    if terrain == "impassable":
        draw.polygon([((px + 8) * s, (py + CELL - 8) * s), (cx * s, (py + 10) * s),
                      ((px + CELL - 8) * s, (py + CELL - 8) * s)], fill=_rgb("#3a3a3a"))
    elif terrain == "objective":
        draw.polygon(_star(cx, cy, 22, 9), fill=_rgb("#f2c230"), outline=_rgb("#a07800"))
    elif space.get("base"):
        draw.text((cx * s, (cy + 7) * s), "BASE", fill=_rgb(INK[space["base"]]), font=_font(20), anchor="ms")
    knot = space.get("knot")
    if knot:
        colour = knot["colour"]
        draw.ellipse(_box(cx - 17, cy - 17, cx + 17, cy + 17), fill=_rgb(COLOURS[colour]), outline=_rgb("#1b1b1b"),
                     width=2 * s)
        ink = _rgb(INK[colour])
        draw.arc(_box(cx - 10, cy - 8, cx + 10, cy + 12), 200, 340, fill=ink, width=2 * s)
        draw.arc(_box(cx - 10, cy - 12, cx + 10, cy + 8), 20, 160, fill=ink, width=2 * s)
    hq = space.get("hq")
    if hq:
        draw.rectangle(_box(px + CELL - 24, py + 4, px + CELL - 4, py + 24), fill=_rgb(COLOURS[hq]),
                       outline=_rgb("#000000"), width=2 * s)
        draw.text(((px + CELL - 14) * s, (py + 19) * s), "H", fill=_rgb(INK[hq]), font=_font(13), anchor="ms")


def board_png(position: dict[str, Any]) -> bytes:
    """PNG bytes of the board as the public sees it (the caller passes a public view)."""
    image = Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    s = SCALE
    for i, column in enumerate(COLUMNS):
        x = (MARGIN + i * CELL + CELL / 2) * s
        draw.text((x, (MARGIN - 7) * s), column, fill=(0, 0, 0), font=_font(13), anchor="ms")
        draw.text((x, (HEIGHT - 7) * s), column, fill=(0, 0, 0), font=_font(13), anchor="ms")
    for row in range(SIZE):
        y = (MARGIN + (SIZE - 1 - row) * CELL + CELL / 2 + 5) * s
        draw.text((MARGIN / 2 * s, y), str(row + 1), fill=(0, 0, 0), font=_font(13), anchor="ms")
        draw.text(((WIDTH - MARGIN / 2) * s, y), str(row + 1), fill=(0, 0, 0), font=_font(13), anchor="ms")
    for space in position.get("squares", []):
        _space(draw, space)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
