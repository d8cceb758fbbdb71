"""What happened (past tense). ``evolve`` applies them without checking anything.

Secrets travel in their own private events: a crate's contents (moderators), a
shopping list or the items a team gains or loses (that seat only).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.base import MODERATORS_ONLY, Audience, Event
from games.worms.board import Direction
from games.worms.state import Card, CrateKind, Drum, Mine, MineType, Settings, Stock, Team, Worm


@dataclass(frozen=True)
class SquareHeight:
    x: int
    y: int
    height: int


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
    turn: int
    seat: int


# --- worms -----------------------------------------------------------------------------


@dataclass(frozen=True)
class WormMoved(Event):
    """``cost`` counts against the worm's movement this turn (0 for pushes, drifts)."""

    worm: str
    x: int
    y: int
    cost: int = 1
    cause: str = "walk"


@dataclass(frozen=True)
class WormDamaged(Event):
    worm: str
    amount: int
    health: int
    cause: str


@dataclass(frozen=True)
class WormHealed(Event):
    worm: str
    amount: int
    health: int


@dataclass(frozen=True)
class WormPoisoned(Event):
    worm: str
    poison: int


@dataclass(frozen=True)
class PoisonCured(Event):
    seat: int


@dataclass(frozen=True)
class ParachuteOpened(Event):
    worm: str
    seat: int


@dataclass(frozen=True)
class WormDied(Event):
    """``cause``: health, drowned, surrendered."""

    worm: str
    cause: str


# --- objects ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LandLowered(Event):
    squares: tuple[SquareHeight, ...]


@dataclass(frozen=True)
class Exploded(Event):
    """A blast (§8) centred on a square; what it did follows as its own events."""

    x: int
    y: int
    source: str


@dataclass(frozen=True)
class MineExploded(Event):
    x: int
    y: int
    type: MineType


@dataclass(frozen=True)
class MinePlaced(Event):
    mine: Mine


@dataclass(frozen=True)
class MineMoved(Event):
    x: int
    y: int
    to_x: int
    to_y: int


@dataclass(frozen=True)
class DrumMoved(Event):
    x: int
    y: int
    to_x: int
    to_y: int


@dataclass(frozen=True)
class ObjectSank(Event):
    """A mine or oil drum that landed in water, or was covered by rising water."""

    x: int
    y: int
    kind: str


@dataclass(frozen=True)
class DynamitePlaced(Event):
    """The fuse burns while the worm retreats; it explodes when the turn ends (§5)."""

    x: int
    y: int


@dataclass(frozen=True)
class DrumExploded(Event):
    x: int
    y: int


@dataclass(frozen=True)
class CrateCollected(Event):
    x: int
    y: int
    worm: str


@dataclass(frozen=True)
class CrateBoobyTrapped(Event):
    x: int
    y: int


@dataclass(frozen=True)
class CrateDestroyed(Event):
    x: int
    y: int


@dataclass(frozen=True)
class CardDropped(Event):
    card: Card

    def audience(self) -> Audience:
        return MODERATORS_ONLY


@dataclass(frozen=True)
class CardSeen(Event):
    """The public sees a donor card appear, not what is in it."""

    x: int
    y: int


@dataclass(frozen=True)
class CardGone(Event):
    """``how``: drowned, disintegrated, collected."""

    x: int
    y: int
    how: str
    worm: str = ""


# --- inventories (private) -------------------------------------------------------------


@dataclass(frozen=True)
class ItemsGained(Event):
    seat: int
    items: tuple[Stock, ...]
    source: str

    def audience(self) -> Audience:
        return Audience.only(self.seat)


@dataclass(frozen=True)
class ItemsLost(Event):
    seat: int
    items: tuple[Stock, ...]
    reason: str

    def audience(self) -> Audience:
        return Audience.only(self.seat)


# --- the turn --------------------------------------------------------------------------


@dataclass(frozen=True)
class WeaponFired(Event):
    worm: str
    weapon: str
    target: str
    #: ammo units spent (0 for prods, handguns and the later shots of a shotgun)
    spent: int = 1
    #: shots the team may still take with this weapon this turn
    shots_left: int = 0
    #: the shooter's movement allowance from now on (retreat after mine or dynamite)
    allowance: int = 3
    #: the team's double damage (§5) starts with this shot and lasts the turn
    double: bool = False


@dataclass(frozen=True)
class TurnEnded(Event):
    """``reason``: ended, fall, mine, deadline, stuck, surrendered, dead."""

    turn: int
    seat: int
    reason: str
    next_seat: int | None
    round_over: bool


@dataclass(frozen=True)
class TeamEliminated(Event):
    seat: int
    reason: str


@dataclass(frozen=True)
class TeamSurrendered(Event):
    seat: int


@dataclass(frozen=True)
class GameWon(Event):
    seat: int


@dataclass(frozen=True)
class GameDrawn(Event):
    pass


EVENT_TYPES: tuple[type[Event], ...] = (
    GameCreated,
    ShoppingListAccepted,
    MapGenerated,
    ObjectsPlaced,
    TurnOrderDrawn,
    GameStarted,
    RoundBegan,
    WaterRose,
    SuddenDeathBegan,
    StalemateDeclared,
    WindChanged,
    CrateDropped,
    CrateFilled,
    TurnStarted,
    WormMoved,
    WormDamaged,
    WormHealed,
    WormPoisoned,
    PoisonCured,
    ParachuteOpened,
    WormDied,
    LandLowered,
    Exploded,
    MineExploded,
    MinePlaced,
    MineMoved,
    DrumMoved,
    DrumExploded,
    ObjectSank,
    DynamitePlaced,
    CrateCollected,
    CrateBoobyTrapped,
    CrateDestroyed,
    CardDropped,
    CardSeen,
    CardGone,
    ItemsGained,
    ItemsLost,
    WeaponFired,
    TurnEnded,
    TeamEliminated,
    TeamSurrendered,
    GameWon,
    GameDrawn,
)
