"""Plain-English lines for log records (the game page, the replay and the forum post).
Only the record as the viewer received it from the feed is used. No line uses a team's
name as a possessive ("Alice's Annelids's"): team names are players' own text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from frontend_templates.generic_board import words
from frontend_templates.generic_text import notice_text
from games.worms.board import name as square_name
from games.worms.items import title

#: Weapons whose shot hits one square without a blast worth the name (§5).
SHOTS = frozenset({"handgun", "shotgun", "uzi", "minigun", "longbow", "prod"})
#: Why a turn ended, in words (``TurnEnded.reason``); "ended" needs no explanation.
TURN_END_REASONS = {
    "ended": "", "fall": "after a fall", "mine": "a mine went off", "deadline": "the deadline passed",
    "stuck": "no worm could move", "surrendered": "the team surrendered", "dead": "the team has no worms left",
}
#: Setup events that carry no story of their own, in words.
SETUP = {
    "GameCreated": "The game was created",
    "MapGenerated": "The island was drawn",
    "ObjectsPlaced": "Worms, mines and oil drums were placed",
    "StalemateDeclared": "A stalemate was declared",
}


def _items(items: list[dict[str, Any]] | None) -> str:
    if not items:
        return "nothing"
    return ", ".join(f"{title(s['item'])} x{s['count'] if s['count'] is not None else '∞'}" for s in items)


def _sq(p: dict[str, Any], x: str = "x", y: str = "y") -> str:
    try:
        return square_name((int(p[x]), int(p[y])))
    except (KeyError, TypeError, ValueError):
        return "an unknown square"


def _weapon(name: Any) -> str:
    return title(str(name or "")) or "weapon"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def narrate(record: dict[str, Any], seat_names: dict[int, str] | None = None) -> str:
    """One line for a feed record; unknown types are told in words, never by their name."""
    names = seat_names or {}
    notice = notice_text(record, names)
    if notice is not None:
        return notice
    p = record.get("payload") or {}
    t = str(record.get("type", ""))
    if record.get("kind") == "rejection":
        return f"Refused: {p.get('message') or p.get('reason') or words(t)}"
    if record.get("kind") == "command":
        actor = record.get("actor") or {}
        who = names.get(actor.get("seat"), "") if actor.get("seat") is not None else actor.get("kind", "the referee")
        return f"{who or 'A player'} gave an order" if record.get("redacted") else f"{_sentence(words(t))} (by {who})"

    def who(seat: Any) -> str:
        return names.get(seat, f"seat {seat}") if seat is not None else "nobody"

    lines: dict[str, Callable[[], str]] = {
        "WormMoved": lambda: f"{p.get('worm')} moved to {_sq(p)}" + (
            "" if p.get("cause", "walk") == "walk" else
            " (moved by a moderator's correction)" if p.get("cause") == "moderator ruling" else f" ({p.get('cause')})"),
        "WormDamaged": lambda: (
            f"A moderator corrected {p.get('worm')}'s health to {p.get('health')}"
            if p.get("cause") == "moderator ruling" else
            f"{p.get('worm')} took {p.get('amount')} damage from the {p.get('cause')}, health now {p.get('health')}"),
        "WormHealed": lambda: f"{p.get('worm')} healed {p.get('amount')}, health now {p.get('health')}",
        "WormDied": lambda: f"{p.get('worm')} died ({p.get('cause')})",
        "WormPoisoned": lambda: f"{p.get('worm')} was poisoned",
        "PoisonCured": lambda: f"the poison of {who(p.get('seat'))} was cured",
        "WormRestored": lambda: f"A moderator restored {p.get('worm')} on {_sq(p)} with health {p.get('health')}",
        "WeaponFired": lambda: _fired(p),
        "CrateDropped": lambda: f"a crate dropped on {_sq(p)}",
        "CrateCollected": lambda: f"{p.get('worm') or 'a worm'} collected the crate on {_sq(p)}",
        "CrateDestroyed": lambda: f"the crate on {_sq(p)} was destroyed",
        "CrateBoobyTrapped": lambda: f"the crate on {_sq(p)} is now booby-trapped",
        "ItemsGained": lambda: f"{who(p.get('seat'))} gained {_items(p.get('items'))} (from {p.get('source')})",
        "ItemsLost": lambda: f"{who(p.get('seat'))} lost {_items(p.get('items'))} ({p.get('reason')})",
        "WindChanged": lambda: (f"the wind is now {p.get('strength')} {p.get('direction') or ''}".rstrip()
                                if p.get("strength") else "the wind dropped: calm"),
        "WaterRose": lambda: f"the water rose to {p.get('level')}",
        "RoundBegan": lambda: f"round {p.get('round')} began",
        "TurnOrderDrawn": lambda: "the turn order was drawn: " + ", ".join(who(s) for s in p.get("order") or []),
        "GameStarted": lambda: f"the game started; sudden death after round {p.get('sudden_death_after')}",
        "TurnStarted": lambda: f"turn {p.get('turn')}: {who(p.get('seat'))} to play",
        "TurnEnded": lambda: _turn_ended(p, who),
        "TeamEliminated": lambda: f"{who(p.get('seat'))} is out" + (f" ({p.get('reason')})" if p.get("reason") else ""),
        "TeamSurrendered": lambda: f"{who(p.get('seat'))} surrendered",
        "GameWon": lambda: f"{who(p.get('seat'))} won the game",
        "GameDrawn": lambda: "the game is a draw",
        "MineExploded": lambda: f"a mine exploded on {_sq(p)}",
        "MinePlaced": lambda: f"a mine was placed on {_sq(p.get('mine') or {})}",
        "MineMoved": lambda: f"a mine was pushed from {_sq(p)} to {_sq(p, 'to_x', 'to_y')}",
        "DrumMoved": lambda: f"an oil drum was pushed from {_sq(p)} to {_sq(p, 'to_x', 'to_y')}",
        "DrumExploded": lambda: f"an oil drum exploded on {_sq(p)}",
        "ObjectSank": lambda: f"a {p.get('kind') or 'thing'} sank on {_sq(p)}",
        "DynamitePlaced": lambda: f"dynamite was lit on {_sq(p)}: it goes off when the turn ends",
        "Exploded": lambda: _exploded(p),
        "SuddenDeathBegan": lambda: "sudden death began",
        "ShoppingListAccepted": lambda: f"the shopping list of {who(p.get('seat'))} was accepted: {_items(p.get('inventory'))}",
        "TurnBriefing": lambda: f"weapons of {who(p.get('seat'))} this turn: {_items(p.get('inventory'))}",
        "CrateFilled": lambda: f"the crate on {_sq(p)} holds {_items(p.get('contents'))}",
        "LandLowered": lambda: "the blast lowered the land on "
                               + ", ".join(_sq(s) for s in p.get("squares") or []),
        "CardDropped": lambda: "a donor card was dropped",
        "CardGone": lambda: f"the donor card on {_sq(p)} is gone ({p.get('how')})",
        "CardSeen": lambda: f"a donor card appeared on {_sq(p)}",
        "UtilityUsed": lambda: f"{p.get('worm')} used the {_weapon(p.get('utility'))}",
        "Teleported": lambda: f"{p.get('worm')} teleported" + (f" to {_sq(p)}" if p.get("x") is not None else ""),
        "BubbleCreated": lambda: f"a bubble formed on {_sq(p)}",
        "BubbleGone": lambda: f"the bubble on {_sq(p)} is gone",
        "WormVanished": lambda: f"{p.get('worm')} became invisible",
        "WormRevealed": lambda: f"{p.get('worm')} is visible again on {_sq(p)}, health {p.get('health')}",
        "InvisibleWormMet": lambda: f"{p.get('walker')} bumped into invisible {p.get('worm')} on {_sq(p)}",
        "CrateShowerFell": lambda: f"{who(p.get('seat'))} brought a crate shower",
        "CrateSpyReport": lambda: "your crate spy reported what the crates hold",
        "ParachuteOpened": lambda: f"{p.get('worm')} opened a parachute",
        "MineJoinedCrate": lambda: f"a mine fell into the crate on {_sq(p)}",
    }
    if t in SETUP:
        return SETUP[t]
    corrected = _correction(t, p, bool(record.get("by_moderator")), who)
    if corrected:
        return corrected
    if t in lines:
        try:
            return _sentence(str(lines[t]()))
        except Exception:  # a payload of an unexpected shape: fall back to the type in words
            return _sentence(words(t))
    return _sentence(words(t)) or "Something happened"


def _correction(t: str, p: dict[str, Any], by_moderator: bool, who: Callable[[Any], str]) -> str:
    """What a moderator's correction did, told as a correction (not as a hit or a heal)."""
    if t == "WormDamaged" and p.get("cause") == "moderator ruling" or t == "WormHealed" and by_moderator:
        return f"A moderator corrected {p.get('worm')}'s health to {p.get('health')}"
    if t == "ItemsGained" and (by_moderator or p.get("source") == "moderator ruling"):
        return f"A moderator gave back {_items(p.get('items'))} to {who(p.get('seat'))}"
    return ""


def _fired(p: dict[str, Any]) -> str:
    weapon = str(p.get("weapon") or "")
    line = f"{p.get('worm') or 'a worm'} fired the {_weapon(weapon)}" + (f" at {p.get('target')}" if p.get("target") else "")
    left = int(p.get("shots_left") or 0)
    if left > 0:
        line += f"; {left} more shot{'s' if left != 1 else ''} with the {_weapon(weapon)} this turn"
    return line


def _exploded(p: dict[str, Any]) -> str:
    source = str(p.get("source") or "")
    if source in SHOTS:
        return f"the {_weapon(source)} hit {_sq(p)}"
    return f"an explosion on {_sq(p)}" + (f" ({source})" if source else "")


def _turn_ended(p: dict[str, Any], who: Callable[[Any], str]) -> str:
    why = TURN_END_REASONS.get(str(p.get("reason")), str(p.get("reason") or ""))
    line = f"the turn of {who(p.get('seat'))} ended" + (f": {why}" if why else "")
    if p.get("next_seat") is not None:
        line += f"; next: {who(p.get('next_seat'))}"
    return line
