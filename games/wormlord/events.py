"""Events (past tense). All are public except ``TeamSpoke`` (the team's seats only)."""

from __future__ import annotations

from dataclasses import dataclass

from games.base import Audience, Event
from games.wormlord.board import Colour
from games.wormlord.state import Timing


@dataclass(frozen=True)
class SideSetUp:
    colour: Colour
    seats: tuple[int, ...]
    base: str


@dataclass(frozen=True)
class GameSetUp(Event):
    """§1: the board for the player count and map; each colour's supply of 15 strings."""

    map_id: str
    grid: tuple[str, ...]
    sides: tuple[SideSetUp, ...]
    timing: Timing


@dataclass(frozen=True)
class RoundStarted(Event):
    """§3.1: a round is set up; everyone may act from ``starts_at_ms`` ("NOW!"). The board
    is cleared and every string is back in its supply (ruling WL-R7). ``ends_at_ms`` is the
    end of the round under §7.2's time limit (None without it)."""

    round: int
    starts_at_ms: int
    ends_at_ms: int | None
    #: the first knot of each colour is tied after "NOW!": the earliest placement
    first_knot_at_ms: int


@dataclass(frozen=True)
class KnotLiberated(Event):
    """§3.2 B: an enemy knot is taken off ``square``; its string goes back to ``owner``'s supply."""

    square: str
    owner: Colour
    by_seat: int
    by: Colour


@dataclass(frozen=True)
class KnotPlaced(Event):
    """§3.2: a knot of ``colour`` lies on ``square``; its next knot can be placed at
    ``next_at_ms`` (§3.3: one string in hand at a time)."""

    square: str
    colour: Colour
    seat: int
    at_ms: int
    next_at_ms: int


@dataclass(frozen=True)
class HeadquartersPlaced(Event):
    """§5: ``colour``'s headquarters now stands on ``square`` (moved from ``from_square``)."""

    colour: Colour
    seat: int
    square: str
    from_square: str | None


@dataclass(frozen=True)
class HeadquartersLifted(Event):
    """§5: ``colour``'s headquarters is taken off ``square`` back to its supply."""

    colour: Colour
    seat: int
    square: str


@dataclass(frozen=True)
class RoundWon(Event):
    """§2/§6: ``colour`` holds three Objective spaces; or §7.2: it held the most spaces when
    time ran out. ``scores`` (§7.2 only): spaces held, Objectives counting double."""

    round: int
    colour: Colour
    reason: str  # "objectives" or "time"
    at_ms: int
    scores: tuple[tuple[Colour, int], ...] = ()


@dataclass(frozen=True)
class RoundTied(Event):
    """§7.2: "If there is a tie, play again." The round is replayed (no one wins it)."""

    round: int
    colours: tuple[Colour, ...]
    at_ms: int
    scores: tuple[tuple[Colour, int], ...] = ()


@dataclass(frozen=True)
class GameWon(Event):
    """§6: the first to win 2 rounds wins the game."""

    colour: Colour
    seats: tuple[int, ...]


@dataclass(frozen=True)
class TeamSpoke(Event):
    """§7.1: what a teammate said; heard by the team's seats only."""

    colour: Colour
    seat: int
    text: str
    seats: tuple[int, ...]

    def audience(self) -> Audience:
        return Audience.group(self.seats)


EVENT_TYPES: tuple[type[Event], ...] = (
    GameSetUp, RoundStarted, KnotLiberated, KnotPlaced, HeadquartersPlaced, HeadquartersLifted,
    RoundWon, RoundTied, GameWon, TeamSpoke,
)
