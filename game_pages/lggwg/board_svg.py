"""The map as SVG, drawn from one viewer's ``view()`` only: squares seen now, remembered
(dimmed) and never seen ("?"), the terrain, the mines and units that view holds, and the
paths of the last resolution's shots (every step that view was told in full)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from games.lggwg.board import parse_square

CELL = 34
MARGIN = 22
COLOURS = {"R": "#d62728", "B": "#1f5fd6", "Y": "#c99a00", "G": "#2a9d3a", "X": "#8a8a8a"}
TERRAIN_NAMES = {".": "floor", "#": "wall", "+": "door", "_": "open door", "L": "locked door", "=": "window",
                 "c": "crate", "n": "nuclear crate", "h": "health pack", "?": "never seen"}
FLOOR = "#ece6d6"

STYLE = """
svg.lggwg text { font-family: sans-serif; pointer-events: none; }
svg.lggwg .label { font-size: 11px; fill: #555; }
svg.lggwg .remembered { fill: #20232a; opacity: .38; pointer-events: none; }
svg.lggwg .unit-type { font-size: 13px; font-weight: bold; fill: #fff; }
svg.lggwg .hp { font-size: 10px; font-weight: bold; fill: #111; }
svg.lggwg .wear { font-size: 9px; fill: #fff; }
svg.lggwg .shot { fill: none; stroke-width: 3; stroke-linecap: round; stroke-linejoin: round; opacity: .8; }
svg.lggwg .shot.faint { opacity: .18; }
svg.lggwg .step-no { font-size: 10px; font-weight: bold; }
svg.lggwg g.square { cursor: pointer; }
"""


def colour_of(code: str) -> str:
    return COLOURS.get(code, COLOURS["X"])


def _centre(x: int, y: int) -> tuple[float, float]:
    return MARGIN + x * CELL + CELL / 2, MARGIN + y * CELL + CELL / 2


def _terrain(t: str, x: int, y: int) -> list[str]:
    px, py = MARGIN + x * CELL, MARGIN + y * CELL
    cx, cy = px + CELL / 2, py + CELL / 2
    out = [f'<rect x="{px}" y="{py}" width="{CELL}" height="{CELL}" fill="{_base(t)}" stroke="#c9c2b0" '
           f'stroke-width=".5"/>']
    if t == "+":
        out.append(f'<rect x="{px + 4}" y="{py + 2}" width="{CELL - 8}" height="{CELL - 4}" fill="#8b5a2b" '
                   f'stroke="#4d2f12"/><circle cx="{px + CELL - 9}" cy="{cy}" r="2" fill="#e0c060"/>')
    elif t == "_":
        out.append(f'<rect x="{px + 1}" y="{py + 2}" width="4" height="{CELL - 4}" fill="#8b5a2b"/>'
                   f'<rect x="{px + CELL - 5}" y="{py + 2}" width="4" height="{CELL - 4}" fill="#8b5a2b"/>')
    elif t == "L":
        out.append(f'<rect x="{px + 3}" y="{py + 2}" width="{CELL - 6}" height="{CELL - 4}" fill="#5a2b0b" '
                   f'stroke="#222"/><rect x="{cx - 5}" y="{cy - 2}" width="10" height="8" fill="#d8b04a"/>'
                   f'<path d="M{cx - 3},{cy - 2} v-4 a3,3 0 0 1 6,0 v4" fill="none" stroke="#d8b04a" '
                   f'stroke-width="2"/>')
    elif t == "=":
        out.append(f'<rect x="{px + 2}" y="{cy - 6}" width="{CELL - 4}" height="12" fill="#bfe3f5" stroke="#5a8fb0"/>'
                   f'<line x1="{cx}" y1="{cy - 6}" x2="{cx}" y2="{cy + 6}" stroke="#5a8fb0"/>')
    elif t == "c":
        out.append(f'<rect x="{px + 5}" y="{py + 5}" width="{CELL - 10}" height="{CELL - 10}" fill="#b8862b" '
                   f'stroke="#5d4010"/><path d="M{px + 5},{py + 5} L{px + CELL - 5},{py + CELL - 5} '
                   f'M{px + CELL - 5},{py + 5} L{px + 5},{py + CELL - 5}" stroke="#5d4010"/>')
    elif t == "n":
        out.append(f'<rect x="{px + 4}" y="{py + 4}" width="{CELL - 8}" height="{CELL - 8}" fill="#e8d000" '
                   f'stroke="#333" stroke-width="2"/><circle cx="{cx}" cy="{cy}" r="7" fill="#222"/>'
                   f'<circle cx="{cx}" cy="{cy}" r="2.5" fill="#e8d000"/>')
    elif t == "h":
        out.append(f'<rect x="{px + 6}" y="{py + 6}" width="{CELL - 12}" height="{CELL - 12}" fill="#fff" '
                   f'stroke="#b00"/><path d="M{cx},{cy - 7} v14 M{cx - 7},{cy} h14" stroke="#d00" stroke-width="4"/>')
    elif t == "?":
        out.append(f'<text x="{cx}" y="{cy + 5}" text-anchor="middle" font-size="14" fill="#777">?</text>')
    return out


def _base(t: str) -> str:
    return {"#": "#5c5c5c", "?": "#1c1c1c", "L": FLOOR}.get(t, FLOOR)


def _unit(u: Mapping[str, Any]) -> str:
    x, y = int(u["x"]), int(u["y"])
    cx, cy = _centre(x, y)
    colour = colour_of(str(u.get("colour", "X")))
    title = escape(f"{u['id']} {u.get('name', '')} ({u.get('colour', 'X')}) at {u.get('square', '')}: "
                   f"{u.get('hp')} of {u.get('max_hp')} hit points"
                   + (f", {u['mines']} mines left" if "mines" in u else ""))
    kind = str(u.get("type", ""))
    attrs = f'class="unit" data-unit={quoteattr(str(u["id"]))} data-square={quoteattr(str(u.get("square", "")))}'
    if kind == "G":  # a flag: a pole and a pennant in its owner's colour
        body = (f'<line x1="{cx - 8}" y1="{cy + 12}" x2="{cx - 8}" y2="{cy - 13}" stroke="#222" stroke-width="2"/>'
                f'<path d="M{cx - 8},{cy - 13} L{cx + 11},{cy - 7} L{cx - 8},{cy - 1} Z" fill="{colour}" '
                f'stroke="#222"/>')
    elif kind == "W":  # a sheep
        body = (f'<ellipse cx="{cx}" cy="{cy}" rx="12" ry="9" fill="#fff" stroke="#555"/>'
                f'<circle cx="{cx + 10}" cy="{cy - 3}" r="4" fill="#333"/>')
    else:
        body = (f'<circle cx="{cx}" cy="{cy - 2}" r="12" fill="{colour}" stroke="#111" stroke-width="1.5"/>'
                f'<text class="unit-type" x="{cx}" y="{cy + 3}" text-anchor="middle">{escape(kind)}</text>')
    hp = (f'<rect x="{cx + 2}" y="{cy + 7}" width="15" height="10" rx="2" fill="#fff" opacity=".85"/>'
          f'<text class="hp" x="{cx + 9.5}" y="{cy + 15}" text-anchor="middle">{int(u.get("hp", 0))}</text>')
    return f"<g {attrs}><title>{title}</title>{body}{hp}</g>"


def _mine(m: Mapping[str, Any]) -> str:
    px, py = MARGIN + int(m["x"]) * CELL, MARGIN + int(m["y"]) * CELL
    cx, cy = px + 7, py + CELL - 7
    colour = colour_of(str(m.get("colour", "X")))
    spikes = f"M{cx - 6},{cy} h12 M{cx},{cy - 6} v12"
    return (f'<g class="mine"><title>{escape(str(m.get("colour", "")))} mine at {escape(str(m.get("square", "")))}'
            f'</title><path d="{spikes}" stroke="#111" stroke-width="1.5"/>'
            f'<circle cx="{cx}" cy="{cy}" r="4.5" fill="{colour}" stroke="#111"/></g>')


def _path_points(path: Sequence[str]) -> list[tuple[float, float]]:
    points = []
    for sq in path:
        try:
            x, y = parse_square(str(sq))
        except ValueError:
            continue
        points.append(_centre(x, y))
    return points


def _shots(position: Mapping[str, Any], step: int | None) -> list[str]:
    out = []
    for record in position.get("last_resolution") or []:
        for path in record.get("paths") or []:
            points = _path_points(path)  # the squares crossed, without the shooter's own
            if not points:
                continue
            n = int(record.get("step", 0))
            faint = " faint" if step is not None and n != step else ""
            colour = colour_of(str(record.get("colour", "X")))
            line = " ".join(f"{x:.0f},{y:.0f}" for x, y in points)
            ex, ey = points[-1]
            sx, sy = points[0]
            out.append(
                f'<g class="shot-step{faint}" data-step="{n}"><title>step {n}: {escape(str(record.get("unit", "")))} '
                f'{escape(str(record.get("kind", "")))} → {escape(str(path[-1]))}</title>'
                + (f'<polyline class="shot{faint}" points="{line}" stroke="{colour}"/>' if len(points) > 1 else "")
                + f'<circle class="shot{faint}" cx="{ex:.0f}" cy="{ey:.0f}" r="9" fill="none" stroke="{colour}"/>'
                f'<circle class="shot{faint}" cx="{ex:.0f}" cy="{ey:.0f}" r="5" fill="{colour}"/>'
                f'<text class="step-no" x="{sx + 9:.0f}" y="{sy - 8:.0f}" fill="{colour}">{n}</text></g>'
            )
    return out


def board_svg(position: Mapping[str, Any], *, title: str, step: int | None = None, standalone: bool = True) -> str:
    squares: list[str] = list(position.get("squares") or [])
    fog: list[str] = list(position.get("fog") or [])
    width, height = int(position.get("width", 0)), int(position.get("height", 0))
    w, h = MARGIN + width * CELL + 4, MARGIN + height * CELL + 4
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="lggwg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
        f'role="img" aria-labelledby="lggwg-title">',
        f'<title id="lggwg-title">{escape(title)}</title><style>{STYLE}</style>',
    ]
    for x in range(width):
        parts.append(f'<text class="label" x="{MARGIN + x * CELL + CELL / 2}" y="15" text-anchor="middle">'
                     f'{chr(ord("a") + x)}</text>')
    for y in range(height):
        parts.append(f'<text class="label" x="{MARGIN - 4}" y="{MARGIN + y * CELL + CELL / 2 + 4}" '
                     f'text-anchor="end">{y + 1}</text>')
    wear = {str(wr.get("square")): int(wr.get("damage", 0)) for wr in position.get("wear") or []}
    for y in range(height):
        row = squares[y] if y < len(squares) else ""
        fog_row = fog[y] if y < len(fog) else ""
        for x in range(width):
            t = row[x] if x < len(row) else "?"
            f = fog_row[x] if x < len(fog_row) else "u"
            sq = f"{chr(ord('a') + x)}{y + 1}"
            seen = {"v": "seen now", "m": "remembered", "u": "never seen"}.get(f, "")
            parts.append(f'<g class="square" data-square="{sq}" data-terrain={quoteattr(t)} data-fog="{f}">'
                         f'<title>{sq}: {escape(TERRAIN_NAMES.get(t, t))} ({seen})</title>')
            parts += _terrain(t, x, y)
            if f == "m":
                parts.append(f'<rect class="remembered" x="{MARGIN + x * CELL}" y="{MARGIN + y * CELL}" '
                             f'width="{CELL}" height="{CELL}"/>')
            if sq in wear:
                parts.append(f'<text class="wear" x="{MARGIN + x * CELL + CELL - 3}" y="{MARGIN + y * CELL + 10}" '
                             f'text-anchor="end">{wear[sq]}/5</text>')
            parts.append("</g>")
    parts += [_mine(m) for m in position.get("mines") or []]
    parts += [_unit(u) for u in position.get("units") or []]
    parts += _shots(position, step)
    parts.append("</svg>")
    svg = "".join(parts)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + svg) if standalone else svg


def board_in_words(position: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    """What the picture shows, as sentences (for screen readers)."""
    lines = []
    you = position.get("you")
    for u in position.get("units") or []:
        owner = "your" if you is not None and u.get("team") == you else (
            f"{names.get(int(u['team']), 'seat ' + str(u['team']))}'s" if u.get("team") else "a neutral")
        lines.append(f"{u.get('square')}: {owner} {u.get('name')} {u.get('id')}, {u.get('hp')} of "
                     f"{u.get('max_hp')} hit points.")
    for m in position.get("mines") or []:
        lines.append(f"{m.get('square')}: a mine of {names.get(int(m.get('team', 0)), 'seat ' + str(m.get('team')))}.")
    fog = "".join(position.get("fog") or [])
    if fog:
        lines.append(f"{fog.count('v')} squares seen now, {fog.count('m')} remembered, {fog.count('u')} never seen.")
    return lines
