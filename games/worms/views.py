"""What a viewer may know (§4, §7, §9, §11): the full state, or an event, minus secrets.

Hidden from everyone but the moderators:

* other teams' inventories and shopping lists (§4);
* the contents of crates and donor cards, except to a team holding a crate spy (§5), and
  whether a crate is booby-trapped (§9: told once, when it happens, by a public event);
* other teams' invisible worms, their health, their part of the turn's progress (and the
  shooter, when it is an invisible worm that prodded), and a bubble with an invisible worm
  inside (§11);
* the squares a walker lost by running into an invisible worm (that is its team's PM).

Events: private ones are filtered by their audience; public ones carrying a secret are
blanked here: an invisible worm's teleport loses its square, its prod loses the worm (and
is recorded without its target), and a crate or card it collects loses the worm (§11).
"""

from __future__ import annotations

from typing import Any

from games.base import Event, Viewer, ViewerKind
from games.serialization import to_data
from games.worms import events as ev
from games.worms.invisibility import UNSEEN
from games.worms.state import WormsState


def view(state: WormsState, viewer: Viewer) -> dict[str, Any]:
    data = to_data(state)
    if viewer.kind is ViewerKind.MODERATOR:
        return data
    seat = viewer.seat if viewer.kind is ViewerKind.SEAT else None
    for team in data["teams"]:
        if team["seat"] != seat:
            team["inventory"] = None
    data["shopping"] = [s for s in data["shopping"] if s["seat"] == seat]
    spy = seat is not None and state.stock(seat, "crate_spy") != 0
    for crate in data["crates"]:
        if not spy:
            crate["contents"] = None
        crate["booby_trapped"] = None
    for card in data["cards"]:
        if not spy:
            card["contents"] = None
    hidden = {w.id for w in state.worms if not w.visible and w.seat != seat}
    hidden_squares = {w.square for w in state.worms if w.id in hidden}
    data["worms"] = [w for w in data["worms"] if w["id"] not in hidden]
    data["bubbles"] = [b for b in data["bubbles"] if (b["x"], b["y"]) not in hidden_squares]
    progress = data["progress"]
    acting = state.seat == seat
    progress["worms"] = [p for p in progress["worms"] if p["worm"] not in hidden]
    if progress["shooter"] in hidden:  # its prod is announced, not who prodded (W-R41)
        progress["shooter"] = None
    for p in progress["worms"]:
        if not acting:
            p["lost"] = None
    return data


def view_event(event: Event, data: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """``data`` (the event's serialized form) as ``viewer`` may see it."""
    if viewer.kind is ViewerKind.MODERATOR:
        return data
    seat = viewer.seat if viewer.kind is ViewerKind.SEAT else None
    if isinstance(event, ev.Teleported) and event.hidden and event.seat != seat:
        return {**data, "x": None, "y": None}
    if isinstance(event, ev.WeaponFired) and event.target == UNSEEN:
        return {**data, "worm": ""}  # an invisible worm's prod: whose it was would place it
    if isinstance(event, ev.CrateCollected | ev.CardGone) and event.hidden_seat not in (None, seat):
        return {**data, "worm": "", "hidden_seat": None}
    return data
