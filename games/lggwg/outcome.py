"""A working copy for ``decide``: each emitted event is applied at once (by the same
``evolve`` replay uses), so later rules read the position as it now stands."""

from __future__ import annotations

from games.base import Event
from games.dice import Dice
from games.lggwg.evolve import apply
from games.lggwg.state import LggwgState


class Outcome:
    def __init__(self, state: LggwgState, dice: Dice) -> None:
        self.state = state
        self.dice = dice
        self.events: list[Event] = []
        #: blasts waiting to go off: (square, radius, damage, cause, source seat)
        self.blasts: list[tuple[tuple[int, int], int, int, str, int]] = []
        #: teams whose Executive died: (seat, killer seat)
        self.fallen: list[tuple[int, int]] = []
        self.forfeiting: set[int] = set()

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = apply(self.state, event)

    def roll(self, purpose: str, low: int, high: int) -> int:
        """A fixed figure (Puffer's 4) is not a draw: only ranges roll."""
        return low if low == high else self.dice.roll(purpose, low, high)
