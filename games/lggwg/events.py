"""What happens (past tense). Effects of a resolution carry ``seen_by``: the teams that
could see it; ``games.lggwg.views.view_event`` shows the rest only its public part."""

from __future__ import annotations

from dataclasses import dataclass

from games.base import Audience, Event
from games.lggwg.state import Order, StepRecord, Team, Unit


@dataclass(frozen=True)
class GameStarted(Event):
    """§1: the map is laid out; every team sees what its units and flags see."""

    map: str
    terrain: tuple[str, ...]
    teams: tuple[Team, ...]
    units: tuple[Unit, ...]
    max_turns: int
    flag_game: bool


@dataclass(frozen=True)
class TurnStarted(Event):
    """§3.1: the team order for this turn, drawn with the dice, shown before orders are due."""

    turn: int
    team_order: tuple[int, ...]


@dataclass(frozen=True)
class OrdersSubmitted(Event):
    """§2: a team's secret list (only that team is told)."""

    turn: int
    team: int
    orders: tuple[Order, ...]

    def audience(self) -> Audience:
        return Audience.only(self.team)


@dataclass(frozen=True)
class TeamSubmitted(Event):
    """§2: everyone is told that a team's list is in, not what it says."""

    turn: int
    team: int


@dataclass(frozen=True)
class SheepStepped(Event):
    """§4 Sheep: one random step before any team's moves."""

    unit: str
    to: tuple[int, int]
    seen_by: tuple[int, ...]


@dataclass(frozen=True)
class UnitMoved(Event):
    """§2 Move: one step to a neighbouring square."""

    unit: str
    to: tuple[int, int]
    seen_by: tuple[int, ...]


@dataclass(frozen=True)
class ShotFired(Event):
    """§2 Targeted/opportunity fire: the path of a bullet, shell or fireball."""

    unit: str
    weapon: str
    aim: tuple[int, int]
    path: tuple[tuple[int, int], ...]
    seen_by: tuple[int, ...]


@dataclass(frozen=True)
class UnitDamaged(Event):
    """§4/§7: hit points lost; ``scores`` are the score changes it earns (L-R20)."""

    unit: str
    amount: int
    hp: int
    cause: str
    scores: tuple[tuple[int, int], ...]
    seen_by: tuple[int, ...]


@dataclass(frozen=True)
class UnitDied(Event):
    """§4: a unit is dead (Executives and Firebots explode, see Exploded)."""

    unit: str
    cause: str
    killer: int
    scores: tuple[tuple[int, int], ...]
    seen_by: tuple[int, ...]


@dataclass(frozen=True)
class UnitHealed(Event):
    """§5 Health packs: up to 5 hit points back."""

    unit: str
    amount: int
    hp: int
    seen_by: tuple[int, ...]


@dataclass(frozen=True)
class TerrainChanged(Event):
    """§5: a door opens, a crate or health pack is gone, a hardened object wears."""

    square: tuple[int, int]
    terrain: str
    wear: int
    seen_by: tuple[int, ...]


@dataclass(frozen=True)
class Exploded(Event):
    """§4/§5: a blast (crate, nuclear crate, dying Executive or Firebot)."""

    square: tuple[int, int]
    radius: int
    damage: int
    cause: str
    seen_by: tuple[int, ...]


@dataclass(frozen=True)
class MinePlaced(Event):
    """§4 Miner: a mine under the Miner."""

    unit: str
    square: tuple[int, int]
    team: int
    seen_by: tuple[int, ...]


@dataclass(frozen=True)
class MineExploded(Event):
    """§4 Mine: stepped on by anyone but a Miner of its team."""

    square: tuple[int, int]
    team: int
    seen_by: tuple[int, ...]


@dataclass(frozen=True)
class OrderResolved(Event):
    """§3: one order of the list executed in team order (public: team, unit, kind; the rest
    only to the teams that saw it)."""

    record: StepRecord


@dataclass(frozen=True)
class TeamOut(Event):
    """§4/§7: a team whose Executive died, or that forfeited, is out of the game."""

    team: int
    reason: str
    scores: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class GameEnded(Event):
    """§1/§7: the game is over; the last team standing scores all the flags (§4 Flag)."""

    reason: str
    scores: tuple[tuple[int, int], ...]


EVENT_TYPES = (
    GameStarted, TurnStarted, OrdersSubmitted, TeamSubmitted, SheepStepped, UnitMoved, ShotFired,
    UnitDamaged, UnitDied, UnitHealed, TerrainChanged, Exploded, MinePlaced, MineExploded,
    OrderResolved, TeamOut, GameEnded,
)
