"""The map as a PNG for forum posts (Pillow), drawn like ``board_svg`` from the view it is
given: the forum export passes the public view, so it shows the published map and the
scoreboard (every unit's hit points are public, L-R21) but no unit's square and no mine."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from game_pages.lggwg.board_svg import CELL, FLOOR, MARGIN, colour_of
from game_pages.png import SCALE, box, circle_box, font, png_bytes, rgb, scaled
from game_pages.png import text as draw_text
from games.lggwg.board import parse_square

LINE = 16  # one line of the scoreboard under the map
INK = (17, 17, 17)
MUTED = (85, 85, 85)
BASE = {"#": "#5c5c5c", "?": "#1c1c1c"}


class _Canvas:
    """Drawing in the SVG's units (``board_svg``'s CELL and MARGIN), scaled up."""

    def __init__(self, width: int, height: int) -> None:
        self.image = Image.new("RGB", (width * SCALE, height * SCALE), (255, 255, 255))
        self.draw = ImageDraw.Draw(self.image, "RGBA")

    def rect(self, x: float, y: float, w: float, h: float, fill: str | tuple[int, ...] | None,
             outline: str | None = None, width: float = 1) -> None:
        self.draw.rectangle(box(x, y, x + w, y + h), fill=rgb(fill) if isinstance(fill, str) else fill,
                            outline=rgb(outline) if outline else None, width=max(1, int(width * SCALE)))

    def circle(self, cx: float, cy: float, r: float, fill: str | None, outline: str | None = None,
               width: float = 1.5) -> None:
        self.draw.ellipse(circle_box(cx, cy, r), fill=rgb(fill) if fill else None,
                          outline=rgb(outline) if outline else None, width=max(1, int(width * SCALE)))

    def line(self, points: Sequence[tuple[float, float]], colour: str, width: float) -> None:
        self.draw.line(scaled(points), fill=rgb(colour), width=int(width * SCALE), joint="curve")

    def text(self, x: float, y: float, text: str, *, size: int = 11, fill: tuple[int, int, int] = INK,
             anchor: str = "mm", bold: bool = False) -> None:
        draw_text(self.draw, x, y, text, size=size, fill=fill, anchor=anchor, bold=bold)


def _terrain(c: _Canvas, t: str, px: float, py: float) -> None:
    cx, cy = px + CELL / 2, py + CELL / 2
    c.rect(px, py, CELL, CELL, BASE.get(t, FLOOR), "#c9c2b0", 0.5)
    if t == "+":
        c.rect(px + 4, py + 2, CELL - 8, CELL - 4, "#8b5a2b", "#4d2f12")
    elif t == "_":
        c.rect(px + 1, py + 2, 4, CELL - 4, "#8b5a2b")
        c.rect(px + CELL - 5, py + 2, 4, CELL - 4, "#8b5a2b")
    elif t == "L":
        c.rect(px + 3, py + 2, CELL - 6, CELL - 4, "#5a2b0b", "#222222")
        c.rect(cx - 5, cy - 2, 10, 8, "#d8b04a")
    elif t == "=":
        c.rect(px + 2, cy - 6, CELL - 4, 12, "#bfe3f5", "#5a8fb0")
    elif t == "c":
        c.rect(px + 5, py + 5, CELL - 10, CELL - 10, "#b8862b", "#5d4010")
        c.line([(px + 5, py + 5), (px + CELL - 5, py + CELL - 5)], "#5d4010", 1)
        c.line([(px + CELL - 5, py + 5), (px + 5, py + CELL - 5)], "#5d4010", 1)
    elif t == "n":
        c.rect(px + 4, py + 4, CELL - 8, CELL - 8, "#e8d000", "#333333", 2)
        c.circle(cx, cy, 7, "#222222", None)
    elif t == "h":
        c.rect(px + 6, py + 6, CELL - 12, CELL - 12, "#ffffff", "#bb0000")
        c.line([(cx, cy - 7), (cx, cy + 7)], "#dd0000", 4)
        c.line([(cx - 7, cy), (cx + 7, cy)], "#dd0000", 4)
    elif t == "?":
        c.text(cx, cy, "?", size=14, fill=(119, 119, 119))


def _unit(c: _Canvas, u: Mapping[str, Any]) -> None:
    cx, cy = MARGIN + int(u["x"]) * CELL + CELL / 2, MARGIN + int(u["y"]) * CELL + CELL / 2
    colour = colour_of(str(u.get("colour", "X")))
    kind = str(u.get("type", ""))
    if kind == "G":
        c.line([(cx - 8, cy + 12), (cx - 8, cy - 13)], "#222222", 2)
        c.draw.polygon(scaled([(cx - 8, cy - 13), (cx + 11, cy - 7), (cx - 8, cy - 1)]), fill=rgb(colour),
                       outline=rgb("#222222"))
    elif kind == "W":
        s = SCALE
        c.draw.ellipse(((cx - 12) * s, (cy - 9) * s, (cx + 12) * s, (cy + 9) * s), fill=(255, 255, 255),
                       outline=rgb("#555555"), width=s)
        c.circle(cx + 10, cy - 3, 4, "#333333")
    else:
        c.circle(cx, cy - 2, 12, colour, "#111111")
        c.text(cx, cy - 2, kind, size=13, fill=(255, 255, 255), bold=True)
    c.rect(cx + 2, cy + 7, 15, 10, (255, 255, 255, 217))
    c.text(cx + 9.5, cy + 12, str(int(u.get("hp", 0))), size=10, bold=True)


def _shots(c: _Canvas, position: Mapping[str, Any]) -> None:
    for record in position.get("last_resolution") or []:
        colour = colour_of(str(record.get("colour", "X")))
        for path in record.get("paths") or []:
            points = []
            for sq in path:
                try:
                    x, y = parse_square(str(sq))
                except ValueError:
                    continue
                points.append((MARGIN + x * CELL + CELL / 2, MARGIN + y * CELL + CELL / 2))
            if not points:
                continue
            if len(points) > 1:
                c.line(points, colour, 3)
            ex, ey = points[-1]
            c.circle(ex, ey, 9, None, colour, 2)
            c.circle(ex, ey, 5, colour)
            sx, sy = points[0]
            c.text(sx + 9, sy - 8, str(record.get("step", "")), size=10, fill=rgb(colour), anchor="ls", bold=True)


def scoreboard_lines(position: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(colour code, line) per team: score, kills, sheep and each unit's hit points (public)."""
    roster = position.get("roster") or []
    lines = [("", f"Turn {position.get('turn')} of {position.get('max_turns')}"
                  + (" · the game is over" if position.get("phase") == "over" else ""))]
    for t in position.get("teams") or []:
        units = ", ".join(f"{u['id']} {u.get('hp')}/{u.get('max_hp')}" for u in roster if u.get("team") == t.get("seat"))
        out = f" (out: {t['out']})" if t.get("out") else ""
        lines.append((str(t.get("colour", "X")), f"{t.get('colour_name')}{out}: score {t.get('score')}, kills "
                                                  f"{t.get('kills')}, sheep {t.get('sheep')} · {units or 'no units left'}"))
    return lines


