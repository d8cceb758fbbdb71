"""LGGWG's records in plain words (the game page's log, the flashed answers to an order, the
offline replay). Django-free. Only what the record itself carries is told: a team that did
not see an effect gets its public part (a unit lost hit points, no cause), and that is all
the line says."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.lggwg.board import name
from games.lggwg.orders import format_order
from games.lggwg.state import COLOUR_NAMES, Order

KIND_WORDS = {
    "move": "move", "fire": "targeted fire", "opp": "opportunity fire", "oppmove": "opportunity move",
    "hold": "hold", "mine": "lay a mine", "forfeit": "forfeit",
}
WEAPON_WORDS = {"rifle": "a rifle shot", "shell": "a shell", "shells": "a shell", "laser": "a laser", "fireball": "a fireball",
                "bite": "a bite", "knife": "a knife"}
TERRAIN_WORDS = {".": "floor", "#": "wall", "+": "door", "_": "open door", "L": "locked door", "=": "window",
                 "c": "crate", "n": "nuclear crate", "h": "health pack", "?": "unknown"}
END_WORDS = {"last_team_standing": "one team is left standing", "no_team_left": "no team is left",
             "last_turn_played": "the last turn has been played"}
OUT_WORDS = {"executive": "its Executive is dead", "forfeit": "it forfeited"}


def square(value: Any) -> str:
    try:
        return name((int(value[0]), int(value[1])))
    except (TypeError, ValueError, IndexError):
        return str(value)


def team_of(unit: str) -> str:
    """A unit's team from its id (R1 is Red's); neutral flags and sheep are X."""
    return COLOUR_NAMES.get(unit[:1], "?") if unit else "?"


def who(unit: str) -> str:
    return f"{team_of(unit)} {unit}" if unit and not unit.startswith("X") else (unit or "someone")


def seat_name(seat: Any, names: Mapping[int, str]) -> str:
    try:
        return names.get(int(seat), f"seat {seat}")
    except (TypeError, ValueError):
        return str(seat)


def scores_text(scores: Sequence[Sequence[int]] | None, names: Mapping[int, str]) -> str:
    parts = [f"{seat_name(s, names)} {'+' if n >= 0 else ''}{n}" for s, n in (scores or ()) if n]
    return f" (score: {', '.join(parts)})" if parts else ""


def order_text(order: Mapping[str, Any]) -> str:
    """One order as the notation writes it (``R1>N``)."""
    try:
        return format_order(Order(str(order.get("kind", "hold")), str(order.get("unit", "")),
                                  str(order.get("target", ""))))
    except KeyError:
        return str(order)


def order_words(kind: str, unit: str, target: str = "") -> str:
    words = KIND_WORDS.get(kind, kind)
    if kind in ("move", "oppmove") and target:
        return f"{who(unit)}: {words} {target}"
    if kind == "fire" and target:
        return f"{who(unit)}: {words} at {target}"
    if kind == "forfeit":
        return "forfeit: every unit of the team dies (§2)"
    return f"{who(unit)}: {words}" if unit else words


def step_text(record: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """A resolved order (an ``OrderResolved`` record or a view's ``last_resolution`` step)."""
    head = f"Step {record.get('step')}: {seat_name(record.get('team'), names)} — "
    head += order_words(str(record.get("kind", "")), str(record.get("unit", "")), str(record.get("target", "")))
    if "executed" not in record:
        return head + "."  # what it did, only the teams that saw it know
    outcome = "done" if record.get("executed") else "not carried out"
    note = str(record.get("note") or "")
    return f"{head}: {outcome}{f' ({note})' if note else ''}."


def narrate(record: Mapping[str, Any], names: Mapping[int, str]) -> str | None:
    """One line, or None for a record this module does not know (the generic text serves)."""
    kind = record.get("kind")
    t = str(record.get("type", ""))
    p: Mapping[str, Any] = record.get("payload") or {}
    if kind == "command":
        actor = record.get("actor") or {}
        if record.get("redacted") or t == "Order":
            return f"{seat_name(actor.get('seat'), names)} gave an order."
        if t == "SubmitOrders":
            return f"Orders sent: {', '.join(order_text(o) for o in p.get('orders', [])) or 'none'}."
        if t == "ResolveAtDeadline":
            missing = ", ".join(seat_name(s, names) for s in p.get("missed", []))
            given = "all holds" if p.get("policy") == "hold" else "the bot's list"
            return f"Turn {p.get('turn')}: the deadline passed; {missing or 'nobody'} got {given} (L-R14)."
        if t == "Setup":
            return "The referee set the game up."
        return None
    if kind == "rejection":
        return f"Refused: {p.get('message', '')} (rule {p.get('rule', '?')})"
    return _event(t, p, names)


def _event(t: str, p: Mapping[str, Any], names: Mapping[int, str]) -> str | None:  # noqa: C901, PLR0911, PLR0912 - one line per event type
    if t == "GameStarted":
        teams = ", ".join(f"{COLOUR_NAMES.get(x.get('colour'), '?')} ({seat_name(x.get('seat'), names)})"
                          for x in p.get("teams", []))
        flags = " A flag game: no forfeit penalty." if p.get("flag_game") else ""
        return f"The game begins on the map {p.get('map')}: {teams}; at most {p.get('max_turns')} turns.{flags}"
    if t == "TurnStarted":
        order = ", ".join(seat_name(s, names) for s in p.get("team_order", []))
        return f"Turn {p.get('turn')} begins. Team order (§3.1): {order}. Orders are due."
    if t == "OrdersSubmitted":
        orders = ", ".join(order_text(o) for o in p.get("orders", []))
        return f"Your list for turn {p.get('turn')}: {orders or 'empty'} (secret until resolution)."
    if t == "TeamSubmitted":
        return f"{seat_name(p.get('team'), names)} has sent its orders for turn {p.get('turn')}."
    if t == "SheepStepped":
        return f"The sheep {p.get('unit')} wandered to {square(p.get('to'))}."
    if t == "UnitMoved":
        return f"{who(str(p.get('unit', '')))} moved to {square(p.get('to'))}."
    if t == "ShotFired":
        weapon = WEAPON_WORDS.get(str(p.get("weapon")), str(p.get("weapon")))
        path = [square(s) for s in p.get("path", [])]
        return (f"{who(str(p.get('unit', '')))} fired {weapon} at {square(p.get('aim'))}"
                f"{'; it flew ' + ' → '.join(path) if path else ''}.")
    if t == "UnitDamaged":
        cause = f" ({p['cause']})" if p.get("cause") else ""
        return (f"{who(str(p.get('unit', '')))} lost {p.get('amount')} hit point{'s' if p.get('amount') != 1 else ''}"
                f"{cause}; {p.get('hp')} left{scores_text(p.get('scores'), names)}.")
    if t == "UnitDied":
        cause = f" ({p['cause']})" if p.get("cause") else ""
        return f"{who(str(p.get('unit', '')))} died{cause}{scores_text(p.get('scores'), names)}."
    if t == "UnitHealed":
        return f"{who(str(p.get('unit', '')))} took {p.get('amount')} hit points from a health pack; {p.get('hp')} now."
    if t == "TerrainChanged":
        what = TERRAIN_WORDS.get(str(p.get("terrain")), str(p.get("terrain")))
        at = square(p.get("square"))
        if p.get("terrain") == "_":
            return f"The door at {at} is open."
        if p.get("terrain") in ("L", "n"):
            return f"The {what} at {at} took damage: {p.get('wear')} of 5."
        return f"The square {at} is now {what}."
    if t == "Exploded":
        return (f"Explosion at {square(p.get('square'))} ({p.get('cause')}): {p.get('damage')} damage within "
                f"{p.get('radius')} square{'s' if p.get('radius') != 1 else ''}.")
    if t == "MinePlaced":
        return f"{who(str(p.get('unit', '')))} laid a mine at {square(p.get('square'))}."
    if t == "MineExploded":
        return f"{seat_name(p.get('team'), names)}'s mine went off at {square(p.get('square'))}."
    if t == "OrderResolved":
        return step_text(p.get("record") or {}, names)
    if t == "TeamOut":
        reason = OUT_WORDS.get(str(p.get("reason")), str(p.get("reason")))
        return f"{seat_name(p.get('team'), names)} is out: {reason}{scores_text(p.get('scores'), names)}."
    if t == "GameEnded":
        reason = END_WORDS.get(str(p.get("reason")), str(p.get("reason")))
        return f"The game is over: {reason}{scores_text(p.get('scores'), names)}."
    return None
