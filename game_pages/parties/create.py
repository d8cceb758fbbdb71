"""The create page's fields of a Parties game's own settings: the arena's size, its
obstacles and the tick cap (P-R1, P-R2, P-R5). The tick length is the create page's turn
limit ("Seconds per turn"), never a second field here: one clock per game (P-R4)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from frontend_templates.plugins import OrderFormError, Panel
from games.parties.settings import BOUNDS, PartiesSettings

#: (field, label) in the order shown; bounds and defaults come from the settings themselves
FIELDS = (
    ("width", "Arena width (squares)"),
    ("height", "Arena height (squares)"),
    ("obstacle_percent", "Obstacles (percent of the squares)"),
    ("max_ticks", "Tick cap: the game ends after this tick"),
)
_DEFAULTS = {f.name: f.default for f in fields(PartiesSettings)}


def panel(posted: Mapping[str, str]) -> Panel:
    rows = []
    for name, label in FIELDS:
        low, high, _ = BOUNDS[name]
        rows.append({"name": name, "label": label, "minimum": low, "maximum": high,
                     "value": posted.get(name) or _DEFAULTS[name]})
    return Panel("game_pages/parties/create.html", {"fields": rows})


def settings_from_post(posted: Mapping[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, label in FIELDS:
        text = (posted.get(name) or "").strip()
        if not text:
            continue  # the default
        try:
            out[name] = int(text)
        except ValueError:
            raise OrderFormError(f"{label}: give a whole number, not {text!r}.") from None
    return out
