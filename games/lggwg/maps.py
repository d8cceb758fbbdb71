"""Maps: text files in games/lggwg/maps/ (format in docs/notation-lggwg.md), read with
importlib.resources, so a map is package data and the engine stays free of I/O."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from games.lggwg.board import TERRAIN_CHARS, WALKABLE, Terrain, parse_square
from games.lggwg.state import COLOURS
from games.lggwg.units import UNITS


@dataclass(frozen=True)
class Placement:
    colour: str  # R, B, Y, G, or X for neutral
    kind: str
    square: tuple[int, int]
    hp: int


@dataclass(frozen=True)
class GameMap:
    name: str
    title: str
    colours: tuple[str, ...]
    terrain: tuple[str, ...]
    placements: tuple[Placement, ...]

    def grid_ok(self) -> bool:
        return bool(self.terrain) and len({len(r) for r in self.terrain}) == 1

    @property
    def flag_game(self) -> bool:
        return any(p.kind == "G" for p in self.placements)


class MapError(ValueError):
    pass


def parse_map(name: str, text: str) -> GameMap:
    title, colours, grid, units, section = name, (), [], [], ""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip() if section != "grid" else raw.strip()
        if raw.startswith("# ") or (section != "grid" and not line):
            continue
        where = f"map {name} line {number}"
        if line in ("grid:", "units:"):
            section = line[:-1]
        elif section == "grid":
            if not line:
                continue
            bad = set(line) - TERRAIN_CHARS
            if bad:
                raise MapError(f"{where}: unknown terrain {''.join(sorted(bad))!r}")
            grid.append(line)
        elif section == "units":
            units.append(_placement(line, where))
        elif line.startswith("title:"):
            title = line.split(":", 1)[1].strip()
        elif line.startswith("teams:"):
            colours = tuple(line.split(":", 1)[1].split())
        else:
            raise MapError(f"{where}: expected title:, teams:, grid: or units:, got {line!r}")
    game_map = GameMap(name, title, colours, tuple(grid), tuple(units))
    problems = check_map(game_map)
    if problems:
        raise MapError(f"map {name}: " + "; ".join(problems))
    return game_map


def _placement(line: str, where: str) -> Placement:
    parts = line.split()
    if len(parts) != 3:
        raise MapError(f"{where}: a unit line is '<colour> <type> <square>', got {line!r}")
    colour, kind, square = parts
    hp = 0
    if kind.startswith("G"):
        if not kind[1:].isdigit() or int(kind[1:]) < 1:
            raise MapError(f"{where}: a flag is G and its hit points, e.g. G6")
        kind, hp = "G", int(kind[1:])
    if kind not in UNITS:
        raise MapError(f"{where}: unknown unit type {kind!r}")
    try:
        sq = parse_square(square)
    except ValueError as exc:
        raise MapError(f"{where}: {exc}") from None
    return Placement(colour, kind, sq, hp or UNITS[kind].hp)


def check_map(game_map: GameMap) -> list[str]:
    problems = []
    if not game_map.grid_ok():
        problems.append("the grid must be a rectangle")
    if not 2 <= len(game_map.colours) <= 4 or any(c not in COLOURS for c in game_map.colours):
        problems.append("teams: two to four of R B Y G")
    seen = set()
    for p in game_map.placements:
        x, y = p.square
        if not (0 <= y < len(game_map.terrain) and 0 <= x < len(game_map.terrain[0])):
            problems.append(f"{p.kind} off the map")
            continue
        if Terrain(game_map.terrain[y][x]) not in WALKABLE:
            problems.append(f"{p.kind} of {p.colour} on terrain {game_map.terrain[y][x]!r}")
        if p.square in seen:
            problems.append(f"two units on {p.square}")
        seen.add(p.square)
        if p.colour != "X" and p.colour not in game_map.colours:
            problems.append(f"unit of a team {p.colour} the map does not have")
        if p.colour == "X" and p.kind not in ("G", "W"):
            problems.append("only flags and sheep may be neutral")
        if p.colour != "X" and p.kind == "W":
            problems.append("sheep belong to no team")
    for colour in game_map.colours:
        if sum(1 for p in game_map.placements if p.colour == colour and p.kind == "E") != 1:
            problems.append(f"team {colour} needs exactly one Executive")
    return problems


MAP_NAMES = ("duel", "flags", "triangle", "cross")


@cache
def load_map(name: str) -> GameMap:
    if name not in MAP_NAMES:
        raise MapError(f"there is no map {name!r} (maps: {', '.join(MAP_NAMES)})")
    text = resources.files("games.lggwg").joinpath("maps").joinpath(f"{name}.txt").read_text(encoding="utf-8")
    return parse_map(name, text)
