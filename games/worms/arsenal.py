"""The registry of weapon handlers (§5): ``@weapon("bazooka")`` registers a function
``handler(out, worm, command)`` that resolves one shot after ``weapons.fire`` has checked
whose turn it is, the ammo and the one-weapon rule and recorded ``WeaponFired``."""

from __future__ import annotations

from collections.abc import Callable

from games.worms.commands import Fire
from games.worms.outcome import Outcome
from games.worms.state import Worm

Handler = Callable[[Outcome, Worm, Fire], None]
HANDLERS: dict[str, Handler] = {}


def weapon(name_: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        HANDLERS[name_] = handler
        return handler

    return register
