"""The moderator's correction forms on the audit page: pick a worm, a field, a value in
range and a reason, never an internal order name or JSON. The limits checked here are the
game's own (its starting health from its settings, the board, the item list), so a slip
like health 999 is refused with a sentence before anything is recorded; the ruleset's
``decide`` still checks the order it becomes (``games.worms.corrections``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from frontend_templates.plugins import Panel
from game_pages.worms import ui
from games.worms.items import ITEMS

#: What a moderator may correct, in words, and the ruleset's action for it.
KINDS: dict[str, str] = {
    "health": "Set a worm's health (a miscounted hit)",
    "square": "Move a worm (a disputed push)",
    "ammo": "Give back ammunition (wrongly spent)",
    "restore": "Bring back a worm wrongly killed",
}
ACTIONS = {"health": "set_health", "square": "move_worm", "ammo": "return_ammo", "restore": "restore_worm"}
MAX_RETURNED = 20  # the ruleset returns 1 to 20 units at a time


class CorrectionError(ValueError):
    pass


def health_limit(position: Mapping[str, Any]) -> int:
    """The most health a correction may give: the game's starting health, or more if a
    worm already has more (health crates)."""
    start = int((position.get("settings") or {}).get("health") or 150)
    return max([start] + [int(w.get("health") or 0) for w in position.get("worms", [])])


def panel(position: Mapping[str, Any], names: Mapping[int, str], posted: Mapping[str, str]) -> Panel:
    teams = ui.team_names(dict(position))
    worms = [{"id": w["id"], "text": f"{w['id']} ({teams.get(w['seat'], '')}, health {w['health']}, on "
                                      f"{ui.square_name(w['x'], w['y'])})"} for w in position.get("worms", [])]
    return Panel("game_pages/worms/correction.html", {
        "kinds": KINDS, "worms": worms, "health_max": health_limit(position), "posted": posted,
        "teams": [{"seat": t["seat"], "name": teams.get(t["seat"], "")} for t in position.get("teams", [])],
        "items": sorted(((n, s.title) for n, s in ITEMS.items() if not s.free), key=lambda i: i[1]),
        "max_returned": MAX_RETURNED,
    })


def _int(data: Mapping[str, str], key: str, what: str) -> int:
    try:
        return int(str(data.get(key, "")).strip())
    except ValueError:
        raise CorrectionError(f"Give the {what} as a whole number.") from None


def _worm(position: Mapping[str, Any], data: Mapping[str, str]) -> str:
    worm = str(data.get("worm", "")).strip().upper()
    if worm not in {w["id"] for w in position.get("worms", [])}:
        raise CorrectionError("Pick a worm that is on the board.")
    return worm


def _square(data: Mapping[str, str]) -> str:
    square = str(data.get("square", "")).strip().lower()
    if ui.parse_square_or_none(square) is None:
        raise CorrectionError("Give a square of the board, a letter a-o and a row 1-15, like c5.")
    return square


def order(position: Mapping[str, Any], data: Mapping[str, str]) -> tuple[str, dict[str, Any]]:
    """The posted form -> ("ModeratorCorrection", payload), or ``CorrectionError``."""
    kind = str(data.get("kind", ""))
    if kind not in ACTIONS:
        raise CorrectionError("Pick what to correct.")
    payload: dict[str, Any] = {"action": ACTIONS[kind]}
    top = health_limit(position)
    if kind in ("health", "restore"):
        health = _int(data, "health", "health")
        if not 1 <= health <= top:
            raise CorrectionError(f"Health must be from 1 to {top} (the most a worm has in this game).")
        payload["health"] = health
    if kind in ("health", "square"):
        payload["worm"] = _worm(position, data)
    if kind == "square":
        payload["square"] = _square(data)
    if kind == "restore":
        worm = str(data.get("worm", "")).strip().upper()
        if not worm or worm in {w["id"] for w in position.get("worms", [])}:
            raise CorrectionError("Name a worm that died (like B3); a worm on the board needs no restoring.")
        payload.update(worm=worm, square=_square(data))
    if kind == "ammo":
        seats = {t["seat"] for t in position.get("teams", [])}
        seat = _int(data, "seat", "team")
        if seat not in seats:
            raise CorrectionError("Pick a team of this game.")
        item = str(data.get("item", ""))
        if item not in ITEMS or ITEMS[item].free:
            raise CorrectionError("Pick an item that is counted (prods and handguns are unlimited).")
        count = _int(data, "count", "number of units")
        if not 1 <= count <= MAX_RETURNED:
            raise CorrectionError(f"Give back 1 to {MAX_RETURNED} units.")
        payload.update(seat=seat, item=item, count=count)
    return "ModeratorCorrection", payload
