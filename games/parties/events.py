"""What happens. All public except a chosen move (the mover's alliance sees it) and an
ally policy (its bot only)."""

from __future__ import annotations

from dataclasses import dataclass

from games.base import Audience, Event


@dataclass(frozen=True)
class PlacedBot:
    seat: int
    x: int
    y: int
    strength: int


@dataclass(frozen=True)
class GameSetUp(Event):
    """The map and the bots, drawn with the dice (P-R1 to P-R3)."""

    rows: tuple[str, ...]
    bots: tuple[PlacedBot, ...]
    tick_ms: int
    max_ticks: int


@dataclass(frozen=True)
class TickStarted(Event):
    """A tick opens: solos and leaders choose moves until ``deadline_ms`` (P-R4)."""

    tick: int
    start_ms: int
    deadline_ms: int


@dataclass(frozen=True)
class MoveChosen(Event):
    """A move chosen for this tick (§4.1); secret but to the mover's party (P-R14)."""

    tick: int
    seat: int
    direction: str
    party: tuple[int, ...]

    def audience(self) -> Audience:
        return Audience.group(self.party)


@dataclass(frozen=True)
class AllyPolicySet(Event):
    """A bot's standing answer to alliances (§1.1, P-R9); only the bot knows it."""

    seat: int
    policy: str

    def audience(self) -> Audience:
        return Audience.only(self.seat)


@dataclass(frozen=True)
class TickClosed(Event):
    """The tick's moves, revealed (a missing move is "stay"); ``by`` is "all moved" or
    "deadline" (P-R6)."""

    tick: int
    moves: tuple[tuple[int, str], ...]
    by: str


@dataclass(frozen=True)
class MoveBlocked(Event):
    """Two movers chose the same square: neither moves (P-R8)."""

    seat: int
    direction: str
    x: int
    y: int


@dataclass(frozen=True)
class BotMoved(Event):
    """One step of a solo or leader, or a follower into the square vacated ahead (§4.2)."""

    seat: int
    from_x: int
    from_y: int
    x: int
    y: int


@dataclass(frozen=True)
class Squeezed(Event):
    """A diagonal step between two obstacle corners (§5.2, §5.3); strength never drops
    below 0.1 (§5.4). ``lost`` and ``strength`` in tenths."""

    seat: int
    lost: int
    strength: int


@dataclass(frozen=True)
class AllianceFormed(Event):
    """Two solos agreed (§1.1); the stronger leads, then the higher score (§1.2), then the
    lower seat (P-R10)."""

    leader: int
    follower: int


@dataclass(frozen=True)
class AllianceDeclined(Event):
    """Two solos met and at least one would not ally (§1.3, P-R9)."""

    seats: tuple[int, int]
    refused_by: tuple[int, ...]


@dataclass(frozen=True)
class PartyJoined(Event):
    """A solo joined a party whose leader is at least as strong (§3.1); it walks at the
    end of the file (P-R12)."""

    seat: int
    leader: int


@dataclass(frozen=True)
class Bout:
    number: int
    rolls: tuple[int, int]
    #: D20 x squad strength in tenths, per side
    scores: tuple[int, int]
    #: the winning side's leader; None for a tied bout, which is fought again (P-R15)
    winner: int | None


@dataclass(frozen=True)
class BattleFought(Event):
    """Three bouts of D20 x total strength, best of three (§2.2); +2 to the winning leader,
    +1 to each original winning member (§2.3); -1 and a respawn for the losing leader,
    whose followers join the winners (§2.4; §3.2 when a solo refused to join)."""

    sides: tuple[tuple[int, ...], tuple[int, ...]]
    cause: str
    bouts: tuple[Bout, ...]
    winner: int
    loser: int
    awards: tuple[tuple[int, int], ...]
    absorbed: tuple[int, ...]
    respawn_x: int
    respawn_y: int


@dataclass(frozen=True)
class GameEnded(Event):
    """All bots are one party (Game Conclusion), or the tick cap is reached (P-R5)."""

    reason: str
    ranking: tuple[tuple[int, ...], ...]
