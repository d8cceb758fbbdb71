"""Orders (imperative). Players send ``Conquer``, ``Liberate``, ``PlaceHeadquarters``,
``LiftHeadquarters`` and ``Say``; the scheduler sends ``StartRound`` and ``EndRound``;
``Pass`` is what the referee would run at a deadline (a real-time game has none)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.base import Command
from games.wormlord.board import Colour


@dataclass(frozen=True)
class Conquer(Command):
    """§3.2 A: tie a knot and place it on an empty space adjacent to one you occupy (§4: or
    to your base)."""

    square: str


@dataclass(frozen=True)
class Liberate(Command):
    """§3.2 B: tie a knot and place it on an adjacent space occupied by an enemy knot of
    colour ``owner`` (the colour you saw there); that string goes back to its owner (§3.3)."""

    square: str
    owner: Colour


@dataclass(frozen=True)
class PlaceHeadquarters(Command):
    """§5: put (or move) your headquarters on a space holding your own knot."""

    square: str


@dataclass(frozen=True)
class LiftHeadquarters(Command):
    """§5: take your headquarters off the board ("You can move your headquarters at any time")."""


@dataclass(frozen=True)
class Say(Command):
    """§7.1: "Teammates can talk as much as they wish" (heard by your team only)."""

    text: str


@dataclass(frozen=True)
class StartRound(Command):
    """§3.1: the scheduler sets a round up; it starts ``countdown_ms`` later ("3, 2, 1, NOW!")."""

    given_by: ClassVar[str] = "referee"

    round: int


@dataclass(frozen=True)
class EndRound(Command):
    """§7.2: the round's timer ran out (scheduler only)."""

    given_by: ClassVar[str] = "referee"

    round: int


@dataclass(frozen=True)
class Pass(Command):
    """Changes nothing: what ``deadline_command`` answers (a real-time game has no deadline)."""

    given_by: ClassVar[str] = "referee"


COMMAND_TYPES: tuple[type[Command], ...] = (
    Conquer, Liberate, PlaceHeadquarters, LiftHeadquarters, Say, StartRound, EndRound, Pass,
)
