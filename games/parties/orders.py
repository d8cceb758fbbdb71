"""Orders as text (docs/notation-parties.md), for the rules cases, tests and bot authors::

    1 NE            bot 1 moves north-east this tick (N NE E SE S SW W NW, or stay)
    1 N tick 4      the same, refused unless tick 4 is in play
    1 ally never    bot 1's standing answer to another solo (always, never, lead, follow)
    start           the scheduler starts tick 1
    resolve         the scheduler closes the tick in play at its deadline
    seat 2: start   the scheduler's order given by a seat instead (to see it refused)
    1 NE at 2500    any order at a given time, in ms

An order's time, when not given, is a second into the tick in play for a bot's order, the
tick's deadline for ``resolve`` and 0 for ``start``: the times the referee would stamp.

Reading is syntax only: ``parse_order`` raises ``OrderError`` naming the part at fault when
the text is not an order; whether a direction, a policy or a tick is allowed is the rules'
question (``RULESET.decide`` refuses ``1 UP`` with the clause).
"""

from __future__ import annotations

import re

from games.base import SCHEDULER, Actor, Command
from games.parties.commands import Move, ResolveTick, SetAllyPolicy, StartTick
from games.parties.state import PartiesState

#: A bot's order is stamped this long into the tick when the text gives no time.
DEFAULT_DELAY_MS = 1000

_AT = re.compile(r"^(.*?)\s+at\s+(\S+)$")
_SEAT = re.compile(r"^seat\s+(\S+?):\s*(.*)$")
_WORD = re.compile(r"^[A-Za-z]+$")

GRAMMAR = "'SEAT DIRECTION [tick N]', 'SEAT ally POLICY', '[seat N:] start' or '[seat N:] resolve', then [at MS]"


class OrderError(ValueError):
    """Text that is not an order; the message names the part at fault."""


def parse_order(text: str, state: PartiesState) -> Command:
    """The command ``text`` stands for in ``state`` (which gives the default tick and time)."""
    body = " ".join(text.split())
    if not body:
        raise OrderError(f"an empty order: an order reads {GRAMMAR}")
    at_ms: int | None = None
    m = _AT.match(body)
    if m:
        body, at_ms = m.group(1), _number(m.group(2), text, "time (ms)", allow_negative=True)
    actor: Actor | None = None
    m = _SEAT.match(body)
    if m:
        actor, body = Actor.player(_number(m.group(1), text, "seat")), m.group(2)
    words = body.split()
    if words == ["start"]:
        return StartTick(tick=1, actor=actor or SCHEDULER, at_ms=at_ms or 0)
    if words == ["resolve"]:
        return ResolveTick(tick=state.tick, actor=actor or SCHEDULER, at_ms=state.deadline_ms if at_ms is None else at_ms)
    if not words or not words[0].isdigit():
        raise OrderError(f"{text!r}: {words[0] if words else body!r} is not a bot's seat: an order reads {GRAMMAR}")
    if actor is not None:
        raise OrderError(f"{text!r}: a bot's order is given by the bot it names; 'seat N:' is for start and resolve")
    seat = _number(words[0], text, "seat")
    actor = Actor.player(seat)
    at = state.tick_start_ms + DEFAULT_DELAY_MS if at_ms is None else at_ms
    rest = words[1:]
    if rest[:1] == ["ally"]:
        if len(rest) != 2 or not _WORD.match(rest[1]):
            raise OrderError(f"{text!r}: 'ally' takes one policy word (always, never, lead or follow)")
        return SetAllyPolicy(policy=rest[1], actor=actor, at_ms=at)
    if len(rest) == 1 and _WORD.match(rest[0]):
        return Move(direction=rest[0], actor=actor, at_ms=at)
    if len(rest) == 3 and _WORD.match(rest[0]) and rest[1] == "tick":
        return Move(direction=rest[0], tick=_number(rest[2], text, "tick"), actor=actor, at_ms=at)
    if not rest:
        raise OrderError(f"{text!r}: bot {seat} needs a direction (N NE E SE S SW W NW or stay) or 'ally POLICY'")
    raise OrderError(f"{text!r}: {' '.join(rest)!r} is not a move ('NE', 'N tick 4') or 'ally POLICY'")


def parse_orders(text: str, state: PartiesState) -> tuple[Command, ...]:
    """Orders separated by ";" (``1 NE; 2 stay``), each read in ``state``."""
    return tuple(parse_order(part, state) for part in text.split(";") if part.strip())


def format_order(command: Command) -> str:
    """The text ``parse_order`` reads back as ``command`` (its time always written)."""
    seat = command.actor.seat
    match command:
        case Move(direction=direction, tick=tick):
            body = f"{seat} {direction}" + ("" if tick is None else f" tick {tick}")
        case SetAllyPolicy(policy=policy):
            body = f"{seat} ally {policy}"
        case StartTick():
            body = "start" if seat is None else f"seat {seat}: start"
        case ResolveTick():
            body = "resolve" if seat is None else f"seat {seat}: resolve"
        case _:
            raise OrderError(f"{type(command).__name__} is not a Parties order")
    return f"{body} at {command.at_ms}"


def _number(word: str, text: str, what: str, *, allow_negative: bool = False) -> int:
    digits = word[1:] if allow_negative and word.startswith("-") else word
    if not digits.isdigit():
        raise OrderError(f"{text!r}: {word!r} is not a {what}: a whole number")
    return int(word)
