"""Plain-English lines for log records (the game page, the replay and the forum post).
Only the record as the viewer received it from the feed is used."""

from __future__ import annotations

from typing import Any

from games.worms.board import name as square_name
from games.worms.items import title


def _items(items: list[dict[str, Any]] | None) -> str:
    if not items:
        return "nothing"
    return ", ".join(f"{title(s['item'])} x{s['count'] if s['count'] is not None else '∞'}" for s in items)


def _sq(p: dict[str, Any]) -> str:
    try:
        return square_name((int(p["x"]), int(p["y"])))
    except (KeyError, TypeError, ValueError):
        return "?"


def narrate(record: dict[str, Any], seat_names: dict[int, str] | None = None) -> str:
    names = seat_names or {}
    p = record.get("payload") or {}
    t = record.get("type", "")

    def who(seat: Any) -> str:
        return names.get(seat, f"seat {seat}") if seat is not None else "nobody"

    lines: dict[str, Any] = {
        "WormMoved": lambda: f"{p.get('worm')} moved to {_sq(p)}" + ("" if p.get("cause", "walk") == "walk" else f" ({p.get('cause')})"),
        "WormDamaged": lambda: f"{p.get('worm')} took {p.get('amount')} damage ({p.get('cause')}), health {p.get('health')}",
        "WormHealed": lambda: f"{p.get('worm')} healed {p.get('amount')}, health {p.get('health')}",
        "WormDied": lambda: f"{p.get('worm')} died ({p.get('cause')})",
        "WormPoisoned": lambda: f"{p.get('worm')} was poisoned",
        "WeaponFired": lambda: f"{p.get('worm')} fired the {title(p.get('weapon', ''))}" + (f" at {p.get('target')}" if p.get("target") else ""),
        "CrateDropped": lambda: f"a crate dropped on {_sq(p)}",
        "CrateCollected": lambda: f"{p.get('worm')} collected the crate on {_sq(p)}",
        "ItemsGained": lambda: f"{who(p.get('seat'))} gained {_items(p.get('items'))} (from {p.get('source')})",
        "ItemsLost": lambda: f"{who(p.get('seat'))} lost {_items(p.get('items'))} ({p.get('reason')})",
        "WindChanged": lambda: f"the wind is now {p.get('strength')} {p.get('direction') or ''}".rstrip(),
        "WaterRose": lambda: f"the water rose to {p.get('level')}",
        "TurnStarted": lambda: f"turn {p.get('turn')}: {who(p.get('seat'))} to play",
        "TurnEnded": lambda: f"{who(p.get('seat'))}'s turn ended ({p.get('reason')}); next: {who(p.get('next_seat'))}",
        "TeamEliminated": lambda: f"{who(p.get('seat'))} is out ({p.get('reason')})",
        "TeamSurrendered": lambda: f"{who(p.get('seat'))} surrendered",
        "GameWon": lambda: f"{who(p.get('seat'))} won the game",
        "GameDrawn": lambda: "the game is a draw",
        "MineExploded": lambda: f"a mine exploded on {_sq(p)}",
        "DrumExploded": lambda: f"an oil drum exploded on {_sq(p)}",
        "Exploded": lambda: f"an explosion on {_sq(p)}",
        "SuddenDeathBegan": lambda: "sudden death began",
        "ShoppingListAccepted": lambda: f"shopping list accepted: {_items(p.get('inventory'))}",
        "TurnBriefing": lambda: f"{who(p.get('seat'))}'s weapons this turn: {_items(p.get('inventory'))}",
        "CrateFilled": lambda: f"the crate on {_sq(p)} holds {_items(p.get('contents'))}",
        "LandLowered": lambda: "the land was lowered by the blast",
        "MinePlaced": lambda: f"a mine was placed on {_sq(p)}",
        "CardGone": lambda: f"the donor card on {_sq(p)} is gone ({p.get('how')})",
        "CardSeen": lambda: f"a donor card appeared on {_sq(p)}",
    }
    if t in lines:
        try:
            return str(lines[t]())
        except Exception:  # a payload of an unexpected shape: fall back to the type
            return t
    if record.get("kind") == "rejection":
        return f"refused: {p.get('message') or p.get('reason') or t}"
    return t
