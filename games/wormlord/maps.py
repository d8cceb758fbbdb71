"""The maps, read from ``maps/*.txt`` in this package (format in docs/notation-wormlord.md).

A map file is a few ``key: value`` header lines (``name``, ``players``, ``about``), a line
``---``, then seven rows of seven terrain letters, top row (row 7) first:
``.`` a plain space, ``#`` impassable, ``*`` an Objective space, ``1``-``4`` the base of
the first to fourth colour (pink, blue, yellow, brown).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType

from games.wormlord.board import BASE_DIGITS, SIZE, SQUARES, TERRAIN, neighbours, terrain_at

#: The rulebook's standard set-up for each number of colours.
STANDARD = {2: "standard-2", 3: "standard-3", 4: "standard-4"}
ALTERNATE = ("duel", "crossfire", "mountain-king", "bermuda-triangle", "into-the-woods", "musical-chairs")
#: Earlier drawings of a map (map id -> file), kept for the ruleset versions that set games
#: up on them: verifying a game runs its set-up again, which must give the board it had.
#: Version 1 drew Musical Chairs without impassable tiles.
DRAWINGS_V1: Mapping[str, str] = MappingProxyType({"musical-chairs": "musical-chairs-1"})
NO_DRAWINGS: Mapping[str, str] = MappingProxyType({})


class MapError(ValueError):
    """A map file or grid that breaks the format; the message says where."""


@dataclass(frozen=True)
class Map:
    id: str
    name: str
    players: int
    about: str
    grid: tuple[str, ...]


def parse_map(map_id: str, text: str) -> Map:
    head, sep, body = text.partition("\n---\n")
    if not sep:
        raise MapError(f"{map_id}: no '---' line between the header and the rows")
    fields: dict[str, str] = {}
    for number, line in enumerate(head.splitlines(), start=1):
        key, colon, value = line.partition(":")
        if not colon:
            raise MapError(f"{map_id}: header line {number} is not 'key: value': {line!r}")
        fields[key.strip()] = value.strip()
    missing = {"name", "players", "about"} - set(fields)
    if missing:
        raise MapError(f"{map_id}: header lacks {', '.join(sorted(missing))}")
    if not fields["players"].isdigit():
        raise MapError(f"{map_id}: players must be a number, not {fields['players']!r}")
    grid = tuple(line for line in body.splitlines() if line.strip())
    problems = grid_problems(grid, int(fields["players"]))
    if problems:
        raise MapError(f"{map_id}: " + "; ".join(problems))
    return Map(map_id, fields["name"], int(fields["players"]), fields["about"], grid)


def grid_problems(grid: tuple[str, ...], players: int) -> list[str]:
    """What is wrong with a terrain grid for ``players`` colours (empty if nothing)."""
    if len(grid) != SIZE:
        return [f"the board has {len(grid)} rows, not {SIZE}"]
    problems = []
    for i, row in enumerate(grid):
        if len(row) != SIZE:
            problems.append(f"row {SIZE - i} has {len(row)} squares, not {SIZE}")
        bad = sorted(set(row) - set(TERRAIN))
        if bad:
            problems.append(f"row {SIZE - i} has unknown terrain {''.join(bad)!r}")
    if problems:
        return problems
    for digit in BASE_DIGITS:
        bases = [s for s in SQUARES if terrain_at(grid, s) == digit]
        if int(digit) <= players and len(bases) != 1:
            problems.append(f"colour {digit} needs exactly one base, found {len(bases)}")
        if int(digit) > players and bases:
            problems.append(f"base {digit} on a map for {players} colours")
        for base in bases:
            if all(terrain_at(grid, n) in "#" + BASE_DIGITS for n in neighbours(base)):
                problems.append(f"base {digit} at {base} has no space next to it to conquer")
    if sum(terrain_at(grid, s) == "*" for s in SQUARES) < 3:
        problems.append("fewer than 3 Objective spaces: nobody could win a round")
    return problems


@cache
def load(map_id: str, file: str = "") -> Map:
    """The map ``map_id``, from ``maps/<file or map_id>.txt``."""
    text = resources.files("games.wormlord").joinpath("maps", f"{file or map_id}.txt").read_text(encoding="utf-8")
    return parse_map(map_id, text)


def all_maps(drawings: Mapping[str, str] = NO_DRAWINGS) -> tuple[Map, ...]:
    """Every map, each as ``drawings`` has it (an earlier drawing) or else as drawn now."""
    return tuple(load(m, drawings.get(m, "")) for m in (*STANDARD.values(), *ALTERNATE))


def find(name: str, drawings: Mapping[str, str] = NO_DRAWINGS) -> Map | None:
    """A map by its id (``mountain-king``) or printed name (``Mountain King``), any case."""
    wanted = name.strip().lower().replace(" ", "-")
    for m in all_maps(drawings):
        if wanted in (m.id, m.name.lower().replace(" ", "-")):
            return m
    return None


def drawing(map_id: str, grid: tuple[str, ...]) -> Map | None:
    """The drawing of ``map_id`` a game was set up on (today's or an earlier one), by its grid."""
    for drawings in (NO_DRAWINGS, DRAWINGS_V1):
        m = find(map_id, drawings)
        if m is not None and m.grid == grid:
            return m
    return find(map_id)
