"""§11 Invisibility: what the others are not told.

``conceal`` is applied by ``Outcome.emit`` to every event ``decide`` produces, so no
topic module has to remember it: an event that would tell the others where an invisible
worm is, or its health, becomes private to its team (``private_to``); a crate or donor
card it collects is announced without the worm (``hidden_seat``); a worm that dies while
invisible is first revealed (``WormRevealed``, §11 "he will become visible again, so
everybody knows that you are now dead").
"""

from __future__ import annotations

from dataclasses import replace

from games.base import Event
from games.worms import events as ev
from games.worms.state import WormsState

#: the target recorded for an invisible worm's prod (W-R41): its team has its own order,
#: and ``view_event`` leaves the worm out for everyone else
UNSEEN = ""

#: events about one worm (``worm``) that become private while it is invisible
_ABOUT_A_WORM = (
    ev.WormMoved, ev.WormDamaged, ev.WormHealed, ev.WormPoisoned, ev.ParachuteOpened, ev.UtilityUsed,
)


def hidden_owner(state: WormsState, worm_id: str) -> int | None:
    """The seat of ``worm_id`` if it is invisible, else None."""
    worm = state.worm(worm_id)
    return worm.seat if worm is not None and not worm.visible else None


def _owner_at(state: WormsState, x: int, y: int) -> int | None:
    worm = state.worm_at((x, y))
    return worm.seat if worm is not None and not worm.visible else None


def conceal(state: WormsState, event: Event) -> tuple[Event, ...]:
    """``event`` as it must be recorded in ``state`` (before it applies)."""
    if isinstance(event, _ABOUT_A_WORM):
        owner = hidden_owner(state, event.worm)
        if owner is not None and event.private_to is None:
            return (replace(event, private_to=owner),)
        return (event,)
    if isinstance(event, ev.BubbleCreated | ev.BubbleGone):
        owner = _owner_at(state, event.x, event.y)
        if owner is not None and event.private_to is None:
            return (replace(event, private_to=owner),)
        return (event,)
    if isinstance(event, ev.CrateCollected | ev.CardGone) and event.worm:
        owner = hidden_owner(state, event.worm)
        if owner is not None:
            return (replace(event, hidden_seat=owner),)
        return (event,)
    if isinstance(event, ev.WormDied):
        worm = state.worm(event.worm)
        if worm is not None and not worm.visible:
            reveal = ev.WormRevealed(worm.id, worm.seat, worm.x, worm.y, worm.health, worm.poison, "died")
            return (reveal, event)
    return (event,)


def reveal(state: WormsState, worm_id: str, reason: str) -> ev.WormRevealed | None:
    """The event that makes an invisible worm visible again, or None if it is visible."""
    worm = state.worm(worm_id)
    if worm is None or worm.visible:
        return None
    return ev.WormRevealed(worm.id, worm.seat, worm.x, worm.y, worm.health, worm.poison, reason)


def spots(state: WormsState, seat: int) -> tuple[ev.WormSpot, ...]:
    """Where the team's invisible worms are (the §7 turn-start PM)."""
    return tuple(
        ev.WormSpot(w.id, w.x, w.y, w.health, w.invisible_rounds)
        for w in state.worms_of(seat)
        if not w.visible
    )
