"""The position: frozen dataclasses with tuple fields, so it round-trips through
``games.serialization`` and the notation (``games.worms.notation``). Its pieces are in
``games.worms.pieces`` and are re-exported here."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from games.worms.board import SIZE, Square, index
from games.worms.notation_write import format_position
from games.worms.pieces import (
    Bubble,
    Card,
    Crate,
    CrateKind,
    Drum,
    Mine,
    MineType,
    Phase,
    Settings,
    ShoppingList,
    Stage,
    Stock,
    Team,
    TurnProgress,
    Wind,
    Worm,
    WormProgress,
)

__all__ = [
    "Bubble",
    "Card",
    "Crate",
    "CrateKind",
    "Drum",
    "Mine",
    "MineType",
    "Phase",
    "Settings",
    "ShoppingList",
    "Stage",
    "Stock",
    "Team",
    "TurnProgress",
    "Wind",
    "Worm",
    "WormProgress",
    "WormsState",
]


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
        try:
            return f"WormsState({format_position(self)!r})"
        except Exception:  # pragma: no cover - a half-built state still prints
            return f"WormsState(phase={self.phase.value}, turn={self.turn})"
