"""The position: frozen dataclasses with tuple fields. ``repr`` prints the notation
(``games.wormlord.notation``), so a failing test shows a position you can paste back."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from games.wormlord.board import Colour, terrain_at
from games.wormlord.notation_write import format_position

STRINGS = 15  # §1 Contents: 15 earthworms (strings) per colour
OBJECTIVES_TO_WIN = 3  # §2: "The victory condition is to conquer three Objective spaces."
ROUNDS_TO_WIN = 2  # §6: "The first player to win 2 rounds wins the game."


class Phase(enum.StrEnum):
    NEW = "new"  # nothing set up yet (the fold's starting point)
    WAITING = "waiting"  # set up; the scheduler has not started round 1 yet
    RUNNING = "running"  # a round is set up: counting down (before start) or being played
    BREAK = "break"  # a round is over; the next starts after the break
    OVER = "over"  # a colour has won 2 rounds


@dataclass(frozen=True)
class Settings:
    """A game's settings (``parse_settings`` checks them; unknown keys are refused)."""

    #: a map id or printed name (``duel``, ``Mountain King``); "" = the standard set-up
    map: str = ""
    #: §7.1 the team variant: seats are paired in seat order and share a colour
    teams: bool = False
    #: §7.2 the time-limit variant: a round ends after ``round_seconds``
    time_limit: bool = False
    round_seconds: int = 180
    #: how long tying a knot takes: the least time between two placements of a colour
    knot_interval_ms: int = 3000
    #: extra time after a liberation: the enemy knot is untied and thrown back first
    untie_ms: int = 1000
    #: the "3, 2, 1, NOW!" before a round: from StartRound to the start
    countdown_ms: int = 3000
    #: the pause between the end of a round and the next StartRound
    break_ms: int = 10000


@dataclass(frozen=True)
class Timing:
    """The settings the rules need during play, carried in the position."""

    knot_interval_ms: int = 3000
    untie_ms: int = 1000
    countdown_ms: int = 3000
    break_ms: int = 10000
    #: None: no time limit (§7.2 not in use)
    round_ms: int | None = None


@dataclass(frozen=True)
class Side:
    """One colour: a player, or a team of two sharing one string supply (§7.1)."""

    colour: Colour
    seats: tuple[int, ...]
    base: str
    supply: int = STRINGS
    hq: str | None = None
    #: the earliest moment its next knot can be placed (the knot is still being tied)
    next_at_ms: int = 0
    wins: int = 0


@dataclass(frozen=True)
class Knot:
    square: str
    colour: Colour
    #: who placed it and when (for "taken just before by ..." refusals)
    seat: int
    at_ms: int = 0


@dataclass(frozen=True, repr=False)
class WormlordState:
    phase: Phase = Phase.NEW
    map_id: str = ""
    #: terrain only, seven rows top (row 7) first; see ``games.wormlord.maps``
    grid: tuple[str, ...] = ()
    sides: tuple[Side, ...] = ()
    knots: tuple[Knot, ...] = ()  # sorted by square
    round: int = 0
    starts_at_ms: int | None = None
    ends_at_ms: int | None = None
    #: when the last round ended (the next starts ``break_ms`` later)
    ended_at_ms: int | None = None
    timing: Timing = field(default_factory=Timing)


    # --- lookups ------------------------------------------------------------------------

    def terrain(self, square: str) -> str:
        return terrain_at(self.grid, square)

    def knot_at(self, square: str) -> Knot | None:
        return next((k for k in self.knots if k.square == square), None)

    def side(self, colour: Colour) -> Side:
        return next(s for s in self.sides if s.colour is colour)

    def side_of_seat(self, seat: int | None) -> Side | None:
        return next((s for s in self.sides if seat in s.seats), None)

    def seats(self) -> tuple[int, ...]:
        return tuple(sorted(seat for s in self.sides for seat in s.seats))

    def hq_at(self, square: str) -> Side | None:
        return next((s for s in self.sides if s.hq == square), None)

    def holds(self, colour: Colour, square: str) -> bool:
        """§4: a base counts as a space that permanently belongs to its colour."""
        knot = self.knot_at(square)
        return (knot is not None and knot.colour is colour) or self.side(colour).base == square

    def objectives_held(self, colour: Colour) -> int:
        return sum(1 for k in self.knots if k.colour is colour and self.terrain(k.square) == "*")

    def winner(self) -> Side | None:
        return next((s for s in self.sides if s.wins >= ROUNDS_TO_WIN), None)

    def __repr__(self) -> str:
        """The position as the notation it can be loaded from (``notation.parse``)."""
        return f"WormlordState({format_position(self)!r})"
