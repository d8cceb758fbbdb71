"""The pieces of a position: enums and small frozen dataclasses (worms, mines, crates,
teams, the turn's progress...). ``games.worms.state`` assembles them into ``WormsState``
and re-exports them; they live here so that the notation writer, which ``WormsState``'s
``repr`` uses, can import them without importing ``games.worms.state``."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from games.worms.board import Direction, Square


class Phase(enum.StrEnum):
    SIGNUP = "signup"
    PLAYING = "playing"
    FINISHED = "finished"


class Stage(enum.StrEnum):
    #: the turn-start phase (§7, §9) is due: the scheduler runs ``StartTurn``.
    STARTING = "starting"
    #: the seat to act may give orders.
    ACTING = "acting"


class MineType(enum.StrEnum):
    DAMAGE = "d"
    SHOCKWAVE = "s"
    POISON = "p"


class CrateKind(enum.StrEnum):
    WEAPON = "w"
    HEALTH = "h"
    UTILITY = "u"


@dataclass(frozen=True)
class Stock:
    """``count`` None means an unlimited supply (§5 prods and handguns)."""

    item: str
    count: int | None = 1


@dataclass(frozen=True)
class Settings:
    worms_per_team: int | None = None
    sudden_death_after: int = 10
    mines: int = 25
    drums: int = 4
    health: int = 150


@dataclass(frozen=True)
class Team:
    seat: int
    letter: str
    name: str = ""
    inventory: tuple[Stock, ...] = ()
    out: bool = False
    surrendered: bool = False


@dataclass(frozen=True)
class Worm:
    id: str
    seat: int
    x: int
    y: int
    health: int = 150
    poison: int = 0
    #: §11: turns of its own team left before it becomes visible again (0 = visible;
    #: counted down at the start of each of its team's turns, ruling W-R40).
    invisible_rounds: int = 0

    @property
    def square(self) -> Square:
        return (self.x, self.y)

    @property
    def visible(self) -> bool:
        return self.invisible_rounds == 0


@dataclass(frozen=True)
class Mine:
    x: int
    y: int
    type: MineType = MineType.DAMAGE

    @property
    def square(self) -> Square:
        return (self.x, self.y)


@dataclass(frozen=True)
class Drum:
    x: int
    y: int

    @property
    def square(self) -> Square:
        return (self.x, self.y)


@dataclass(frozen=True)
class Crate:
    x: int
    y: int
    kind: CrateKind
    contents: tuple[Stock, ...] = ()
    booby_trapped: bool = False

    @property
    def square(self) -> Square:
        return (self.x, self.y)


@dataclass(frozen=True)
class Card:
    """A donor card (§9): ammo units anyone may collect by walking onto it."""

    x: int
    y: int
    contents: tuple[Stock, ...] = ()

    @property
    def square(self) -> Square:
        return (self.x, self.y)


@dataclass(frozen=True)
class Bubble:
    """§5 BUBBLE TROUBLE: a square immune to most attacks while a worm is in it; ``seat``
    made it and counts its rounds (``rounds`` of that team's turns left)."""

    x: int
    y: int
    seat: int
    rounds: int = 3

    @property
    def square(self) -> Square:
        return (self.x, self.y)


@dataclass(frozen=True)
class WormProgress:
    worm: str
    moved: int = 0
    #: squares this worm may walk this turn (3, +2 retreat after a mine or dynamite).
    allowance: int = 3
    #: §5 NINJA ROPE is in use for this worm this turn
    rope: bool = False
    #: §5 FAST WALK is in use (movement and retreat doubled)
    fast: bool = False
    #: §11: squares lost by walking into an invisible worm (counted as walked; private)
    lost: int = 0

    @property
    def used(self) -> int:
        return self.moved + self.lost


@dataclass(frozen=True)
class TurnProgress:
    """What the acting team has done so far this turn (§7)."""

    worms: tuple[WormProgress, ...] = ()
    weapon: str | None = None
    shooter: str | None = None
    shots_left: int = 0
    #: a placed dynamite whose fuse burns until the turn ends (§5)
    fuse: tuple[int, int] | None = None
    #: §5 DOUBLE DAMAGE: the weapons the team fires this turn are doubled (ruling W-R36)
    double: bool = False

    def of(self, worm: str) -> WormProgress | None:
        for progress in self.worms:
            if progress.worm == worm:
                return progress
        return None


@dataclass(frozen=True)
class Wind:
    direction: Direction | None = None
    strength: int = 0

    @property
    def calm(self) -> bool:
        return self.direction is None or self.strength == 0


@dataclass(frozen=True)
class ShoppingList:
    seat: int
    inventory: tuple[Stock, ...]
