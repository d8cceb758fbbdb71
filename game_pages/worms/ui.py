"""Worms helpers for the pages, working only on a position *as the viewer may see it*
(the dict ``games.worms.views.view`` returns). Nothing here reads the log or the true
state, so whatever is drawn or offered from it cannot leak a secret."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from games.serialization import from_data
from games.worms import aim
from games.worms.board import COLUMNS, SIZE, name, orthogonal_neighbours, parse_square
from games.worms.items import ITEMS, POINTS_BY_PLAYERS, TEAM_WEAPON_UNITS, title
from games.worms.movement import step_problem
from games.worms.state import WormsState
from games.worms.turn import MAX_WORMS_PER_TURN, MOVES_PER_WORM

Square = tuple[int, int]

#: Headgear colours by team letter (§7: "the colour of their headgear").
TEAM_COLOURS: dict[str, str] = {
    "A": "#d62728", "B": "#1f77b4", "C": "#2ca02c", "D": "#9467bd",
    "E": "#ff7f0e", "F": "#e377c2", "G": "#17becf", "H": "#7f3f00",
}
WATER_COLOUR = "#3a7bd5"
#: Height bands of the key (§7: squares coloured by land height).
HEIGHT_BANDS: tuple[tuple[int, int, str, str], ...] = (
    (1, 2, "#f2e3a0", "sand (1-2)"),
    (3, 4, "#a8d08d", "lowland (3-4)"),
    (5, 6, "#6aa84f", "hills (5-6)"),
    (7, 8, "#8d6e4f", "highland (7-8)"),
    (9, 10, "#5b4636", "peaks (9-10)"),
)
MINE_NAMES = {"d": "damage mine", "s": "shockwave mine", "p": "poison mine"}
CRATE_NAMES = {"w": "weapon crate", "h": "health crate", "u": "utility crate"}


def height_colour(height: int, water: int) -> str:
    if height <= water:
        return WATER_COLOUR
    for low, high, colour, _ in HEIGHT_BANDS:
        if low <= height <= high:
            return colour
    return HEIGHT_BANDS[-1][2]


def team_colour(letter: str) -> str:
    return TEAM_COLOURS.get(letter, "#444444")


def letters_by_seat(position: dict[str, Any]) -> dict[int, str]:
    return {t["seat"]: t["letter"] for t in position.get("teams", [])}


def team_names(position: dict[str, Any]) -> dict[int, str]:
    return {t["seat"]: t["name"] or f"Team {t['letter']}" for t in position.get("teams", [])}


def square_name(x: int, y: int) -> str:
    return name((x, y))


def known_state(position: dict[str, Any]) -> WormsState:
    """The position the viewer knows, as a ``WormsState`` (unknown secrets as empty), so
    the ruleset's own checks (movement, aim) can run on it without seeing any secret."""
    data = copy.deepcopy(position)
    for team in data.get("teams", []):
        if team.get("inventory") is None:
            team["inventory"] = []
    for crate in data.get("crates", []):
        crate["contents"] = crate.get("contents") or []
        crate["booby_trapped"] = bool(crate.get("booby_trapped"))
    for card in data.get("cards", []):
        card["contents"] = card.get("contents") or []
    for progress in data.get("progress", {}).get("worms", []):
        if progress.get("lost") is None:
            progress.pop("lost", None)  # another team's secret: its default stands in
    return from_data(WormsState, data)


def rounds_before_sudden_death(position: dict[str, Any]) -> int | None:
    if position.get("sudden_death"):
        return 0
    after = position.get("sudden_death_after")
    if after is None:
        return None
    return max(0, int(after) - int(position.get("round", 0)))


def moves_left(position: dict[str, Any], worm_id: str) -> int:
    for p in position.get("progress", {}).get("worms", []):
        if p["worm"] == worm_id:
            return max(0, p["allowance"] - p["moved"] - (p.get("lost") or 0))
    return MOVES_PER_WORM