def board_png(position: Mapping[str, Any]) -> bytes:
    """PNG bytes of the map as ``position`` (a view) shows it, the scoreboard beneath."""
    width, height = int(position.get("width", 0)), int(position.get("height", 0))
    squares: list[str] = list(position.get("squares") or [])
    fog: list[str] = list(position.get("fog") or [])
    board_w, board_h = MARGIN + width * CELL + 4, MARGIN + height * CELL + 4
    lines = scoreboard_lines(position)
    text_w = max(font(11).getlength(text) / SCALE + 26 for _, text in lines)
    c = _Canvas(int(max(board_w, text_w)), board_h + 8 + LINE * len(lines))
    for x in range(width):
        c.text(MARGIN + x * CELL + CELL / 2, 11, chr(ord("a") + x), fill=MUTED)
    for y in range(height):
        c.text(MARGIN - 4, MARGIN + y * CELL + CELL / 2, str(y + 1), fill=MUTED, anchor="rm")
    for y in range(height):
        row = squares[y] if y < len(squares) else ""
        fog_row = fog[y] if y < len(fog) else ""
        for x in range(width):
            px, py = MARGIN + x * CELL, MARGIN + y * CELL
            _terrain(c, row[x] if x < len(row) else "?", px, py)
            # the public view "remembers" the published map everywhere: dim only a team's memory
            if fog_row[x:x + 1] == "m" and position.get("you") is not None:
                c.rect(px, py, CELL, CELL, (32, 35, 42, 97))
    for m in position.get("mines") or []:
        cx, cy = MARGIN + int(m["x"]) * CELL + 7, MARGIN + int(m["y"]) * CELL + CELL - 7
        c.circle(cx, cy, 4.5, colour_of(str(m.get("colour", "X"))), "#111111", 1)
    for u in position.get("units") or []:
        if "x" in u and "y" in u:
            _unit(c, u)
    _shots(c, position)
    y = board_h + 8 + LINE / 2
    for code, text in lines:
        if code:
            c.rect(6, y - 5, 10, 10, colour_of(code), "#111111")
        c.text(22 if code else 6, y, text, size=11, anchor="lm")
        y += LINE
    return png_bytes(c.image)
