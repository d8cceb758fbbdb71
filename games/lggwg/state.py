"""The position: frozen dataclasses with tuples (serialised by games.serialization)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from games.lggwg.board import Square, Terrain
from games.lggwg.notation_write import format_position
from games.lggwg.units import UNITS, UnitType

COLOURS = ("R", "B", "Y", "G")
COLOUR_NAMES = {"R": "Red", "B": "Blue", "Y": "Yellow", "G": "Green", "X": "Neutral"}


class Phase(enum.StrEnum):
    SETUP = "setup"
    ORDERS = "orders"
    OVER = "over"


@dataclass(frozen=True)
class Settings:
    """``map``: a map of games/lggwg/maps (docs/notation-lggwg.md); ``max_turns``: the game
    ends after this many turns if two Executives are still standing (L-R25)."""

    map: str = ""  # empty: the map made for the number of seats (duel, triangle, cross)
    max_turns: int = 30


@dataclass(frozen=True)
class Order:
    """One line of a team's list (§2). ``kind``: move, fire, opp, oppmove, hold, mine,
    forfeit. ``target``: a direction (move, oppmove), a square (fire), else empty."""

    kind: str = "hold"
    unit: str = ""
    target: str = ""


@dataclass(frozen=True)
class Unit:
    id: str  # colour letter + number (R1); neutral flags and sheep are X1, X2 ...
    team: int  # seat number; 0 for neutral
    kind: str  # a code of units.UNITS
    x: int
    y: int
    hp: int
    max_hp: int
    mines: int = 0

    @property
    def square(self) -> Square:
        return self.x, self.y

    @property
    def type(self) -> UnitType:
        return UNITS[self.kind]


@dataclass(frozen=True)
class Mine:
    x: int
    y: int
    team: int

    @property
    def square(self) -> Square:
        return self.x, self.y


@dataclass(frozen=True)
class Wear:
    """Damage taken so far by a locked door or a nuclear crate (they give way at 5)."""

    x: int
    y: int
    damage: int


@dataclass(frozen=True)
class Team:
    seat: int
    colour: str
    score: int = 0
    kills: int = 0
    sheep: int = 0
    out: str = ""  # why the team is out ("executive", "forfeit"), empty while in
    submitted: bool = False
    orders: tuple[Order, ...] = ()
    memory: tuple[str, ...] = ()  # remembered terrain per row, "?" never seen


@dataclass(frozen=True)
class StepRecord:
    """One resolved order, as shown in the last resolution (§3)."""

    step: int
    team: int
    unit: str
    kind: str
    target: str
    executed: bool
    note: str
    paths: tuple[tuple[str, ...], ...]  # bullet / shell / fireball paths as square names
    seen_by: tuple[int, ...]


@dataclass(frozen=True)
class LggwgState:
    phase: Phase = Phase.SETUP
    map: str = ""
    terrain: tuple[str, ...] = ()
    turn: int = 0
    max_turns: int = 30
    flag_game: bool = False
    team_order: tuple[int, ...] = ()
    teams: tuple[Team, ...] = ()
    units: tuple[Unit, ...] = ()
    mines: tuple[Mine, ...] = ()
    wear: tuple[Wear, ...] = ()
    end: str = ""
    last_steps: tuple[StepRecord, ...] = ()

    # --- reading ------------------------------------------------------------------------

    @property
    def width(self) -> int:
        return len(self.terrain[0]) if self.terrain else 0

    @property
    def height(self) -> int:
        return len(self.terrain)

    def on_map(self, square: Square) -> bool:
        return 0 <= square[0] < self.width and 0 <= square[1] < self.height

    def at(self, square: Square) -> Terrain:
        return Terrain(self.terrain[square[1]][square[0]])

    def team(self, seat: int) -> Team | None:
        return next((t for t in self.teams if t.seat == seat), None)

    def team_of_colour(self, colour: str) -> Team | None:
        return next((t for t in self.teams if t.colour == colour), None)

    def colour(self, seat: int) -> str:
        team = self.team(seat)
        return team.colour if team else "X"

    def unit(self, unit_id: str) -> Unit | None:
        return next((u for u in self.units if u.id == unit_id), None)

    def unit_at(self, square: Square) -> Unit | None:
        return next((u for u in self.units if u.square == square), None)

    def mine_at(self, square: Square) -> Mine | None:
        return next((m for m in self.mines if m.square == square), None)

    def wear_at(self, square: Square) -> int:
        return next((w.damage for w in self.wear if (w.x, w.y) == square), 0)

    def units_of(self, seat: int) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.team == seat)

    def in_teams(self) -> tuple[Team, ...]:
        return tuple(t for t in self.teams if not t.out)

    # --- writing (for evolve) ------------------------------------------------------------

    def with_team(self, seat: int, **changes: object) -> LggwgState:
        return replace(self, teams=tuple(replace(t, **changes) if t.seat == seat else t for t in self.teams))

    def with_unit(self, unit_id: str, **changes: object) -> LggwgState:
        return replace(self, units=tuple(replace(u, **changes) if u.id == unit_id else u for u in self.units))

    def with_terrain(self, square: Square, terrain: Terrain) -> LggwgState:
        x, y = square
        rows = list(self.terrain)
        rows[y] = rows[y][:x] + terrain.value + rows[y][x + 1 :]
        return replace(self, terrain=tuple(rows))

    def __repr__(self) -> str:
        """The position as the notation it can be loaded from (``notation.parse``)."""
        return f"LggwgState({format_position(self)!r})"
