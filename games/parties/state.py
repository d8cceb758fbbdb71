"""The position: terrain, bots (strength in tenths, score), parties in file order, the
tick clock and the moves submitted so far this tick."""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.parties.board import ALLY_POLICIES, DEFAULT_POLICY, Square, Terrain
from games.parties.notation_write import format_position, tenths

__all__ = ["ALLY_POLICIES", "DEFAULT_POLICY", "Bot", "PartiesState", "tenths"]


@dataclass(frozen=True)
class Bot:
    seat: int
    x: int
    y: int
    #: tenths: 12 is 1.2 (P-R3); never below 1 (§5.4)
    strength: int
    score: int = 0
    ally: str = DEFAULT_POLICY

    @property
    def square(self) -> Square:
        return self.x, self.y


@dataclass(frozen=True)
class PartiesState:
    rows: tuple[str, ...] = ()
    bots: tuple[Bot, ...] = ()
    #: each party leader first, then the followers in file order (§4.2)
    parties: tuple[tuple[int, ...], ...] = ()
    #: 0 before the first tick starts
    tick: int = 0
    tick_start_ms: int = 0
    tick_ms: int = 10_000
    max_ticks: int = 600
    #: (seat, direction) submitted this tick, by seat
    pending: tuple[tuple[int, str], ...] = ()
    #: "" while playing; "united" or "tick cap" when over
    ended: str = ""


    # --- lookups ------------------------------------------------------------------------

    @property
    def terrain(self) -> Terrain:
        return Terrain(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0]) if self.rows else 0

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(b.seat for b in self.bots)

    @property
    def deadline_ms(self) -> int:
        return self.tick_start_ms + self.tick_ms

    @property
    def finished(self) -> bool:
        return bool(self.ended)

    def bot(self, seat: int) -> Bot:
        for b in self.bots:
            if b.seat == seat:
                return b
        raise KeyError(seat)

    def has(self, seat: int) -> bool:
        return any(b.seat == seat for b in self.bots)

    def bot_at(self, square: Square) -> Bot | None:
        return next((b for b in self.bots if b.square == square), None)

    def party_of(self, seat: int) -> tuple[int, ...] | None:
        return next((p for p in self.parties if seat in p), None)

    def group_of(self, seat: int) -> tuple[int, ...]:
        """The seat's party in file order, or the seat alone."""
        return self.party_of(seat) or (seat,)

    def leader_of(self, seat: int) -> int:
        return self.group_of(seat)[0]

    def is_follower(self, seat: int) -> bool:
        return self.leader_of(seat) != seat

    def groups(self) -> tuple[tuple[int, ...], ...]:
        """Every solo and every party, ordered by the leader's seat."""
        return tuple(sorted((self.group_of(s) for s in self.seats if not self.is_follower(s)), key=lambda g: g[0]))

    def movers(self) -> frozenset[int]:
        """Solos and party leaders: the seats that choose a move each tick (§4.1)."""
        return frozenset(s for s in self.seats if not self.is_follower(s))

    def pending_move(self, seat: int) -> str | None:
        return dict(self.pending).get(seat)

    def total_strength(self, group: tuple[int, ...]) -> int:
        return sum(self.bot(s).strength for s in group)

    # --- building (for evolve) ---------------------------------------------------------------

    def with_bot(self, seat: int, **changes: object) -> PartiesState:
        return replace(self, bots=tuple(replace(b, **changes) if b.seat == seat else b for b in self.bots))

    def __repr__(self) -> str:
        """The position as the notation it can be loaded from (``notation.parse``)."""
        return f"parse({format_position(self)!r})"
