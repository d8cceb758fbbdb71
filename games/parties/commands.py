"""Orders. Bots send ``Move`` and ``SetAllyPolicy``; the scheduler sends ``StartTick`` and
``ResolveTick``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.base import Command


@dataclass(frozen=True)
class Move(Command):
    """A solo or a party leader chooses this tick's move: one of N, NE, E, SE, S, SW, W, NW
    or "stay" (§4.1). It may be changed until the tick resolves (P-R6). ``tick``, if given,
    must be the current tick, so a late order is never applied to the next one."""

    direction: str
    tick: int | None = None


@dataclass(frozen=True)
class SetAllyPolicy(Command):
    """A bot's standing answer when it meets another solo (§1.1, P-R9): "always", "never",
    "lead" (only if it would lead) or "follow" (only if the other would lead)."""

    policy: str


@dataclass(frozen=True)
class StartTick(Command):
    """Scheduler: start the first tick; its start time is this order's ``at_ms``."""

    given_by: ClassVar[str] = "referee"

    tick: int


@dataclass(frozen=True)
class ResolveTick(Command):
    """Scheduler: the tick's time is up; missing moves are "stay" (P-R6)."""

    given_by: ClassVar[str] = "referee"

    tick: int
