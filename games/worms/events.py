"""What happened (past tense). ``evolve`` applies them without checking anything.

Every event is for everyone, for one seat, or for the moderators (ruling W-R49).
Secrets travel in their own private events: a crate's contents (moderators), a
shopping list, the items a team gains or loses, its turn briefing and crate spy reports
(that seat only). Events about a worm are ``Concealable``: ``Outcome.emit`` makes them
private to the worm's team while it is invisible (§11, ``games.worms.invisibility``); a
few public events carry a secret that ``games.worms.views.view_event`` blanks for the
others (an invisible worm's teleport square, the worm that collected a crate).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.base import EVERYONE, MODERATORS_ONLY, Audience, Event
from games.worms.board import Direction
from games.worms.state import (
    Card,
    Crate,
    CrateKind,
    Drum,
    Mine,
    MineType,
    Settings,
    Stock,
    Team,
    Worm,
)


class Concealable(Event):
    """A public event that becomes private to ``private_to`` when it concerns an invisible
    worm (§11): its owner and the moderators see it, nobody else (ruling W-R41)."""

    private_to: int | None

    def audience(self) -> Audience:
        return EVERYONE if self.private_to is None else Audience.only(self.private_to)


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
    """Also counts down the rounds of the team's bubbles and invisible worms (ruling W-R40;
    one that runs out has its own ``BubbleGone`` / ``WormRevealed`` just before)."""

    turn: int
    seat: int


# --- worms -----------------------------------------------------------------------------


@dataclass(frozen=True)
class WormMoved(Concealable):
    """``cost`` counts against the worm's movement this turn (0 for pushes, drifts)."""

    worm: str
    x: int
    y: int
    cost: int = 1
    cause: str = "walk"
    private_to: int | None = None


@dataclass(frozen=True)
class WormDamaged(Concealable):
    worm: str
    amount: int
    health: int
    cause: str
    private_to: int | None = None


@dataclass(frozen=True)
class WormHealed(Concealable):
    worm: str
    amount: int
    health: int
    private_to: int | None = None


@dataclass(frozen=True)
class WormPoisoned(Concealable):
    worm: str
    poison: int
    private_to: int | None = None


@dataclass(frozen=True)
class PoisonCured(Event):
    seat: int


@dataclass(frozen=True)
class ParachuteOpened(Concealable):
    worm: str
    seat: int
    private_to: int | None = None


@dataclass(frozen=True)
class WormDied(Event):
    """``cause``: health, drowned, surrendered."""

    worm: str
    cause: str


@dataclass(frozen=True)
class WormRestored(Event):
    """A moderator's correction: a worm wrongly killed is back."""

    worm: str
    seat: int
    x: int
    y: int
    health: int


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
    """§11: collected by an invisible worm, others see only that the crate disappeared
    (``hidden_seat`` is its team; ``view_event`` blanks the worm for everyone else)."""

    x: int
    y: int
    worm: str
    hidden_seat: int | None = None


@dataclass(frozen=True)
class CrateBoobyTrapped(Event):
    """§9: the crate has just become booby trapped (a mine was placed or landed on it);
    public, and said only this once (ruling W-R49)."""

    x: int
    y: int


@dataclass(frozen=True)
class MineJoinedCrate(Event):
    """§9: a mine was placed or landed on a crate that was already booby trapped: the
    mine is gone into the crate, which stays as it was. "Players will only be notified
    that it is booby trapped when it first becomes booby trapped. After that they will not
    be told": this says nothing of a trap (ruling W-R53)."""

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
    hidden_seat: int | None = None


# --- utilities (§5) and invisibility (§11) ------------------------------------------


@dataclass(frozen=True)
class UtilityUsed(Concealable):
    """§5: a collectable utility used by a worm (one unit). Private when the worm is
    invisible (§11 "Any move you make whilst invisible will be silent")."""

    worm: str
    seat: int
    utility: str
    private_to: int | None = None


@dataclass(frozen=True)
class Teleported(Event):
    """§5 TELEPORT: the worm is now on (x, y). §11: an invisible worm's teleport is announced
    without where it went (``hidden`` -> ``view_event`` blanks the square for others)."""

    worm: str
    seat: int
    x: int
    y: int
    hidden: bool = False


@dataclass(frozen=True)
class BubbleCreated(Concealable):
    """§5 BUBBLE TROUBLE on (x, y) for 3 rounds (of ``seat``'s turns)."""

    x: int
    y: int
    seat: int
    rounds: int = 3
    private_to: int | None = None


@dataclass(frozen=True)
class BubbleGone(Concealable):
    """``how``: expired, sunk."""

    x: int
    y: int
    how: str = "expired"
    private_to: int | None = None


@dataclass(frozen=True)
class WormVanished(Event):
    """§5 INVISIBILITY, §11: the worm is invisible for ``rounds`` of its team's turns."""

    worm: str
    seat: int
    rounds: int = 3


@dataclass(frozen=True)
class WormRevealed(Event):
    """§11: an invisible worm is visible again (``reason``: expired, fired, died): everyone
    is told where it is and its health."""

    worm: str
    seat: int
    x: int
    y: int
    health: int
    poison: int
    reason: str


@dataclass(frozen=True)
class InvisibleWormMet(Event):
    """§11: a worm of ``seat`` walked into invisible worm ``worm`` on (x, y): it stopped
    and lost ``lost`` squares of that walk; now it knows where the worm is (a PM)."""

    seat: int
    walker: str
    worm: str
    x: int
    y: int
    lost: int

    def audience(self) -> Audience:
        return Audience.only(self.seat)


@dataclass(frozen=True)
class CrateShowerFell(Event):
    """§5 CRATE SHOWER: collected by ``seat``; 5 crates follow as ``CrateDropped``."""

    seat: int


# --- the private inbox (what the game master PMed) --------------------------------------


@dataclass(frozen=True)
class WormSpot:
    worm: str
    x: int
    y: int
    health: int
    rounds: int


@dataclass(frozen=True)
class TurnBriefing(Event):
    """§7: at the start of its turn a team is sent its weapons list and where its
    invisible worms are."""

    seat: int
    inventory: tuple[Stock, ...]
    invisible: tuple[WormSpot, ...] = ()

    def audience(self) -> Audience:
        return Audience.only(self.seat)


@dataclass(frozen=True)
class CrateSpyReport(Event):
    """§5 CRATE SPY, §7: the contents of crates and donor cards, sent to ``seat``
    (booby traps are not reported, ruling W-R45)."""

    seat: int
    crates: tuple[Crate, ...] = ()
    cards: tuple[Card, ...] = ()

    def audience(self) -> Audience:
        return Audience.only(self.seat)


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
    WormRestored,
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
    MineJoinedCrate,
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
    UtilityUsed,
    Teleported,
    BubbleCreated,
    BubbleGone,
    WormVanished,
    WormRevealed,
    InvisibleWormMet,
    CrateShowerFell,
    TurnBriefing,
    CrateSpyReport,
)
