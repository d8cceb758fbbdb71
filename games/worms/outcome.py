"""The working copy ``decide`` builds: each event is applied as soon as it is emitted, so
later checks see its effect, and the events are returned at the end."""

from __future__ import annotations

from games.base import Event
from games.dice import Dice
from games.worms.evolve import apply
from games.worms.invisibility import conceal
from games.worms.state import WormsState


class Outcome:
    def __init__(self, state: WormsState, dice: Dice) -> None:
        self.state = state
        self.dice = dice
        self.events: list[Event] = []
        #: set when something ends the acting team's turn (a fall, a mine...)
        self.turn_over: str | None = None
        #: 2 while the acting team's weapon does double damage (§5 DOUBLE DAMAGE)
        self.power = 1
        #: set when a walk ran into an invisible worm (§11): the rest of a submitted turn
        #: is void, as the game master stopped and sent a PM (ruling W-R43)
        self.halted = False

    def emit(self, *events: Event) -> None:
        """Record and apply events, concealing what §11 hides (``games.worms.invisibility``)."""
        for event in events:
            for recorded in conceal(self.state, event):
                self.events.append(recorded)
                self.state = apply(self.state, recorded)

    def end_turn(self, reason: str) -> None:
        if self.turn_over is None:
            self.turn_over = reason
