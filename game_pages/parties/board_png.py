"""The arena as a PNG for forum posts (Pillow), drawn from the public view with the same
geometry and colours as ``board_svg``: terrain, coordinates, parties as bands, every bot
as a chip with its seat and, under it, strength · score."""

from __future__ import annotations

import io
from collections.abc import Mapping
from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from game_pages.parties.board_svg import CELL, COLUMNS, GROUND, MARGIN, centre, colour

SCALE = 2


@cache
def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size * SCALE)
    except TypeError:  # Pillow without FreeType: the bitmap font
        return ImageFont.load_default()


def _hex(value: str) -> tuple[int, int, int]:
    v = value.lstrip("#")
    return int(v[0:2], 16), int(v[2:4], 16), int(v[4:6], 16)


def _terrain(draw: ImageDraw.ImageDraw, rows: list[str]) -> None:
    s = SCALE
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            px, py = MARGIN + x * CELL, MARGIN + y * CELL
            draw.rectangle((px * s, py * s, (px + CELL) * s - 1, (py + CELL) * s - 1),
                           fill=_hex(GROUND.get(ch, GROUND["."])), outline=_hex("#d8d2b8"))
            if ch == "M":
                draw.polygon([((px + 6) * s, (py + CELL - 7) * s), ((px + CELL / 2) * s, (py + 7) * s),
                              ((px + CELL - 6) * s, (py + CELL - 7) * s)], fill=_hex("#6d6d6d"), outline=(255, 255, 255))
            elif ch == "F":
                cx, cy, r = px + CELL / 2, py + CELL / 2 - 3, CELL / 3
                draw.ellipse(((cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s), fill=_hex("#31572c"))
                draw.rectangle(((px + CELL / 2 - 2) * s, (py + CELL / 2 + 6) * s, (px + CELL / 2 + 2) * s,
                                (py + CELL / 2 + 14) * s), fill=_hex("#5a3e1b"))


def _labels(draw: ImageDraw.ImageDraw, width: int, height: int) -> None:
    s = SCALE
    for x in range(width):
        draw.text(((MARGIN + x * CELL + CELL / 2) * s, (MARGIN - 7) * s), COLUMNS[x], fill=_hex("#555555"),
                  font=_font(11), anchor="ms")
    for y in range(height):
        draw.text(((MARGIN - 5) * s, (MARGIN + y * CELL + CELL / 2 + 4) * s), str(y + 1), fill=_hex("#555555"),
                  font=_font(11), anchor="rs")


def _parties(draw: ImageDraw.ImageDraw, position: Mapping[str, Any], at: Mapping[int, tuple[int, int]]) -> None:
    s = SCALE
    for party in position.get("parties") or []:
        members = [m for m in party.get("members") or [] if m in at]
        if len(members) < 2:
            continue
        r, g, b = _hex(colour(int(party["leader"])))
        points = [(centre(*at[m])[0] * s, centre(*at[m])[1] * s) for m in members]
        draw.line(points, fill=(r, g, b, 115), width=9 * s, joint="curve")


def _bots(draw: ImageDraw.ImageDraw, position: Mapping[str, Any]) -> None:
    s = SCALE
    for bot in position.get("bots") or []:
        seat = int(bot["seat"])
        cx, cy = centre(int(bot["x"]), int(bot["y"]))
        r = CELL * 0.33
        draw.ellipse(((cx - r) * s, (cy - 3 - r) * s, (cx + r) * s, (cy - 3 + r) * s), fill=_hex(colour(seat)),
                     outline=(255, 255, 255), width=2 * s)
        label = ("L" if bot.get("role") == "leader" else "") + str(seat)  # the crown glyph is not in every font
        draw.text((cx * s, (cy + 1) * s), label, fill=(255, 255, 255), font=_font(12), anchor="ms",
                  stroke_width=1, stroke_fill=(255, 255, 255))
        stats = f"{bot.get('strength')}·{bot.get('score')}"
        draw.text((cx * s, (cy + CELL / 2 - 2) * s), stats, fill=_hex("#111111"), font=_font(9), anchor="ms")


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
    out = io.BytesIO()
    image.convert("RGB").save(out, format="PNG", optimize=True)
    return out.getvalue()
