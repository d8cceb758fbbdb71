"""The shopping list on the join page (§6): the form, and the form back into the
``SubmitShoppingList`` order, checked by the ruleset at the budget of a full table."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from frontend_templates.plugins import Panel
from game_pages.worms import ui
from games.base import RuleViolation
from games.worms.items import TEAM_WEAPON_UNITS, title
from games.worms.signup import check_shopping_list
from games.worms.state import Stock


def panel(players: int, posted: Mapping[str, str]) -> Panel:
    return Panel("game_pages/worms/signup.html", {
        "items": [dict(i, count=posted.get(f"buy_{i['name']}", "0")) for i in ui.shop_items()],
        "team_weapons": ui.team_weapons(), "budget": ui.budget(players), "players": players, "posted": posted,
        "items_json": json.dumps({i["name"]: i["price"] for i in ui.shop_items()}),
    })


def shopping_from_post(posted: Mapping[str, str]) -> dict[str, Any]:
    items = []
    for item in ui.shop_items():
        raw = posted.get(f"buy_{item['name']}", "").strip() or "0"
        try:
            count = int(raw)
        except ValueError:
            count = -1
        if count:
            items.append({"item": item["name"], "count": count})
    return {"team_weapon": posted.get("team_weapon", ""), "items": items}


def order(players: int, posted: Mapping[str, str]) -> dict[str, Any]:
    """The private sign-up order; the ruleset's own check runs now, at the budget of a full
    table (the least there can be), so an overspent list is refused before the seat is taken."""
    payload = shopping_from_post(posted)
    # the form's own slips in plain words first (the ruleset's messages name items by id,
    # for the API's users)
    if payload["team_weapon"] not in TEAM_WEAPON_UNITS:
        raise RuleViolation("§6", "Choose one free team weapon: " + ", ".join(title(n) for n in TEAM_WEAPON_UNITS) + ".")
    wrong = [title(i["item"]) for i in payload["items"] if i["count"] < 0]
    if wrong:
        raise RuleViolation("§6", f"Give how many as a whole number of 0 or more: {', '.join(wrong)}.")
    check_shopping_list(
        payload["team_weapon"], tuple(Stock(i["item"], i["count"]) for i in payload["items"]), ui.budget(players),
    )
    return {"type": "SubmitShoppingList", "payload": payload}
