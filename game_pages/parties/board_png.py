"""The arena as a PNG for forum posts (Pillow), drawn from the public view with the same
geometry and colours as ``board_svg``: terrain, coordinates, parties as bands, every bot
as a chip with its seat and, under it, strength · score."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from game_pages.parties.board_svg import CELL, COLUMNS, GROUND, MARGIN, centre, colour
from game_pages.png import SCALE, box, circle_box, png_bytes, rgb, scaled, text


def _terrain(draw: ImageDraw.ImageDraw, rows: list[str]) -> None:
    s = SCALE
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            px, py = MARGIN + x * CELL, MARGIN + y * CELL
            draw.rectangle(box(px, py, px + CELL, py + CELL), fill=rgb(GROUND.get(ch, GROUND["."])), outline=rgb("#d8d2b8"))
            if ch == "M":
                draw.polygon(scaled([(px + 6, py + CELL - 7), (px + CELL / 2, py + 7), (px + CELL - 6, py + CELL - 7)]),
                             fill=rgb("#6d6d6d"), outline=(255, 255, 255))
            elif ch == "F":
                cx, cy, r = px + CELL / 2, py + CELL / 2 - 3, CELL / 3
                draw.ellipse(circle_box(cx, cy, r), fill=rgb("#31572c"))
                draw.rectangle(((px + CELL / 2 - 2) * s, (py + CELL / 2 + 6) * s, (px + CELL / 2 + 2) * s,
                                (py + CELL / 2 + 14) * s), fill=rgb("#5a3e1b"))


def _labels(draw: ImageDraw.ImageDraw, width: int, height: int) -> None:
    for x in range(width):
        text(draw, MARGIN + x * CELL + CELL / 2, MARGIN - 7, COLUMNS[x], size=11, fill=rgb("#555555"), anchor="ms")
    for y in range(height):
        text(draw, MARGIN - 5, MARGIN + y * CELL + CELL / 2 + 4, str(y + 1), size=11, fill=rgb("#555555"), anchor="rs")


def _parties(draw: ImageDraw.ImageDraw, position: Mapping[str, Any], at: Mapping[int, tuple[int, int]]) -> None:
    for party in position.get("parties") or []:
        members = [m for m in party.get("members") or [] if m in at]
        if len(members) < 2:
            continue
        r, g, b = rgb(colour(int(party["leader"])))
        draw.line(scaled(centre(*at[m]) for m in members), fill=(r, g, b, 115), width=9 * SCALE, joint="curve")


def _bots(draw: ImageDraw.ImageDraw, position: Mapping[str, Any]) -> None:
    s = SCALE
    for bot in position.get("bots") or []:
        seat = int(bot["seat"])
        cx, cy = centre(int(bot["x"]), int(bot["y"]))
        r = CELL * 0.33
        draw.ellipse(circle_box(cx, cy - 3, r), fill=rgb(colour(seat)), outline=(255, 255, 255), width=2 * s)
        label = ("L" if bot.get("role") == "leader" else "") + str(seat)  # the crown glyph is not in every font
        text(draw, cx, cy + 1, label, size=12, fill=(255, 255, 255), anchor="ms", bold=True)
        stats = f"{bot.get('strength')}·{bot.get('score')}"
        text(draw, cx, cy + CELL / 2 - 2, stats, size=9, fill=rgb("#111111"), anchor="ms")


def board_png(position: Mapping[str, Any]) -> bytes:
    """PNG bytes of the arena as the public sees it (the caller passes a public view)."""
    rows = list(position.get("terrain") or [])
    width = int(position.get("width") or (len(rows[0]) if rows else 0))
    height = int(position.get("height") or len(rows))
    at = {int(b["seat"]): (int(b["x"]), int(b["y"])) for b in position.get("bots") or []}
    size = ((MARGIN + width * CELL + 4) * SCALE, (MARGIN + height * CELL + 4) * SCALE)
    image = Image.new("RGBA", size, (255, 255, 255, 255))
    draw = ImageDraw.Draw(image, "RGBA")  # blends the translucent party bands
    _terrain(draw, rows)
    _labels(draw, width, height)
    _parties(draw, position, at)
    _bots(draw, position)
    return png_bytes(image)
