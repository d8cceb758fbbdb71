"""Plain-English lines for Parties' log records (the game page, the live feed, the replay).
Only the record as the viewer received it is used: a chosen move reaches only the mover's
party (P-R14), so nobody else can have it narrated."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from frontend_templates import generic_text

COLUMNS = "abcdefghijklmnopqrstuvwxyz"
DIRECTION_WORDS = {
    "N": "north", "NE": "north-east", "E": "east", "SE": "south-east",
    "S": "south", "SW": "south-west", "W": "west", "NW": "north-west", "stay": "stay",
}
POLICY_WORDS = {
    "always": "ally with anyone", "never": "never ally", "lead": "ally only as the leader",
    "follow": "ally only as a follower",
}


def square(x: Any, y: Any) -> str:
    try:
        return f"{COLUMNS[int(x)]}{int(y) + 1}"
    except (TypeError, ValueError, IndexError):
        return "?"


def tenths(value: Any) -> str:
    try:
        return f"{int(value) / 10:.1f}"
    except (TypeError, ValueError):
        return "?"


class _Words:
    def __init__(self, names: Mapping[int, str]) -> None:
        self.names = names

    def who(self, seat: Any) -> str:
        return self.names.get(seat, f"bot {seat}") if isinstance(seat, int) else "nobody"

    def group(self, seats: Any) -> str:
        seats = list(seats or [])
        if len(seats) == 1:
            return self.who(seats[0])
        return f"the party of {self.who(seats[0])} ({len(seats)} bots)" if seats else "nobody"

    def join(self, seats: Any) -> str:
        people = [self.who(s) for s in seats or []]
        return ", ".join(people[:-1]) + f" and {people[-1]}" if len(people) > 1 else "".join(people)


def battle(p: Mapping[str, Any], w: _Words) -> str:
    """A battle with each bout's D20 rolls (§2.2): "bout 1: 14 x 2.3 = 32.2 against ..."."""
    sides = [list(s) for s in p.get("sides") or [[], []]]
    cause = p.get("cause") or "battle"
    bouts = []
    for bout in p.get("bouts") or []:
        rolls, scores = bout.get("rolls") or [0, 0], bout.get("scores") or [0, 0]
        won = f"{w.who(bout['winner'])} wins it" if bout.get("winner") is not None else "a tie, rolled again"
        bouts.append(
            f"bout {bout.get('number')}: D20 {rolls[0]} → {tenths(scores[0])} against D20 {rolls[1]} → "
            f"{tenths(scores[1])}, {won}"
        )
    awards = ", ".join(f"{w.who(s)} {'+' if n > 0 else ''}{n}" for s, n in p.get("awards") or [])
    absorbed = p.get("absorbed") or []
    text = (
        f"Battle ({cause}) between {w.group(sides[0])} and {w.group(sides[1])}: " + "; ".join(bouts)
        + f". {w.who(p.get('winner'))} wins (§2.2); scores {awards} (§2.3); {w.who(p.get('loser'))} respawns on "
        f"{square(p.get('respawn_x'), p.get('respawn_y'))} (§2.4)"
    )
    if absorbed:
        text += f"; {w.join(absorbed)} join{'s' if len(absorbed) == 1 else ''} the winners"
    return text + "."


def _ended(p: Mapping[str, Any], w: _Words) -> str:
    how = "all bots are united in one party" if p.get("reason") == "united" else "the tick cap is reached (P-R5)"
    places = p.get("ranking") or []
    medals = ("1st", "2nd", "3rd")
    podium = "; ".join(f"{m}: {w.join(place)}" for m, place in zip(medals, places, strict=False))
    return f"Game over: {how}. {podium}."


def _tick_closed(p: Mapping[str, Any], w: _Words) -> str:
    moves = [f"{w.who(s)} {DIRECTION_WORDS.get(d, d)}" for s, d in p.get("moves") or []]
    by = "every bot had moved" if p.get("by") == "all moved" else "its deadline passed (a missing move is stay)"
    return f"Tick {p.get('tick')} closed because {by}: " + (", ".join(moves) or "no moves") + "."


def _setup(p: Mapping[str, Any], w: _Words) -> str:
    rows = p.get("rows") or []
    bots = p.get("bots") or []
    placed = ", ".join(f"{w.who(b.get('seat'))} on {square(b.get('x'), b.get('y'))} (strength {tenths(b.get('strength'))})"
                       for b in bots)
    width = len(rows[0]) if rows else 0
    return f"The arena is {width} x {len(rows)} squares; {placed}. A tick lasts {int(p.get('tick_ms', 0)) // 1000} s."


LINES: dict[str, Callable[[Mapping[str, Any], _Words], str]] = {
    "GameSetUp": _setup,
    "TickStarted": lambda p, w: f"Tick {p.get('tick')} began: solos and leaders choose a move.",
    "MoveChosen": lambda p, w: (
        f"{w.who(p.get('seat'))} chose {DIRECTION_WORDS.get(p.get('direction'), p.get('direction'))} "
        f"for tick {p.get('tick')} (secret to the party)."),
    "AllyPolicySet": lambda p, w: f"{w.who(p.get('seat'))} will {POLICY_WORDS.get(p.get('policy'), p.get('policy'))} (secret).",
    "TickClosed": _tick_closed,
    "MoveBlocked": lambda p, w: (
        f"{w.who(p.get('seat'))} could not step {DIRECTION_WORDS.get(p.get('direction'), p.get('direction'))}: "
        f"another bot aimed at {square(p.get('x'), p.get('y'))} too, so both stay (P-R8)."),
    "BotMoved": lambda p, w: (
        f"{w.who(p.get('seat'))} moved from {square(p.get('from_x'), p.get('from_y'))} to {square(p.get('x'), p.get('y'))}."),
    "Squeezed": lambda p, w: (
        f"{w.who(p.get('seat'))} squeezed between two obstacle corners and lost {tenths(p.get('lost'))} "
        f"strength, now {tenths(p.get('strength'))} (§5.2-§5.4)."),
    "AllianceFormed": lambda p, w: (
        f"{w.who(p.get('leader'))} and {w.who(p.get('follower'))} formed an alliance; "
        f"{w.who(p.get('leader'))} leads (§1.1, §1.2)."),
    "AllianceDeclined": lambda p, w: (
        f"{w.join(p.get('seats'))} met but did not ally: {w.join(p.get('refused_by'))} said no (§1.3)."),
    "PartyJoined": lambda p, w: f"{w.who(p.get('seat'))} joined the party of {w.who(p.get('leader'))} (§3.1).",
    "BattleFought": battle,
    "GameEnded": _ended,
}


def narrate(record: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """One line for a feed record; orders and refusals in the generic words."""
    line = LINES.get(str(record.get("type", "")))
    payload = record.get("payload")
    if record.get("kind") != "event" or line is None or not isinstance(payload, Mapping):
        if record.get("kind") == "command" and record.get("type") == "Move" and isinstance(payload, Mapping):
            actor = (record.get("actor") or {}).get("seat")
            return f"{_Words(names).who(actor)} sent a move: {DIRECTION_WORDS.get(payload.get('direction'), '?')}."
        return generic_text.narrate(record, names)
    try:
        return line(payload, _Words(names))
    except (KeyError, TypeError, ValueError, IndexError):
        return generic_text.narrate(record, names)


#: Records worth showing in the "what happened" list (steps are on the board, one's own
#: choice is on the move pad).
NOTABLE = frozenset({"TickClosed", "MoveBlocked", "Squeezed", "AllianceFormed", "AllianceDeclined", "PartyJoined",
                     "BattleFought", "GameEnded", "GameSetUp"})
