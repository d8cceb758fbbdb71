"""Orders as text, for the rules cases and for people::

    seat 1 at 3500: conquer c2
    seat 2 at 3600: liberate c2 pink
    seat 1 at 4000: hq c2            (place or move the headquarters)
    seat 1 at 4100: lift hq
    seat 3 at 0: say take the centre
    scheduler at 0: start round 1
    scheduler at 183000: end round 1
    referee: pass

``at`` is the arrival time in ms (what the referee stamps as ``at_ms``; 0 if left out).
A case that needs many orders (a bound on repeated orders) writes ``15 × (order; order)``:
the orders in brackets, 15 times over (``expand``).
"""

from __future__ import annotations

import re

from games.base import MODERATOR, REFEREE, SCHEDULER, Actor, Command
from games.wormlord.board import Colour
from games.wormlord.commands import (
    Conquer,
    EndRound,
    Liberate,
    LiftHeadquarters,
    Pass,
    PlaceHeadquarters,
    Say,
    StartRound,
)

_REPEATED = re.compile(r"(\d+) × \((.*)\)")
_LINE = re.compile(r"^(?:seat (\d+)|(scheduler|referee|moderator))(?: at (-?\d+))?:\s*(.*)$")


class OrderError(ValueError):
    pass


def parse_order(text: str) -> Command:
    m = _LINE.match(text.strip())
    if not m:
        raise OrderError(f"{text!r}: an order reads 'seat N at MS: conquer c3' (or 'scheduler at MS: ...')")
    seat, who, at, body = m.groups()
    actor = Actor.player(int(seat)) if seat else {"scheduler": SCHEDULER, "referee": REFEREE, "moderator": MODERATOR}[who]
    at_ms = int(at) if at else 0
    words = body.split()
    verb = " ".join(words[:2])
    if words[:1] == ["conquer"] and len(words) == 2:
        return Conquer(actor=actor, at_ms=at_ms, square=words[1])
    if words[:1] == ["liberate"] and len(words) == 3:
        try:
            owner = Colour(words[2])
        except ValueError:
            raise OrderError(f"{text!r}: {words[2]!r} is not a colour ({', '.join(Colour)})") from None
        return Liberate(actor=actor, at_ms=at_ms, square=words[1], owner=owner)
    if words[:1] == ["hq"] and len(words) == 2:
        return PlaceHeadquarters(actor=actor, at_ms=at_ms, square=words[1])
    if body == "lift hq":
        return LiftHeadquarters(actor=actor, at_ms=at_ms)
    if words[:1] == ["say"]:
        return Say(actor=actor, at_ms=at_ms, text=body[4:])
    if verb in ("start round", "end round") and len(words) == 3 and words[2].isdigit():
        kind = StartRound if words[0] == "start" else EndRound
        return kind(actor=actor, at_ms=at_ms, round=int(words[2]))
    if body == "pass":
        return Pass(actor=actor, at_ms=at_ms)
    raise OrderError(
        f"{text!r}: unknown order {body!r} (conquer SQ, liberate SQ COLOUR, hq SQ, lift hq, say TEXT, "
        "start round N, end round N, pass)"
    )


def expand(texts: list[str] | tuple[str, ...]) -> list[str]:
    """The orders one by one: ``3 × (a; b)`` is a, b, a, b, a, b."""
    out: list[str] = []
    for text in texts:
        m = _REPEATED.fullmatch(text.strip())
        out += [o.strip() for o in m.group(2).split(";")] * int(m.group(1)) if m else [text]
    return out


def format_order(command: Command) -> str:
    actor = command.actor
    who = f"seat {actor.seat}" if actor.seat is not None else str(actor.kind)
    match command:
        case Conquer(square=sq):
            body = f"conquer {sq}"
        case Liberate(square=sq, owner=owner):
            body = f"liberate {sq} {owner}"
        case PlaceHeadquarters(square=sq):
            body = f"hq {sq}"
        case LiftHeadquarters():
            body = "lift hq"
        case Say(text=text):
            body = f"say {text}"
        case StartRound(round=n):
            body = f"start round {n}"
        case EndRound(round=n):
            body = f"end round {n}"
        case _:
            body = "pass"
    return f"{who} at {command.at_ms}: {body}"
