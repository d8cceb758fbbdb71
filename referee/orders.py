"""An order as the referee records it: stamped with who gave it and when, digested so a
retry of the same order is recognised, and, when the rules refuse it, kept on record (in
compact form, and only so often) or answered without leaving anything behind.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields, is_dataclass, replace
from typing import Any

from games.base import Actor, Event, Ruleset, RuleViolation
from games.dice import Dice
from games.serialization import DataError
from referee.errors import IdempotencyConflict
from referee.store.base import EventStore, NewRecord, RecordKind, StoredRecord
from referee.store.hashing import digest
from referee.visibility import order_readers, unstamped

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


def command_record(
    rules: Ruleset, command_type: str, payload: dict[str, Any], actor: Actor, key: str | None, dice: Dice,
    events: Sequence[Event],
) -> NewRecord:
    # Read in full only by those the ruleset's visibility lets see all it did.
    audience = order_readers(rules, command_type, payload, actor, events)
    return NewRecord(
        kind=RecordKind.COMMAND, type=command_type, payload=payload,
        audience_kind=str(audience.kind), audience_seats=tuple(sorted(audience.seats)),
        actor_kind=str(actor.kind), actor_seat=actor.seat,
        idempotency_key=key, draws=tuple(d.to_data() for d in dice.draws),
    )


def event_record(rules: Ruleset, event: Event, cause_offset: int = 0) -> NewRecord:
    audience = rules.event_audience(event)
    return NewRecord(
        kind=RecordKind.EVENT, type=rules.event_type_name(event), payload=rules.event_to_data(event),
        audience_kind=str(audience.kind), audience_seats=tuple(sorted(audience.seats)),
        schema_version=type(event).schema_version, cause_offset=cause_offset,
    )


def check_same_order(
    rules: Ruleset, earlier: StoredRecord, command_type: str, payload: Mapping[str, Any], actor: Actor,
) -> None:
    """A retried idempotency key must bring the same order from the same actor as its first
    use (IdempotencyConflict otherwise); a first use that was refused is refused again."""
    if earlier.kind is RecordKind.REJECTION:
        before = earlier.payload.get("digest") or order_digest(
            rules, str(earlier.payload.get("order", "")), earlier.payload.get("command") or {})
    else:
        before = order_digest(rules, earlier.type, earlier.payload)
    same_order = before == order_digest(rules, command_type, payload)
    if not same_order or (earlier.actor_kind, earlier.actor_seat) != (str(actor.kind), actor.seat):
        raise IdempotencyConflict(
            "That idempotency key was already used for a different order.", seq=earlier.seq
        )
    if earlier.kind is RecordKind.REJECTION:
        raise RuleViolation(earlier.payload["rule"], earlier.payload["message"])
