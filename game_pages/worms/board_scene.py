"""The board picture as a list of plain shapes, built from a position as the viewer may
see it (§7: squares coloured by height, worms in their team's colour with health over
their heads, the wind's arrow and strength, the water level). ``board_svg`` and
``board_png`` draw the same scene, so the web page and the forum image agree."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game_pages.worms import ui
from game_pages.worms.marks import Marks
from games.worms.board import COLUMNS, SIZE

CELL = 36
MARGIN = 22
PANEL_X = MARGIN + SIZE * CELL + 16
WIDTH = PANEL_X + 210
HEIGHT = MARGIN + SIZE * CELL + 12

WIND_ARROWS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0),
               "NE": (1, -1), "SE": (1, 1), "SW": (-1, 1), "NW": (-1, -1)}


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str
    stroke: str = ""
    stroke_width: float = 0
    dash: bool = False
    label: str = ""
    css: str = ""
    data: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str
    stroke: str = ""
    stroke_width: float = 0
    dash: bool = False
    label: str = ""


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    size: int = 11
    fill: str = "#000000"
    anchor: str = "start"  # start, middle, end
    bold: bool = False


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str
    width: float = 2


@dataclass(frozen=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: str
    label: str = ""


Shape = Rect | Circle | Text | Line | Polygon


@dataclass(frozen=True)
class Highlights:
    """What the page adds for the player at the controls (their own knowledge only)."""

    selected: str = ""
    reach: dict[str, int] = field(default_factory=dict)
    targets: dict[str, str] = field(default_factory=dict)
    #: what the last action (or the replay's step) did, from the viewer's own feed
    marks: Marks = field(default_factory=Marks)


def _cell(x: int, y: int) -> tuple[float, float]:
    return MARGIN + x * CELL, MARGIN + y * CELL


def scene(position: dict[str, Any], highlights: Highlights | None = None) -> list[Shape]:
    hl = highlights or Highlights()
    water = int(position.get("water", 0))
    heights = position.get("heights") or [0] * (SIZE * SIZE)
    letters = ui.letters_by_seat(position)
    shapes: list[Shape] = [Rect(0, 0, WIDTH, HEIGHT, "#ffffff")]
    for i, col in enumerate(COLUMNS):
        shapes.append(Text(MARGIN + i * CELL + CELL / 2, MARGIN - 7, col, 11, "#333333", "middle"))
    for row in range(SIZE):
        shapes.append(Text(MARGIN - 4, MARGIN + row * CELL + CELL / 2 + 4, str(row + 1), 10, "#333333", "end"))
    for y in range(SIZE):
        for x in range(SIZE):
            h = int(heights[y * SIZE + x])
            px, py = _cell(x, y)
            sq = ui.square_name(x, y)
            kind = "water" if h <= water else f"height {h}"
            shapes.append(Rect(px, py, CELL, CELL, ui.height_colour(h, water), "#00000022", 0.5,
                               label=f"{sq}: {kind}", css="sq", data={"square": sq}))
            if h > water:
                # dark land gets light digits: every height readable (contrast >= 4.5:1)
                shapes.append(Text(px + 3, py + 12, str(h), 10, "#ffffff" if h >= 7 else "#1b1b1b", bold=True))
    for sq, steps in sorted(hl.reach.items()):
        x, y = _xy(sq)
        px, py = _cell(x, y)
        shapes.append(Rect(px + 2, py + 2, CELL - 4, CELL - 4, "#fff36a66", "#c9a800", 2,
                           label=f"{sq}: reachable in {steps} step{'s' if steps != 1 else ''}", css="reach"))
    for sq, how in sorted(hl.targets.items()):
        x, y = _xy(sq)
        px, py = _cell(x, y)
        colour = "#e0245e" if how == "hit" else "#ff9900"
        note = "in the HGT window" if how == "hit" else "a wall stops the shot before it"
        shapes.append(Rect(px + 4, py + 4, CELL - 8, CELL - 8, "none", colour, 2, dash=True,
                           label=f"{sq}: target, {note}", css="target"))
    shapes += _marks_below(hl.marks)
    for mine in position.get("mines", []):
        px, py = _cell(mine["x"], mine["y"])
        t = mine.get("type", "d")
        shapes.append(Circle(px + CELL / 2, py + CELL / 2, 8, "#222222", "#ffcc00", 1.5,
                             label=f"{ui.square_name(mine['x'], mine['y'])}: {ui.MINE_NAMES.get(t, 'mine')}"))
        shapes.append(Text(px + CELL / 2, py + CELL / 2 + 4, t.upper(), 10, "#ffcc00", "middle", True))
    for drum in position.get("drums", []):
        px, py = _cell(drum["x"], drum["y"])
        shapes.append(Rect(px + 10, py + 6, CELL - 20, CELL - 12, "#b22222", "#000000", 1,
                           label=f"{ui.square_name(drum['x'], drum['y'])}: oil drum"))
        shapes.append(Line(px + 10, py + 14, px + CELL - 10, py + 14, "#000000", 1))
        shapes.append(Line(px + 10, py + CELL - 14, px + CELL - 10, py + CELL - 14, "#000000", 1))
    for crate in position.get("crates", []):
        px, py = _cell(crate["x"], crate["y"])
        k = crate.get("kind", "w")
        label = f"{ui.square_name(crate['x'], crate['y'])}: {ui.CRATE_NAMES.get(k, 'crate')}"
        if crate.get("contents") is not None:  # only moderators (or a crate spy) know this
            label += f", holds {ui.describe_items(crate['contents'])}"
        if crate.get("booby_trapped"):
            label += ", booby-trapped"
        shapes.append(Rect(px + 7, py + 7, CELL - 14, CELL - 14, "#c68a3c",
                           "#ff0000" if crate.get("booby_trapped") else "#5a3a10", 1.5, label=label))
        shapes.append(Text(px + CELL / 2, py + CELL / 2 + 4, k.upper(), 11, "#ffffff", "middle", True))
    for card in position.get("cards", []):
        px, py = _cell(card["x"], card["y"])
        label = f"{ui.square_name(card['x'], card['y'])}: donor card"
        if card.get("contents") is not None:
            label += f", holds {ui.describe_items(card['contents'])}"
        shapes.append(Rect(px + 9, py + 5, CELL - 18, CELL - 10, "#ffffff", "#333333", 1, label=label))
        shapes.append(Text(px + CELL / 2, py + CELL / 2 + 4, "+", 12, "#c00000", "middle", True))
    for bubble in position.get("bubbles", []) or []:
        if not isinstance(bubble, dict) or "x" not in bubble:
            continue
        px, py = _cell(bubble["x"], bubble["y"])
        shapes.append(Circle(px + CELL / 2, py + CELL / 2, CELL / 2 - 2, "none", "#66ccff", 2,
                             label=f"{ui.square_name(bubble['x'], bubble['y'])}: bubble"
                             + (f" ({bubble['rounds']} rounds left)" if "rounds" in bubble else "")))
    for worm in position.get("worms", []):
        px, py = _cell(worm["x"], worm["y"])
        letter = letters.get(worm["seat"], "?")
        colour = ui.team_colour(letter)
        selected = worm["id"] == hl.selected
        invisible = worm.get("invisible_rounds", 0) > 0
        label = f"{ui.square_name(worm['x'], worm['y'])}: worm {worm['id']}, health {worm['health']}"
        if worm.get("poison"):
            label += ", poisoned"
        if invisible:
            label += ", invisible to the others"
        shapes.append(Circle(px + CELL / 2, py + CELL / 2 + 5, 10, "#f4a7b9",
                             "#000000" if not selected else "#ffff00", 3 if selected else 1, dash=invisible,
                             label=label))
        shapes.append(Polygon(((px + CELL / 2 - 9, py + CELL / 2 + 1), (px + CELL / 2 + 9, py + CELL / 2 + 1),
                               (px + CELL / 2, py + CELL / 2 - 8)), colour))
        shapes.append(Text(px + CELL / 2, py + CELL / 2 + 9, worm["id"], 8, "#000000", "middle", True))
        shapes.append(Text(px + CELL / 2, py + 8, str(worm["health"]), 8,
                           "#6a0dad" if worm.get("poison") else colour, "middle", True))
    shapes += _marks_above(hl.marks)
    shapes += _panel(position)
    return shapes


def _centre(square: tuple[int, int]) -> tuple[float, float]:
    px, py = _cell(*square)
    return px + CELL / 2, py + CELL / 2


def _marks_below(marks: Marks) -> list[Shape]:
    """Blast squares and the path walked, under the pieces."""
    out: list[Shape] = []
    for square in sorted(marks.blasts):
        px, py = _cell(*square)
        out.append(Rect(px + 1, py + 1, CELL - 2, CELL - 2, "#ff660044", "#ff3300", 3,
                        label=f"{ui.square_name(*square)}: hit by the last blast", css="mark-blast"))
    for a, b in zip(marks.trail, marks.trail[1:], strict=False):
        (x1, y1), (x2, y2) = _centre(a), _centre(b)
        out.append(Line(x1, y1, x2, y2, "#7a00cc", 4))
    for i, square in enumerate(marks.trail):
        cx, cy = _centre(square)
        out.append(Circle(cx, cy, 5, "#7a00cc", "#ffffff", 1.5,
                          label=f"{ui.square_name(*square)}: step {i} of the last walk" if i else
                          f"{ui.square_name(*square)}: where the last walk started"))
    return out


def _marks_above(marks: Marks) -> list[Shape]:
    """The shot's line and the damage numbers, over the pieces."""
    out: list[Shape] = []
    for a, b in marks.shots:
        (x1, y1), (x2, y2) = _centre(a), _centre(b)
        out.append(Line(x1, y1, x2, y2, "#e0245e", 3))
        out.append(Circle(x2, y2, 6, "none", "#e0245e", 3,
                          label=f"the last shot went from {ui.square_name(*a)} to {ui.square_name(*b)}"))
    for square, amount in marks.damage:
        px, py = _cell(*square)
        out.append(Rect(px + CELL - 24, py - 4, 26, 15, "#ffffff", "#c00000", 1,
                        label=f"{ui.square_name(*square)}: lost {amount} health", css="mark-damage"))
        out.append(Text(px + CELL - 11, py + 8, f"-{amount}", 11, "#c00000", "middle", True))
    return out


