"""What a viewer may know of a position (§4, §9, §11): the full state minus secrets.

Hidden from everyone but the moderators: other teams' inventories and shopping lists,
the contents of crates and donor cards, whether a crate is booby-trapped, and (for the
utilities issue) invisible worms of other teams.
"""

from __future__ import annotations

from typing import Any

from games.base import Viewer, ViewerKind
from games.serialization import to_data
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
    for crate in data["crates"]:
        crate["contents"] = None
        crate["booby_trapped"] = None
    for card in data["cards"]:
        card["contents"] = None
    data["worms"] = [
        w for w in data["worms"] if w["invisible_rounds"] == 0 or w["seat"] == seat
    ]
    return data
