"""An order as the referee records it: stamped with who gave it and when, digested so a
retry of the same order is recognised, and, when the rules refuse it, kept on record (in
compact form, and only so often) or answered without leaving anything behind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, is_dataclass, replace
from typing import Any

from games.base import Actor, Ruleset, RuleViolation
from games.dice import Dice
from games.serialization import DataError
from referee.store.base import EventStore, NewRecord, RecordKind
from referee.store.hashing import digest
from referee.visibility import unstamped

#: How many refusals of one seat stay on record between two of its accepted orders.
MAX_RECORDED_REFUSALS = 10


def stamp(rules: Ruleset, command_type: str, command: Any, actor: Actor, at_ms: int) -> Any:
    """The order as the referee records it: who gave it and when, on the order and on each
    step of a whole turn (the rules play every step as the turn's; a step's own ``actor``,
    sent or defaulted, would only mislead whoever reads the log)."""
    stamped = replace(command, actor=actor, at_ms=at_ms)
    if rules.whole_turn is None or command_type != rules.whole_turn[0]:
        return stamped
    field_name = rules.whole_turn[1]
    steps = getattr(stamped, field_name, ())
    return replace(stamped, **{field_name: tuple(
        replace(s, actor=actor, at_ms=at_ms) if {"actor", "at_ms"} <= _field_names(s) else s for s in steps)})


def _field_names(value: Any) -> set[str]:
    return {f.name for f in fields(value)} if is_dataclass(value) else set()


def order_digest(rules: Ruleset, command_type: str, payload: Mapping[str, Any]) -> str:
    """A digest of an order as the ruleset reads it (defaults filled in, the referee's
    stamps left out, on each step of a whole turn too), so a retry of the same order
    matches whatever its client omitted."""
    body: Any = unstamped(rules, command_type, payload)
    try:
        body = unstamped(rules, command_type, rules.command_to_data(rules.command_from_data(command_type, body)))
    except (RuleViolation, DataError, TypeError, ValueError):
        pass  # not an order of this ruleset: the raw body is what was sent
    return digest({"order": command_type, "body": body})


def refusal_record(
    rules: Ruleset, command_type: str, payload: Mapping[str, Any], actor: Actor, idempotency_key: str | None,
    violation: RuleViolation, dice: Dice,
) -> NewRecord:
    """The record of a refused order, private to the seat that gave it. Compact: the
    clause, the message and a digest of the order, never the order itself (a player must
    not be able to grow the log at will)."""
    return NewRecord(
        kind=RecordKind.REJECTION, type="OrderRefused",
        payload={"order": command_type, "digest": order_digest(rules, command_type, payload),
                 "rule": violation.rule[:80], "message": violation.message[:500]},
        audience_kind="seats", audience_seats=() if actor.seat is None else (actor.seat,),
        actor_kind=str(actor.kind), actor_seat=actor.seat,
        idempotency_key=idempotency_key,
        draws=tuple(d.to_data() for d in dice.draws),
    )


def refusal_worth_recording(store: EventStore, game_id: str, rules: Ruleset, state: Any, actor: Actor, last: int) -> bool:
    """A refusal is kept on record only for a seat the game is waiting for, and at most
    ``MAX_RECORDED_REFUSALS`` times since that seat's last accepted order: an order
    out of turn, or the eleventh wrong try, is answered but leaves nothing behind."""
    if actor.seat not in rules.to_act(state):
        return False
    count = 0
    for r in reversed(store.read(game_id, after=max(0, last - 4 * MAX_RECORDED_REFUSALS))):
        if (r.actor_kind, r.actor_seat) != (str(actor.kind), actor.seat):
            continue
        if r.kind is RecordKind.COMMAND:
            break
        count += r.kind is RecordKind.REJECTION
    return count < MAX_RECORDED_REFUSALS
