"""Orders (imperative). The referee fills ``actor`` and ``at_ms``; the seat is the actor's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.base import Command
from games.worms.state import Stock


@dataclass(frozen=True, kw_only=True)
class SubmitShoppingList(Command):
    """§4, §6: the weapons bought before the start, private to the seat."""

    team_weapon: str
    items: tuple[Stock, ...] = ()


@dataclass(frozen=True, kw_only=True)
class StartGame(Command):
    """§4: map, placement and turn order, once every seat has a shopping list."""

    given_by: ClassVar[str] = "referee"


@dataclass(frozen=True, kw_only=True)
class StartTurn(Command):
    """§7, §9, §10: the turn-start phase, run by the scheduler (``turn:{n}:start``)."""

    given_by: ClassVar[str] = "referee"

    turn: int


@dataclass(frozen=True, kw_only=True)
class MoveWorm(Command):
    """§7: walk one worm along orthogonally adjacent squares, e.g. ``("c5", "d5")``."""

    worm: str
    path: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Fire(Command):
    """§5, §7: the team's weapon for this turn. ``target`` is a square, a direction
    (N, E, S, W) or a row of squares (``c5-g5``) depending on the weapon (docs/notation.md);
    ``mine_type`` is a placed mine's type, or the sheep strike's direction."""

    worm: str
    weapon: str
    target: str = ""
    mine_type: str = ""


@dataclass(frozen=True, kw_only=True)
class UseUtility(Command):
    """§5 COLLECTABLE UTILITIES: ninja rope, fast walk, teleport (``target`` a square),
    bubble trouble, invisibility, used by one worm (§7 "as many utilities ... as he likes,
    except for the teleport which will automatically end his turn")."""

    worm: str
    utility: str
    target: str = ""


@dataclass(frozen=True, kw_only=True)
class EndTurn(Command):
    """§7: the player is done."""


@dataclass(frozen=True, kw_only=True)
class Surrender(Command):
    """§7: the team's worms are removed from the board."""


@dataclass(frozen=True, kw_only=True)
class SkipTurn(Command):
    """§7: the deadline passed; the referee ends the turn ("taken for you")."""

    given_by: ClassVar[str] = "referee"

    turn: int


Step = MoveWorm | Fire | UseUtility | EndTurn


@dataclass(frozen=True, kw_only=True)
class SubmitTurn(Command):
    """§7: a whole turn at once (a forum post), checked step by step, applied atomically."""

    steps: tuple[Step, ...]


@dataclass(frozen=True, kw_only=True)
class ModeratorCorrection(Command):
    """A moderator's correction after a dispute (see ``games.worms.corrections``)."""

    given_by: ClassVar[str] = "moderator"

    action: str
    worm: str = ""
    health: int = 0
    square: str = ""
    seat: int = 0
    item: str = ""
    count: int = 0


COMMAND_TYPES: tuple[type[Command], ...] = (
    SubmitShoppingList,
    StartGame,
    StartTurn,
    MoveWorm,
    Fire,
    UseUtility,
    EndTurn,
    Surrender,
    SkipTurn,
    SubmitTurn,
    ModeratorCorrection,
)