def _xy(square: str) -> tuple[int, int]:
    parsed = ui.parse_square_or_none(square)
    return parsed if parsed else (0, 0)


def _panel(position: dict[str, Any]) -> list[Shape]:
    out: list[Shape] = []
    x = PANEL_X
    y = MARGIN + 4
    out.append(Text(x, y, "Key", 13, bold=True))
    y += 8
    for _low, _high, colour, label in ui.HEIGHT_BANDS:
        out.append(Rect(x, y, 14, 14, colour, "#555555", 0.5))
        out.append(Text(x + 20, y + 11, label, 11))
        y += 17
    out.append(Rect(x, y, 14, 14, ui.WATER_COLOUR, "#555555", 0.5))
    out.append(Text(x + 20, y + 11, "water", 11))
    y += 20
    out.append(Circle(x + 7, y + 7, 6, "#222222", "#ffcc00", 1.5))
    out.append(Text(x + 20, y + 11, "mine (D/S/P: damage/shock/poison)", 9))
    y += 17
    out.append(Rect(x + 3, y, 8, 14, "#b22222", "#000000", 1))
    out.append(Text(x + 20, y + 11, "oil drum", 11))
    y += 17
    out.append(Rect(x, y, 14, 14, "#c68a3c", "#5a3a10", 1))
    out.append(Text(x + 20, y + 11, "crate (W/H/U)", 11))
    y += 17
    out.append(Rect(x + 2, y, 10, 14, "#ffffff", "#333333", 1))
    out.append(Text(x + 20, y + 11, "donor card", 11))
    y += 17
    out.append(Circle(x + 7, y + 7, 6, "#f4a7b9", "#000000", 1))
    out.append(Text(x + 20, y + 11, "worm (headgear = team)", 11))
    y += 17
    out.append(Circle(x + 7, y + 7, 6, "none", "#66ccff", 2))
    out.append(Text(x + 20, y + 11, "bubble", 11))
    y += 26
    wind = position.get("wind") or {}
    strength = int(wind.get("strength") or 0)
    direction = wind.get("direction")
    out.append(Text(x, y, f"Wind: {strength}" + (f" {direction}" if direction and strength else " (calm)"), 13, bold=True))
    y += 10
    if direction and strength:
        cx, cy = x + 40, y + 28
        dx, dy = WIND_ARROWS.get(direction, (0, 0))
        length = 6 + 6 * strength
        tip = (cx + dx * length, cy + dy * length)
        tail = (cx - dx * length, cy - dy * length)
        out.append(Line(tail[0], tail[1], tip[0], tip[1], "#000000", 3))
        px, py = -dy, dx  # perpendicular
        out.append(Polygon((tip, (tip[0] - dx * 9 + px * 6, tip[1] - dy * 9 + py * 6),
                            (tip[0] - dx * 9 - px * 6, tip[1] - dy * 9 - py * 6)), "#000000",
                           label=f"wind {direction} strength {strength}"))
    y += 66
    water = int(position.get("water", 0))
    out.append(Text(x, y, f"Water level: {water}", 12, bold=True))
    y += 17
    left = ui.rounds_before_sudden_death(position)
    out.append(Text(x, y, f"Round {position.get('round', 0)}", 12))
    y += 16
    if position.get("sudden_death"):
        out.append(Text(x, y, "SUDDEN DEATH", 12, "#c00000", bold=True))
    elif left is not None:
        out.append(Text(x, y, f"Sudden death in {left} round{'s' if left != 1 else ''}", 12))
    y += 22
    out.append(Text(x, y, "Turn order", 13, bold=True))
    y += 6
    names = ui.team_names(position)
    letters = ui.letters_by_seat(position)
    teams = {t["seat"]: t for t in position.get("teams", [])}
    for seat in position.get("order", []) or sorted(teams):
        letter = letters.get(seat, "?")
        team = teams.get(seat, {})
        mark = "▶ " if seat == position.get("seat") and position.get("phase") == "playing" else ""
        out.append(Rect(x, y + 3, 12, 12, ui.team_colour(letter), "#000000", 0.5))
        suffix = " (out)" if team.get("out") else ""
        out.append(Text(x + 18, y + 13, f"{mark}{letter} {names.get(seat, '')}{suffix}"[:28], 11,
                        bold=bool(mark)))
        y += 16
    return out
