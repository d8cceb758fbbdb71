"""The events of utilities and invisibility (§5, §11), the private inbox and the
inventories (re-exported by ``games.worms.events``, the module to import them from).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.base import Audience, Event
from games.worms.events_pieces import Concealable
from games.worms.state import Card, Crate, Stock

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
