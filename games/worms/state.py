"""The position: frozen dataclasses with tuple fields, so it round-trips through
``games.serialization`` and the notation (``games.worms.notation``)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

from games.worms.board import SIZE, Direction, Square, index


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


@dataclass(frozen=True)
class WormsState:
    phase: Phase = Phase.SIGNUP
    settings: Settings = field(default_factory=Settings)
    #: land heights, row by row from the north edge (225 values, 0 = open water).
    heights: tuple[int, ...] = (0,) * (SIZE * SIZE)
    water: int = 0
    wind: Wind = field(default_factory=Wind)
    round: int = 0
    turn: int = 0
    seat: int | None = None
    stage: Stage = Stage.STARTING
    #: the first turn of the round is next (set when the order wraps round).
    round_opening: bool = True
    sudden_death_after: int = 10
    sudden_death: bool = False
    stalemate: bool = False
    points: int = 0
    order: tuple[int, ...] = ()
    teams: tuple[Team, ...] = ()
    worms: tuple[Worm, ...] = ()
    mines: tuple[Mine, ...] = ()
    drums: tuple[Drum, ...] = ()
    crates: tuple[Crate, ...] = ()
    cards: tuple[Card, ...] = ()
    progress: TurnProgress = field(default_factory=TurnProgress)
    shopping: tuple[ShoppingList, ...] = ()
    bubbles: tuple[Bubble, ...] = ()
    winner: int | None = None
    draw: bool = False

    # --- lookups ---------------------------------------------------------------

    def height(self, square: Square) -> int:
        return self.heights[index(square)]

    def is_water(self, square: Square) -> bool:
        return self.height(square) <= self.water

    def team(self, seat: int) -> Team | None:
        for team in self.teams:
            if team.seat == seat:
                return team
        return None

    def team_of_letter(self, letter: str) -> Team | None:
        for team in self.teams:
            if team.letter == letter:
                return team
        return None

    def worm(self, worm_id: str) -> Worm | None:
        for worm in self.worms:
            if worm.id == worm_id:
                return worm
        return None

    def worm_at(self, square: Square) -> Worm | None:
        for worm in self.worms:
            if worm.square == square:
                return worm
        return None

    def worms_of(self, seat: int) -> tuple[Worm, ...]:
        return tuple(w for w in self.worms if w.seat == seat)

    def mine_at(self, square: Square) -> Mine | None:
        return next((m for m in self.mines if m.square == square), None)

    def drum_at(self, square: Square) -> Drum | None:
        return next((d for d in self.drums if d.square == square), None)

    def crate_at(self, square: Square) -> Crate | None:
        return next((c for c in self.crates if c.square == square), None)

    def card_at(self, square: Square) -> Card | None:
        return next((c for c in self.cards if c.square == square), None)

    def bubble_at(self, square: Square) -> Bubble | None:
        return next((b for b in self.bubbles if b.square == square), None)

    def blocked(self, square: Square) -> bool:
        """Worms and oil drums occupy their square (§7, §8)."""
        return self.worm_at(square) is not None or self.drum_at(square) is not None

    def empty(self, square: Square) -> bool:
        """Nothing at all on it (where crates fall, §9)."""
        return not (
            self.blocked(square)
            or self.mine_at(square)
            or self.crate_at(square)
            or self.card_at(square)
        )

    def stock(self, seat: int, item: str) -> int | None:
        """Units of ``item`` the team holds: None = unlimited, 0 = none."""
        team = self.team(seat)
        if team is None:
            return 0
        for stock in team.inventory:
            if stock.item == item:
                return stock.count
        return 0

    def active_teams(self) -> tuple[Team, ...]:
        return tuple(t for t in self.teams if not t.out)

    def with_height(self, square: Square, height: int) -> WormsState:
        heights = list(self.heights)
        heights[index(square)] = height
        return replace(self, heights=tuple(heights))

    def __repr__(self) -> str:
        from games.worms.notation import format_position

        try:
            return f"WormsState({format_position(self)!r})"
        except Exception:  # pragma: no cover - a half-built state still prints
            return f"WormsState(phase={self.phase.value}, turn={self.turn})"
