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

from games.base import Event
from games.worms.events_pieces import (
    CardDropped,
    CardGone,
    CardSeen,
    Concealable,
    CrateBoobyTrapped,
    CrateCollected,
    CrateDestroyed,
    DrumExploded,
    DrumMoved,
    DynamitePlaced,
    Exploded,
    LandLowered,
    MineExploded,
    MineJoinedCrate,
    MineMoved,
    MinePlaced,
    ObjectSank,
    ParachuteOpened,
    PoisonCured,
    SquareHeight,
    WormDamaged,
    WormDied,
    WormHealed,
    WormMoved,
    WormPoisoned,
    WormRestored,
)
from games.worms.events_secret import (
    BubbleCreated,
    BubbleGone,
    CrateShowerFell,
    CrateSpyReport,
    InvisibleWormMet,
    ItemsGained,
    ItemsLost,
    Teleported,
    TurnBriefing,
    UtilityUsed,
    WormRevealed,
    WormSpot,
    WormVanished,
)
from games.worms.events_setup import (
    CrateDropped,
    CrateFilled,
    GameCreated,
    GameStarted,
    MapGenerated,
    ObjectsPlaced,
    RoundBegan,
    ShoppingListAccepted,
    StalemateDeclared,
    SuddenDeathBegan,
    TurnOrderDrawn,
    TurnStarted,
    WaterRose,
    WindChanged,
)

__all__ = [
    "Concealable", "SquareHeight", "WormSpot", "EVENT_TYPES",
    "BubbleCreated", "BubbleGone", "CardDropped", "CardGone", "CardSeen", "CrateBoobyTrapped",
    "CrateCollected", "CrateDestroyed", "CrateDropped", "CrateFilled", "CrateShowerFell", "CrateSpyReport",
    "DrumExploded", "DrumMoved", "DynamitePlaced", "Exploded", "GameCreated", "GameDrawn", "GameStarted",
    "GameWon", "InvisibleWormMet", "ItemsGained", "ItemsLost", "LandLowered", "MapGenerated", "MineExploded",
    "MineJoinedCrate", "MineMoved", "MinePlaced", "ObjectSank", "ObjectsPlaced", "ParachuteOpened",
    "PoisonCured", "RoundBegan", "ShoppingListAccepted", "StalemateDeclared", "SuddenDeathBegan",
    "TeamEliminated", "TeamSurrendered", "Teleported", "TurnBriefing", "TurnEnded", "TurnOrderDrawn",
    "TurnStarted", "UtilityUsed", "WaterRose", "WeaponFired", "WindChanged", "WormDamaged", "WormDied",
    "WormHealed", "WormMoved", "WormPoisoned", "WormRestored", "WormRevealed", "WormVanished",
]


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
