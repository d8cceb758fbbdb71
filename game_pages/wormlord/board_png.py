"""The board as a PNG for forum posts (Pillow), drawn like ``board_svg``: the same squares,
colours, Objective stars, knots and headquarters, from the public view only."""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw

from game_pages.png import SCALE, box, png_bytes, rgb, scaled, text
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


def _star(cx: float, cy: float, outer: float, inner: float) -> list[tuple[float, float]]:
    points = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = math.pi / 2 + i * math.pi / 5
        points.append((cx + r * math.cos(a), cy - r * math.sin(a)))
    return points


def _space(draw: ImageDraw.ImageDraw, space: dict[str, Any]) -> None:
    s = SCALE
    px, py = MARGIN + int(space["x"]) * CELL, MARGIN + (SIZE - 1 - int(space["y"])) * CELL
    cx, cy = px + CELL / 2, py + CELL / 2
    terrain = space["terrain"]
    fill = COLOURS.get(space.get("base") or "", TERRAIN_FILL.get(terrain, "#ffffff"))
    draw.rectangle(box(px + 1, py + 1, px + CELL - 1, py + CELL - 1), fill=rgb(fill), outline=rgb("#999999"),
                   width=s)
    if terrain == "impassable":
        draw.polygon(scaled([(px + 8, py + CELL - 8), (cx, py + 10), (px + CELL - 8, py + CELL - 8)]),
                     fill=rgb("#3a3a3a"))
    elif terrain == "objective":
        draw.polygon(scaled(_star(cx, cy, 22, 9)), fill=rgb("#f2c230"), outline=rgb("#a07800"))
    elif space.get("base"):
        text(draw, cx, cy + 7, "BASE", size=20, fill=rgb(INK[space["base"]]), anchor="ms")
    knot = space.get("knot")
    if knot:
        colour = knot["colour"]
        draw.ellipse(box(cx - 17, cy - 17, cx + 17, cy + 17), fill=rgb(COLOURS[colour]), outline=rgb("#1b1b1b"),
                     width=2 * s)
        ink = rgb(INK[colour])
        draw.arc(box(cx - 10, cy - 8, cx + 10, cy + 12), 200, 340, fill=ink, width=2 * s)
        draw.arc(box(cx - 10, cy - 12, cx + 10, cy + 8), 20, 160, fill=ink, width=2 * s)
    hq = space.get("hq")
    if hq:
        draw.rectangle(box(px + CELL - 24, py + 4, px + CELL - 4, py + 24), fill=rgb(COLOURS[hq]),
                       outline=rgb("#000000"), width=2 * s)
        text(draw, px + CELL - 14, py + 19, "H", size=13, fill=rgb(INK[hq]), anchor="ms")


def board_png(position: dict[str, Any]) -> bytes:
    """PNG bytes of the board as the public sees it (the caller passes a public view)."""
    image = Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for i, column in enumerate(COLUMNS):
        x = MARGIN + i * CELL + CELL / 2
        text(draw, x, MARGIN - 7, column, size=13, fill=(0, 0, 0), anchor="ms")
        text(draw, x, HEIGHT - 7, column, size=13, fill=(0, 0, 0), anchor="ms")
    for row in range(SIZE):
        y = MARGIN + (SIZE - 1 - row) * CELL + CELL / 2 + 5
        text(draw, MARGIN / 2, y, str(row + 1), size=13, fill=(0, 0, 0), anchor="ms")
        text(draw, WIDTH - MARGIN / 2, y, str(row + 1), size=13, fill=(0, 0, 0), anchor="ms")
    for space in position.get("squares", []):
        _space(draw, space)
    return png_bytes(image)
