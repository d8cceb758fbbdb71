"""The events of sign-up, the game's start and a turn's start (re-exported by
``games.worms.events``, the module to import them from).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.base import MODERATORS_ONLY, Audience, Event
from games.worms.board import Direction
from games.worms.state import (
    CrateKind,
    Drum,
    Mine,
    Settings,
    Stock,
    Team,
    Worm,
)

# --- sign-up and start ---------------------------------------------------------------


@dataclass(frozen=True)
class GameCreated(Event):
    settings: Settings
    teams: tuple[Team, ...]
    points: int


@dataclass(frozen=True)
class ShoppingListAccepted(Event):
    seat: int
    inventory: tuple[Stock, ...]

    def audience(self) -> Audience:
        return Audience.only(self.seat)


@dataclass(frozen=True)
class MapGenerated(Event):
    heights: tuple[int, ...]


@dataclass(frozen=True)
class ObjectsPlaced(Event):
    worms: tuple[Worm, ...]
    mines: tuple[Mine, ...]
    drums: tuple[Drum, ...]


@dataclass(frozen=True)
class TurnOrderDrawn(Event):
    order: tuple[int, ...]


@dataclass(frozen=True)
class GameStarted(Event):
    """Also announces the rounds before sudden death (§10)."""

    sudden_death_after: int


# --- turn start ------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundBegan(Event):
    round: int


@dataclass(frozen=True)
class WaterRose(Event):
    level: int


@dataclass(frozen=True)
class SuddenDeathBegan(Event):
    forced: bool = False


@dataclass(frozen=True)
class StalemateDeclared(Event):
    pass


@dataclass(frozen=True)
class WindChanged(Event):
    direction: Direction | None
    strength: int


@dataclass(frozen=True)
class CrateDropped(Event):
    x: int
    y: int
    kind: CrateKind


@dataclass(frozen=True)
class CrateFilled(Event):
    """The contents of a crate: nobody but the moderators knows them (§9)."""

    x: int
    y: int
    contents: tuple[Stock, ...]

    def audience(self) -> Audience:
        return MODERATORS_ONLY


@dataclass(frozen=True)
class TurnStarted(Event):
    """Also counts down the rounds of the team's bubbles and invisible worms (ruling W-R40;
    one that runs out has its own ``BubbleGone`` / ``WormRevealed`` just before)."""

    turn: int
    seat: int
