"""The append of an order: decide at the head of the log, append right after that head.

One attempt starts from a ``Position`` (the state and the head of the log it was read at),
asks the rules, and appends the order, its events and any referee notices before it in one
append at that tail, with a snapshot when one is due. When another writer got there first
the attempt appends nothing: the referee backs off a random moment and decides again from
the new head, up to its ``max_retries``. A refused order appends nothing, or a private
record of the refusal where the ruleset wants one; an idempotency key used before answers
with the first attempt's records instead.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.base import Actor, ActorKind, Event, Ruleset, RuleViolation
from games.dice import Dice, SeededDice
from referee.errors import ConcurrencyError
from referee.orders import event_record, refusal_record, refusal_worth_recording
from referee.positions import POSITIONS, Position, snapshot_due
from referee.store.base import (
    GameInfo,
    NewRecord,
    RecordKind,
    Snapshot,
    StoredRecord,
    TransactionSpoilt,
)

if TYPE_CHECKING:
    from referee.core import Referee

Decide = Callable[[Any, Dice], tuple[Event, ...]]

_jitter = random.Random()


def jittered_sleep(attempt: int) -> None:
    """After a lost race, wait a random moment so two busy writers stop colliding."""
    time.sleep(_jitter.uniform(0, 0.002 * 2**attempt))


@dataclass(frozen=True)
class Appended:
    """What handling one order produced: the appended records (or, for a retried
    idempotency key, the records of the first attempt) and the resulting position."""

    records: tuple[StoredRecord, ...]
    state: Any
    last_seq: int
    replayed: bool = False
    position: Position | None = None  # None for a replayed key
    game: GameInfo | None = None  # the game as the order left it (finished or not), when handle knows it

    @property
    def event_records(self) -> tuple[StoredRecord, ...]:
        """The stored records of the events among ``records`` (not the events themselves)."""
        return tuple(r for r in self.records if r.kind is RecordKind.EVENT)


def append_decided(
    referee: Referee, info: GameInfo, rules: Ruleset, command_type: str, payload: dict[str, Any], actor: Actor,
    idempotency_key: str | None, decide: Decide, *, position: Position | None = None,
    preface: Sequence[NewRecord] = (),
) -> Appended:
    """Decide and append, from ``position`` (else the head of the log) and then from each
    new head another writer left, until an attempt appends or the retries run out."""
    for attempt in range(referee.max_retries):
        if position is None or attempt:
            position = referee.positions.at(info.id, rules)
        outcome = _decide_and_append(
            referee, info, rules, command_type, payload, actor, idempotency_key, decide, position, preface)
        if outcome is not None:
            return outcome
        referee.backoff(attempt)
    raise ConcurrencyError("The game is busy; the order could not be placed. Try again.", game=info.id)


def _decide_and_append(
    referee: Referee, info: GameInfo, rules: Ruleset, command_type: str, payload: dict[str, Any], actor: Actor,
    idempotency_key: str | None, decide: Decide, position: Position, preface: Sequence[NewRecord],
) -> Appended | None:
    """One attempt from ``position``: the outcome, or None when another writer appended
    first (the caller backs off and starts again from the new head)."""
    state, last = position.state, position.last_seq
    seq = last + 1 + len(preface)
    dice = SeededDice(info.seed, info.id, seq)
    try:
        events = decide(state, dice)
    except RuleViolation as violation:
        if idempotency_key and (earlier := referee.find_key(info.id, idempotency_key, actor)) is not None:
            return referee.replay_idempotent(info, earlier, command_type, payload, actor)
        if preface:  # the notices stand even when the rules refuse what follows them
            if _append(referee, info, position, preface) is None:
                return None
            raise
        if (rules.records_rejections and actor.kind is ActorKind.PLAYER
                and refusal_worth_recording(referee.store, info.id, rules, state, actor, last)):
            rejection = refusal_record(rules, command_type, payload, actor, idempotency_key, violation, dice)
            if _append(referee, info, position, [rejection]) is None:
                return None
        raise
    command = referee._command_record(rules, command_type, payload, actor, idempotency_key, dice, events)
    records = [*preface, command, *(event_record(rules, e, len(preface)) for e in events)]
    new_state = rules.fold(state, events)
    head = last + len(records)
    snapshot = snapshot_due(info, rules, new_state, head, position.snapshot_seq, referee.snapshot_every)
    stored = _append(referee, info, position, records, snapshot)
    if stored is None:
        if idempotency_key and (earlier := referee.find_key(info.id, idempotency_key, actor)) is not None:
            return referee.replay_idempotent(info, earlier, command_type, payload, actor)
        return None
    after = Position(new_state, head, stored[-1].hash, snapshot.seq if snapshot else position.snapshot_seq,
                     position.with_records(stored))
    POSITIONS.put((referee.store.cache_scope(), str(info.id)), rules.version, after)
    return Appended(tuple(stored[len(preface):]), new_state, head, position=after)


def _append(
    referee: Referee, info: GameInfo, position: Position, records: Sequence[NewRecord],
    snapshot: Snapshot | None = None,
) -> list[StoredRecord] | None:
    """Append ``records`` right after ``position``'s head: the stored records, or None
    when another writer got there first (counted in the referee's ``lost_races``)."""
    try:
        return referee.store.append_at_tail(
            info.id, position.last_seq + 1, records, referee.clock(), prev_hash=position.last_hash, snapshot=snapshot
        )
    except TransactionSpoilt:
        raise
    except ConcurrencyError:
        referee.lost_races += 1
        return None