def worms_that_may_act(position: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The seat's worms that may still be given orders this turn (§7: up to 3 worms)."""
    progress = position.get("progress", {})
    used = {p["worm"] for p in progress.get("worms", [])}
    shooter = progress.get("shooter")
    out = []
    for worm in position.get("worms", []):
        if worm["seat"] != seat:
            continue
        if shooter and worm["id"] != shooter:
            continue
        if worm["id"] not in used and len(used) >= MAX_WORMS_PER_TURN:
            continue
        out.append(worm)
    return out


def reach(position: dict[str, Any], worm_id: str) -> dict[str, int]:
    """Squares the worm can walk to this turn, with the number of steps (§7)."""
    state = known_state(position)
    worm = state.worm(worm_id)
    if worm is None:
        return {}
    budget = moves_left(position, worm_id)
    seen: dict[Square, int] = {worm.square: 0}
    frontier = [worm.square]
    for steps in range(1, budget + 1):
        nxt: list[Square] = []
        for square in frontier:
            if square != worm.square and state.mine_at(square):
                continue  # a walk stops on a mine: it goes off and ends the turn (§7)
            for target in orthogonal_neighbours(square):
                if target in seen:
                    continue
                moved = _moved(state, worm_id, square)
                if step_problem(moved, square, target) is None:
                    seen[target] = steps
                    nxt.append(target)
        frontier = nxt
    seen.pop(worm.square)
    return {name(sq): n for sq, n in seen.items()}


def _moved(state: WormsState, worm_id: str, square: Square) -> WormsState:
    """The state with the worm standing on ``square`` (it does not block itself)."""
    from dataclasses import replace

    worms = tuple(replace(w, x=square[0], y=square[1]) if w.id == worm_id else w for w in state.worms)
    return replace(state, worms=worms)


def next_steps(position: dict[str, Any], worm_id: str) -> list[dict[str, str]]:
    """The four neighbours of the worm, each with why it cannot step there (or '')."""
    state = known_state(position)
    worm = state.worm(worm_id)
    if worm is None:
        return []
    out = []
    labels = {(0, -1): "N", (1, 0): "E", (0, 1): "S", (-1, 0): "W"}
    for target in orthogonal_neighbours(worm.square):
        problem = step_problem(state, worm.square, target) or ""
        if not problem and moves_left(position, worm_id) <= 0:
            problem = "no movement left this turn (§7: 3 squares per worm)"
        d = labels[(target[0] - worm.square[0], target[1] - worm.square[1])]
        warning = ""
        if not problem and state.mine_at(target):
            warning = "a mine is there: it goes off and ends your turn (§7)"
        elif not problem and state.crate_at(target):
            warning = "a crate is there: you collect it"
        out.append({"square": name(target), "direction": d, "problem": problem, "warning": warning})
    return out


@dataclass(frozen=True)
class Aim:
    targets: dict[str, str]  # square -> "hit" (in the HGT window) or "wall" (stops early)
    origin: str


def aim_window(position: dict[str, Any], worm_id: str, weapon: str) -> Aim | None:
    """Squares the weapon may be aimed at (§5 RNG), marked by where the HGT window lets
    the shot land; None for weapons without a square target."""
    spec = ITEMS.get(weapon)
    if spec is None or spec.reach is None:
        return None
    state = known_state(position)
    worm = state.worm(worm_id)
    if worm is None:
        return None
    targets: dict[str, str] = {}
    start = aim.origin(state, worm, weapon)
    for y in range(SIZE):
        for x in range(SIZE):
            square = (x, y)
            if square == worm.square:
                continue
            if spec.straight_only and x != worm.square[0] and y != worm.square[1]:
                continue
            if aim.distance(start, square) > spec.reach:
                continue
            landing = aim.land_shot(state, worm, weapon, square)
            if landing.square is None:
                continue
            targets[name(square)] = "wall" if landing.wall else "hit"
    return Aim(targets=targets, origin=name(start))


def terrain(height: int, water: int) -> str:
    if height <= water:
        return "water"
    for low, high, _colour, label in HEIGHT_BANDS:
        if low <= height <= high:
            return f"height {height}, {label.split(' ')[0]}"
    return f"height {height}"


def board_in_words(position: dict[str, Any]) -> list[str]:
    """The board as sentences, for screen readers (the SVG is one image to them): the
    weather, every piece, then every row's heights and terrain."""
    names = team_names(position)
    wind = position.get("wind") or {}
    strength = int(wind.get("strength") or 0)
    water = int(position.get("water", 0))
    lines = [
        f"Round {position.get('round', 0)}. Wind: "
        + (f"strength {strength} towards {wind.get('direction')}" if strength and wind.get("direction") else "calm")
        + f". Water level {water}: squares of height {water} or less are water.",
    ]
    for worm in position.get("worms", []):
        line = f"{worm['id']} ({names.get(worm['seat'], '')}) on {square_name(worm['x'], worm['y'])}, health {worm['health']}"
        lines.append(line + (", poisoned" if worm.get("poison") else ""))
    for mine in position.get("mines", []):
        lines.append(f"{MINE_NAMES.get(mine.get('type', 'd'), 'mine')} on {square_name(mine['x'], mine['y'])}")
    for drum in position.get("drums", []):
        lines.append(f"oil drum on {square_name(drum['x'], drum['y'])}")
    for crate in position.get("crates", []):
        lines.append(f"{CRATE_NAMES.get(crate.get('kind', 'w'), 'crate')} on {square_name(crate['x'], crate['y'])}")
    for card in position.get("cards", []):
        lines.append(f"donor card on {square_name(card['x'], card['y'])}")
    for bubble in position.get("bubbles", []) or []:
        lines.append(f"bubble on {square_name(bubble['x'], bubble['y'])}")
    heights = position.get("heights") or []
    if len(heights) == SIZE * SIZE:
        for y in range(SIZE):
            cells = ", ".join(f"{COLUMNS[x]}: {terrain(int(heights[y * SIZE + x]), water)}" for x in range(SIZE))
            lines.append(f"Row {y + 1}: {cells}.")
    return lines


def describe_items(items: list[dict[str, Any]]) -> str:
    if not items:
        return "nothing"
    return ", ".join(f"{title(s['item'])} x{'∞' if s['count'] is None else s['count']}" for s in items)


def inventory_of(position: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    for team in position.get("teams", []):
        if team["seat"] == seat and team.get("inventory") is not None:
            return [
                {**s, "title": title(s["item"]), "category": ITEMS[s["item"]].category.value
                 if s["item"] in ITEMS else ""}
                for s in team["inventory"] if s["count"] is None or s["count"] > 0
            ]
    return []


def damage_text(item: str) -> str:
    """The damage of a weapon's blast on the square it hits (§5 DMG), e.g. "25" or "40-50"."""
    spec = ITEMS.get(item)
    if spec is None or spec.blast is None or spec.blast.center_damage == (0, 0):
        return "—"
    low, high = spec.blast.center_damage
    rings = [r.damage for r in spec.blast.rings if getattr(r, "damage", (0, 0)) != (0, 0)]
    text = str(low) if low == high else f"{low}-{high}"
    if rings:
        rl, rh = rings[0]
        text += f" (around: {rl if rl == rh else f'{rl}-{rh}'})"
    return text


def shop_items() -> list[dict[str, Any]]:
    """What can be bought at sign-up (§6), cheapest first within each category, with the
    stats a buyer compares (§5: reach, damage)."""
    out = []
    for spec in ITEMS.values():
        if spec.price is None or spec.free or spec.name in TEAM_WEAPON_UNITS:
            continue
        out.append({"name": spec.name, "title": spec.title, "price": spec.price,
                    "category": spec.category.value, "reach": spec.reach if spec.reach is not None else "—",
                    "damage": damage_text(spec.name), "shots": spec.shots})
    return out


def weapon_table() -> list[dict[str, Any]]:
    """Every item with its stats, for the rules page."""
    return [{"name": spec.name, "title": spec.title, "category": spec.category.value,
             "price": "free" if spec.free else (spec.price if spec.price is not None else "—"),
             "reach": spec.reach if spec.reach is not None else "—", "damage": damage_text(spec.name),
             "shots": spec.shots} for spec in ITEMS.values()]


def team_weapons() -> list[dict[str, Any]]:
    return [{"name": n, "title": title(n), "units": u} for n, u in TEAM_WEAPON_UNITS.items()]


def budget(players: int) -> int:
    return POINTS_BY_PLAYERS[max(2, min(players, 8))]


def section_of(clause: str) -> int | None:
    """"§7", "§5 RNG" -> 7, 5; anything else (a ruling's name) -> None."""
    text = clause.strip()
    if not text.startswith("§"):
        return None
    digits = "".join(ch for ch in text[1:].split(" ")[0].split(".")[0] if ch.isdigit())
    return int(digits) if digits else None


def parse_square_or_none(text: str) -> Square | None:
    try:
        return parse_square(text)
    except ValueError:
        return None


COLUMN_LABELS = COLUMNS
