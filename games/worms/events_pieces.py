"""The events of worms and of the objects on the map, and ``Concealable``: a worm's
event that becomes private while the worm is invisible (re-exported by
``games.worms.events``, the module to import them from).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.base import EVERYONE, MODERATORS_ONLY, Audience, Event
from games.worms.state import Card, Mine, MineType


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
