"""The arena as SVG, from a viewer's ``view()`` only: the grid with its mountains and
forests, every bot as a chip with its seat, strength and score, each party's chips joined
in file order (leader first), the viewer's own bot ringed, and the moves the viewer may
see this tick (its own party's, P-R14) as arrows. Every text drawn is escaped."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

CELL = 40
MARGIN = 22
COLUMNS = "abcdefghijklmnopqrstuvwxyz"
#: one colour per seat (up to the 8 seats of a game), readable on the light ground
SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
GROUND = {".": "#f4f1de", "M": "#9e9e9e", "F": "#4f772d"}
ARROWS = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1), "S": (0, 1), "SW": (-1, 1), "W": (-1, 0),
          "NW": (-1, -1)}


def colour(seat: int) -> str:
    return SEAT_COLOURS[(seat - 1) % len(SEAT_COLOURS)]


def centre(x: int, y: int) -> tuple[float, float]:
    return MARGIN + x * CELL + CELL / 2, MARGIN + y * CELL + CELL / 2


def _terrain(rows: list[str]) -> list[str]:
    out = []
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            px, py = MARGIN + x * CELL, MARGIN + y * CELL
            kind = {"M": "mountain", "F": "forest"}.get(ch, "open")
            out.append(f'<rect class="sq {kind}" x="{px}" y="{py}" width="{CELL}" height="{CELL}" '
                       f'fill="{GROUND.get(ch, GROUND["."])}" stroke="#d8d2b8" stroke-width="0.5"/>')
            if ch == "M":
                out.append(f'<polygon points="{px + 6},{py + CELL - 7} {px + CELL / 2},{py + 7} {px + CELL - 6},{py + CELL - 7}" '
                           'fill="#6d6d6d" stroke="#fff" stroke-width="1"><title>mountain (impassable, §5.1)</title></polygon>')
            elif ch == "F":
                out.append(f'<circle cx="{px + CELL / 2}" cy="{py + CELL / 2 - 3}" r="{CELL / 3}" fill="#31572c">'
                           '<title>forest (impassable, §5.1)</title></circle>'
                           f'<rect x="{px + CELL / 2 - 2}" y="{py + CELL / 2 + 6}" width="4" height="8" fill="#5a3e1b"/>')
    return out


def _labels(width: int, height: int) -> list[str]:
    out = []
    for x in range(width):
        out.append(f'<text x="{MARGIN + x * CELL + CELL / 2}" y="{MARGIN - 7}" text-anchor="middle" '
                   f'class="coord">{COLUMNS[x]}</text>')
    for y in range(height):
        out.append(f'<text x="{MARGIN - 5}" y="{MARGIN + y * CELL + CELL / 2 + 4}" text-anchor="end" '
                   f'class="coord">{y + 1}</text>')
    return out


def _parties(position: Mapping[str, Any], at: Mapping[int, tuple[int, int]]) -> list[str]:
    out = []
    for party in position.get("parties") or []:
        members = [m for m in party.get("members") or [] if m in at]
        if len(members) < 2:
            continue
        points = " ".join(f"{centre(*at[m])[0]},{centre(*at[m])[1]}" for m in members)
        out.append(f'<polyline class="party" data-leader="{int(party["leader"])}" points="{points}" fill="none" '
                   f'stroke="{colour(int(party["leader"]))}" stroke-width="9" stroke-opacity="0.45" '
                   'stroke-linecap="round" stroke-linejoin="round"/>')
    return out


def _arrows(position: Mapping[str, Any], at: Mapping[int, tuple[int, int]]) -> list[str]:
    """The moves this viewer may see (own party's: ``pending`` is already filtered by view())."""
    out = []
    for seat_text, direction in sorted((position.get("pending") or {}).items()):
        seat = int(seat_text)
        if seat not in at or direction not in ARROWS:
            continue
        cx, cy = centre(*at[seat])
        dx, dy = ARROWS[direction]
        out.append(f'<line class="pending" x1="{cx}" y1="{cy}" x2="{cx + dx * CELL * 0.8}" y2="{cy + dy * CELL * 0.8}" '
                   'stroke="#222" stroke-width="3" marker-end="url(#arrow)"/>')
    return out


def _bots(position: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    out = []
    you = position.get("you")
    for bot in position.get("bots") or []:
        seat, x, y = int(bot["seat"]), int(bot["x"]), int(bot["y"])
        cx, cy = centre(x, y)
        role = bot.get("role", "solo")
        who = names.get(seat, f"bot {seat}")
        title = (f"{who} (seat {seat}) on {bot.get('square', '')}: strength {bot.get('strength')}, score "
                 f"{bot.get('score')}, {role}" + (f" of the party of bot {bot['party']}" if bot.get("party") else "")
                 + ("; has chosen its move" if bot.get("moved") else ""))
        ring = ' stroke="#000" stroke-width="3"' if seat == you else ' stroke="#fff" stroke-width="1.5"'
        crown = "♛" if role == "leader" else ""
        out.append(
            f'<g class="bot" data-seat="{seat}" data-square="{escape(str(bot.get("square", "")))}" '
            f'data-strength="{escape(str(bot.get("strength")))}" data-score="{escape(str(bot.get("score")))}" '
            f'data-role="{escape(role)}"><title>{escape(title)}</title>'
            f'<circle cx="{cx}" cy="{cy - 3}" r="{CELL * 0.33}" fill="{colour(seat)}"{ring}/>'
            f'<text x="{cx}" y="{cy + 1}" text-anchor="middle" class="seat">{crown}{seat}</text>'
            f'<text x="{cx}" y="{cy + CELL / 2 - 2}" text-anchor="middle" class="stats">'
            f'{escape(str(bot.get("strength")))}·{escape(str(bot.get("score")))}★</text>'
            + (f'<circle class="moved" cx="{cx + CELL * 0.33}" cy="{cy - CELL * 0.33}" r="3.5" fill="#222"/>'
               if bot.get("moved") else "")
            + "</g>"
        )
    return out


def board_svg(position: Mapping[str, Any], *, title: str, names: Mapping[int, str] | None = None) -> str:
    rows = list(position.get("terrain") or [])
    width, height = int(position.get("width") or (len(rows[0]) if rows else 0)), int(position.get("height") or len(rows))
    at = {int(b["seat"]): (int(b["x"]), int(b["y"])) for b in position.get("bots") or []}
    total_w, total_h = MARGIN + width * CELL + 4, MARGIN + height * CELL + 4
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board parties" role="img" viewBox="0 0 {total_w} {total_h}" '
        f'width="{total_w}" height="{total_h}" data-cell="{CELL}" data-margin="{MARGIN}" '
        f'data-tick="{int(position.get("tick") or 0)}" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto">'
        '<path d="M0,0 L10,5 L0,10 z" fill="#222"/></marker></defs>',
        "<style>.coord{font:11px sans-serif;fill:#555}.seat{font:bold 12px sans-serif;fill:#fff}"
        ".stats{font:9px sans-serif;fill:#111}</style>",
        *_terrain(rows), *_labels(width, height), *_parties(position, at), *_arrows(position, at),
        *_bots(position, names or {}),
        "</svg>",
    ]
    return "".join(parts)
