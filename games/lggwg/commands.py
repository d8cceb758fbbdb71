"""Orders a player or the referee gives (JSON shapes in games/lggwg/__init__.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.base import Command
from games.lggwg.state import Order


@dataclass(frozen=True, kw_only=True)
class SubmitOrders(Command):
    """§2: a team's list of orders for this turn, secret until resolution; a team may send
    a new list until the last team's list is in (L-R13)."""

    orders: tuple[Order, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ResolveAtDeadline(Command):
    """§8: the deadline passed: the referee gives each team in ``missed`` all holds
    (policy "hold") or the bot's list (policy "bot"), then the turn resolves (L-R14)."""

    given_by: ClassVar[str] = "referee"

    turn: int = 0
    missed: tuple[int, ...] = ()
    policy: str = "hold"


COMMAND_TYPES = (SubmitOrders, ResolveAtDeadline)
