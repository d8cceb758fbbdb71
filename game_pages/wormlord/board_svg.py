"""The board as inline SVG, drawn from the position as the viewer got it from ``view()``
(nothing else is read). Every space is a ``<g class="space">`` with ``data-`` attributes
(its square, what the viewer may do there, the colour of the knot on it) and a ``<title>``,
so the page's script knows what a click means and a screen reader can read the board."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from django.utils.html import escape

CELL = 64
MARGIN = 24
SIZE = 7
WIDTH = HEIGHT = MARGIN * 2 + CELL * SIZE
COLUMNS = "abcdefg"

#: Fill colours of the four sides (a knot, a base, a headquarters).
COLOURS = {"pink": "#e0528a", "blue": "#2f6fd6", "yellow": "#e3bd12", "brown": "#8b5a2b"}
#: Text on a filled shape of that colour.
INK = {"pink": "#fff", "blue": "#fff", "yellow": "#1b1b1b", "brown": "#fff"}
TERRAIN_FILL = {"plain": "#f3efe4", "objective": "#fff4c7", "impassable": "#5b5b5b", "base": "#f3efe4"}
TERRAIN_WORDS = {"plain": "plain space", "objective": "Objective space", "impassable": "impassable", "base": "base"}


def neighbours(square: str) -> list[str]:
    x, y = COLUMNS.index(square[0]), int(square[1:]) - 1
    out = []
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        nx, ny = x + dx, y + dy
        if 0 <= nx < SIZE and 0 <= ny < SIZE:
            out.append(f"{COLUMNS[nx]}{ny + 1}")
    return out


def my_colour(position: Mapping[str, Any], seat: int | None) -> str | None:
    if seat is None:
        return None
    info = (position.get("seats") or {}).get(str(seat))
    return info["colour"] if info else None


def actions(position: Mapping[str, Any], colour: str | None) -> dict[str, str]:
    """What a click on each space would ask for, for the side ``colour``: ``conquer`` (an
    empty space next to one it holds or its base, §3.2 A), ``liberate`` (an enemy knot
    there without a headquarters, §3.2 B, §5) or ``hq`` (its own knot, not on an
    Objective, §5). The referee decides; this only says what the click means."""
    if colour is None:
        return {}
    squares = {s["square"]: s for s in position.get("squares", [])}
    held = {sq for sq, s in squares.items()
            if (s.get("knot") or {}).get("colour") == colour or s.get("base") == colour}
    out: dict[str, str] = {}
    for sq, s in squares.items():
        knot = s.get("knot")
        if s["terrain"] in ("impassable", "base"):
            continue
        if knot and knot["colour"] == colour:
            if s["terrain"] != "objective":
                out[sq] = "hq"
            continue
        if not any(n in held for n in neighbours(sq)):
            continue
        if knot is None:
            out[sq] = "conquer"
        elif not s.get("hq"):
            out[sq] = "liberate"
    return out


def describe(space: Mapping[str, Any], names: Mapping[int, str]) -> str:
    words = [space["square"], TERRAIN_WORDS.get(space["terrain"], space["terrain"])]
    if space.get("base"):
        words[1] = f"{space['base']}'s base"
    knot = space.get("knot")
    if knot:
        words.append(f"{knot['colour']} knot (tied by {names.get(knot['seat'], 'seat ' + str(knot['seat']))})")
    if space.get("hq"):
        words.append(f"{space['hq']} headquarters")
    return ", ".join(words)


def _space(space: Mapping[str, Any], action: str, names: Mapping[int, str]) -> str:
    x, y = int(space["x"]), int(space["y"])
    px, py = MARGIN + x * CELL, MARGIN + (SIZE - 1 - y) * CELL
    terrain = space["terrain"]
    knot = space.get("knot")
    label = describe(space, names)
    if action:
        label += {"conquer": " — click to conquer", "liberate": " — click to liberate",
                  "hq": " — click to put your headquarters here"}[action]
    data = f' data-square="{space["square"]}" data-terrain="{terrain}"'
    if knot:
        data += f' data-knot="{knot["colour"]}"'
    if action:
        data += f' data-action="{action}"'
    parts = [f'<g class="space{" can-" + action if action else ""}"{data}><title>{escape(label)}</title>']
    fill = COLOURS.get(space.get("base") or "", TERRAIN_FILL.get(terrain, "#fff"))
    stroke = ' stroke="#1b1b1b" stroke-width="3" stroke-dasharray="6 4"' if action in ("conquer", "liberate") \
        else ' stroke="#999" stroke-width="1"'
    parts.append(f'<rect x="{px + 1}" y="{py + 1}" width="{CELL - 2}" height="{CELL - 2}" fill="{fill}"{stroke}/>')
    cx, cy = px + CELL / 2, py + CELL / 2
    if terrain == "impassable":
        parts.append(f'<path d="M{px + 8},{py + CELL - 8} L{cx},{py + 10} L{px + CELL - 8},{py + CELL - 8} Z" '
                     'fill="#3a3a3a"/>')
    elif terrain == "objective":
        star = _star(cx, cy, 22, 9)
        parts.append(f'<polygon points="{star}" fill="#f2c230" stroke="#a07800" stroke-width="1"/>')
    elif space.get("base"):
        parts.append(f'<text x="{cx}" y="{cy + 7}" font-size="20" font-weight="bold" text-anchor="middle" '
                     f'fill="{INK[space["base"]]}" aria-hidden="true">BASE</text>')
    if knot:
        colour = knot["colour"]
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="17" fill="{COLOURS[colour]}" stroke="#1b1b1b" stroke-width="2"/>')
        parts.append(f'<path d="M{cx - 10},{cy + 4} q10,-16 20,0 M{cx - 10},{cy - 4} q10,16 20,0" fill="none" '
                     f'stroke="{INK[colour]}" stroke-width="2"/>')
    if space.get("hq"):
        hq = space["hq"]
        parts.append(f'<rect x="{px + CELL - 24}" y="{py + 4}" width="20" height="20" fill="{COLOURS[hq]}" '
                     'stroke="#000" stroke-width="2"/>')
        parts.append(f'<text x="{px + CELL - 14}" y="{py + 19}" font-size="13" font-weight="bold" '
                     f'text-anchor="middle" fill="{INK[hq]}" aria-hidden="true">H</text>')
    parts.append("</g>")
    return "".join(parts)


def _star(cx: float, cy: float, outer: float, inner: float) -> str:
    points = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = math.pi / 2 + i * math.pi / 5
        points.append(f"{cx + r * math.cos(a):.1f},{cy - r * math.sin(a):.1f}")
    return " ".join(points)


def board_svg(position: Mapping[str, Any], *, title: str, names: Mapping[int, str] | None = None,
              seat: int | None = None, clickable: bool = False) -> str:
    """The SVG document of the board (``clickable``: mark what the seat's click would do)."""
    names = names or {}
    todo = actions(position, my_colour(position, seat)) if clickable else {}
    body = [_space(s, todo.get(s["square"], ""), names) for s in position.get("squares", [])]
    labels = []
    for i, c in enumerate(COLUMNS):
        x = MARGIN + i * CELL + CELL / 2
        labels.append(f'<text x="{x}" y="{MARGIN - 7}" font-size="13" text-anchor="middle" aria-hidden="true">{c}</text>')
        labels.append(f'<text x="{x}" y="{HEIGHT - 7}" font-size="13" text-anchor="middle" aria-hidden="true">{c}</text>')
    for row in range(SIZE):
        y = MARGIN + (SIZE - 1 - row) * CELL + CELL / 2 + 5
        labels.append(f'<text x="{MARGIN / 2}" y="{y}" font-size="13" text-anchor="middle" aria-hidden="true">{row + 1}</text>')
        labels.append(f'<text x="{WIDTH - MARGIN / 2}" y="{y}" font-size="13" text-anchor="middle" '
                      f'aria-hidden="true">{row + 1}</text>')
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="wl-board-title" class="board wormlord" font-family="sans-serif" '
        f'style="max-width:36rem">'
        f'<title id="wl-board-title">{escape(title)}</title>\n'
        + "".join(labels) + "\n" + "\n".join(body) + "\n</svg>"
    )


def board_in_words(position: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    """Every space that is not a plain empty one, as a sentence."""
    return [describe(s, names) for s in position.get("squares", [])
            if s["terrain"] != "plain" or s.get("knot") or s.get("hq")]
