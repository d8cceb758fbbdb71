"""The referee: load a position, ask the ruleset, append what it decided, replay, verify.

Framework-free on purpose: it talks to an ``EventStore`` and a ``Registry`` and is given a
clock, so unit tests run it on the in-memory store and the Django services run it on the
database inside ``transaction.atomic``.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
import secrets
import threading
import time
import uuid
from collections.abc import Callable, Generator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any

from games.base import (
    MODERATOR_VIEW,
    SCHEDULER,
    Actor,
    ActorKind,
    Event,
    Registry,
    Ruleset,
    RuleViolation,
    SeatInfo,
    Viewer,
    ViewerKind,
    work_key_text,
)
from games.dice import Dice, Draw, RecordedDice, SeededDice, seeded_value
from games.serialization import DataError, to_data
from referee.errors import (
    ConcurrencyError,
    GameFrozen,
    GameNotActive,
    IdempotencyConflict,
    LogCorrupt,
    SeatError,
)
from referee.store.base import (
    EventStore,
    GameInfo,
    LoggedEvent,
    NewRecord,
    RecordKind,
    Snapshot,
    StoredRecord,
    TransactionSpoilt,
)
from referee.store.hashing import GENESIS, digest
from referee.visibility import (
    SETUP,
    Numbering,
    NumberingCache,
    Readers,
    item_for,
    order_readers,
    renumber,
    shown,
    unstamped,
)

log = logging.getLogger(__name__)
Clock = Callable[[], dt.datetime]


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


_jitter = random.Random()
_NUMBERINGS = NumberingCache()
# (store scope, game) -> (ruleset, version): a game's rules never change, so reading a
# position needs no game row (``current()`` is one round trip).
_PINNED: dict[tuple[object, str], tuple[str, str]] = {}
_PINNED_MAX = 50_000


class PositionCache:
    """The latest position of recently played games, per process: reading a position then
    costs one short read of the records after the cached head (the head's own record
    included, to check its hash), however long the game. Positions are immutable values,
    so sharing them is safe; an entry whose head was rolled back, or changed, fails the hash
    check and is read afresh (snapshot + tail)."""

    def __init__(self, size: int = 2_000) -> None:
        self.size = size
        self._entries: dict[tuple[object, str], tuple[str, Position]] = {}
        self._lock = threading.Lock()  # web threads (ASGI) share it

    def get(self, key: tuple[object, str], version: str) -> Position | None:
        entry = self._entries.get(key)
        return entry[1] if entry is not None and entry[0] == version else None

    def put(self, key: tuple[object, str], version: str, position: Position) -> None:
        with self._lock:
            self._entries.pop(key, None)
            if len(self._entries) >= self.size:  # drop the oldest (dicts keep insertion order)
                self._entries.pop(next(iter(self._entries)))
            self._entries[key] = (version, position)

    def discard(self, key: tuple[object, str]) -> None:
        with self._lock:
            self._entries.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


POSITIONS = PositionCache()


def _jittered_sleep(attempt: int) -> None:
    """After a lost race, wait a random moment so two busy writers stop colliding."""
    time.sleep(_jitter.uniform(0, 0.002 * 2**attempt))


RECENT_RECORDS = 32

#: Records between snapshots. The first read of a game in a process folds up to this many
#: records after the latest snapshot: at 25 that read stays within 1.5 times a 10-record
#: game's (at 50 it was 2-2.75 times), for one snapshot row per 25 records, written in the
#: same statement as the append that makes it due.
SNAPSHOT_EVERY = 25


@dataclass(frozen=True)
class Position:
    """A game's position and the head of its log, as one order left it: the next order in
    the same unit of work starts from here instead of reading the log again."""

    state: Any
    last_seq: int
    last_hash: str
    snapshot_seq: int  # the latest snapshot's seq (0: none)
    #: The last few records up to the head, as read or appended: what a viewer's numbering
    #: needs to catch up after an order, joined by the hash chain, without reading them again.
    recent: tuple[StoredRecord, ...] = ()

    def with_records(self, records: Sequence[StoredRecord]) -> tuple[StoredRecord, ...]:
        """``recent`` followed by ``records`` (which start right after the head), bounded."""
        return (*self.recent, *records)[-RECENT_RECORDS:]


@dataclass(frozen=True)
class Outcome:
    """What handling one order produced: the appended records (or, for a retried
    idempotency key, the records of the first attempt) and the resulting position."""

    records: tuple[StoredRecord, ...]
    state: Any
    last_seq: int
    replayed: bool = False
    position: Position | None = None  # None for a replayed key
    game: GameInfo | None = None  # the game as the order left it (finished or not), when handle knows it

    @property
    def events(self) -> tuple[StoredRecord, ...]:
        return tuple(r for r in self.records if r.kind is RecordKind.EVENT)


@dataclass(frozen=True)
class Problem:
    seq: int
    check: str  # sequence | chain | hash | readjudication | snapshot
    message: str

    def __str__(self) -> str:
        return f"seq {self.seq}: {self.check}: {self.message}"


@dataclass
class VerifyReport:
    game_id: str
    records: int = 0
    commands: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def first_problem(self) -> Problem | None:
        return min(self.problems, key=lambda p: p.seq, default=None)


class Referee:
    def __init__(
        self,
        store: EventStore,
        registry: Registry,
        clock: Clock = utc_now,
        *,
        snapshot_every: int = SNAPSHOT_EVERY,
        max_retries: int = 10,
        backoff: Callable[[int], None] | None = None,
        on_game_end: Callable[[GameInfo, Ruleset, Any], None] | None = None,
    ) -> None:
        self.store = store
        self.registry = registry
        self.clock = clock
        self.snapshot_every = snapshot_every
        self.max_retries = max_retries
        self.lost_races = 0  # appends that lost to another writer and were retried
        self.backoff = backoff or _jittered_sleep
        self.store_numberings = _NUMBERINGS
        #: Told (game, rules, final state) in the unit of work that records a game's end by
        #: an order: the ratings' projection (``referee.ratings.game_ended``).
        self.on_game_end = on_game_end

    # --- games --------------------------------------------------------------------------

    def ruleset_for(self, info: GameInfo) -> Ruleset:
        return self.registry.get(info.ruleset, info.ruleset_version)

    def create_game(
        self, *, ruleset: str, version: str | None = None, settings: Mapping[str, Any] | None = None,
        game_id: str | None = None, seed: str | None = None, private_log: bool = False,
    ) -> GameInfo:
        rules = self.registry.get(ruleset, version)
        parsed = rules.parse_settings(dict(settings or {}))
        info = GameInfo(
            id=game_id or str(uuid.uuid4()),
            ruleset=rules.name,
            ruleset_version=rules.version,
            settings=to_data(parsed),
            seed=seed or secrets.token_hex(32),
            private_log=private_log,
        )
        self.store.create_game(info)
        return info

    def start_game(self, game_id: str, seats: Sequence[SeatInfo]) -> Outcome:
        """Record the ``Setup`` order (settings and seats) and the events it produces."""
        info = self.store.get_game(game_id)
        rules = self.ruleset_for(info)
        if info.status != "open":
            raise GameNotActive("The game has already started.", game=game_id)
        if not rules.min_seats <= len(seats) <= rules.max_seats:
            raise SeatError(
                f"{rules.name} needs {rules.min_seats} to {rules.max_seats} seats; this game has {len(seats)}."
            )
        payload = {"settings": info.settings, "seats": [to_data(s) for s in seats]}
        outcome = self._append_decided(
            info, rules, SETUP, payload, Actor(ActorKind.REFEREE), None,
            lambda state, dice: rules.setup(rules.parse_settings(info.settings), tuple(seats), dice),
        )
        self.store.update_game(game_id, status="finished" if rules.is_finished(outcome.state) else "active")
        return outcome

    # --- orders -------------------------------------------------------------------------

    def handle(
        self,
        game_id: str,
        *,
        command_type: str,
        payload: Mapping[str, Any],
        actor: Actor,
        idempotency_key: str | None = None,
        game: GameInfo | None = None,
        position: Position | None = None,
        preface: Sequence[NewRecord] = (),
    ) -> Outcome:
        """Decide one order and append what happened. Raises RuleViolation (nothing changed,
        except a private record of the refusal where the ruleset wants one).

        The unit of work: ``game`` is the game as the caller just read it under its row
        lock (saves reading it again), ``position`` where the caller's previous order left
        it (saves reading the log), ``preface`` referee notices appended just before the
        order in the same append (a deadline's expiry). The idempotency key is looked up
        only when the append collides with it (or the order is refused), not on every order:
        the unique (game, key) index refuses a second use either way."""
        info = game or self.store.get_game(game_id)
        if info.frozen_reason:
            # The reason names the log's own seq: for moderators. Players number the log
            # their own way (referee/visibility.py) and are told only that it is frozen.
            detail = f": {info.frozen_reason}" if actor.kind is not ActorKind.PLAYER else (
                ". Orders wait until a moderator has checked it; the game page says when it is open again.")
            raise GameFrozen("This game is frozen while a moderator looks into its log" + detail, game=game_id)
        if idempotency_key and info.status != "active":
            earlier = self._find_key(game_id, idempotency_key, actor)
            if earlier is not None:
                return self._replay_idempotent(info, earlier, command_type, payload, actor)
        if info.status == "open":
            raise GameNotActive("The game has not started yet.", game=game_id)
        if info.status == "finished":
            raise GameNotActive("The game is over; no more orders are taken.", game=game_id)
        rules = self.ruleset_for(info)
        body = {k: v for k, v in payload.items() if k not in ("actor", "at_ms")}
        try:
            command = rules.command_from_data(command_type, body)
        except DataError as exc:
            raise RuleViolation("order", f"The order {command_type} is malformed: {exc}.") from None
        stamped = _stamp(rules, command_type, command, actor, int(self.clock().timestamp() * 1000))
        outcome = self._append_decided(
            info, rules, command_type, rules.command_to_data(stamped), actor, idempotency_key,
            lambda state, dice: rules.decide(state, stamped, dice), position=position, preface=preface,
        )
        if not outcome.replayed and rules.is_finished(outcome.state):
            self.store.update_game(game_id, status="finished")
            info = replace(info, status="finished")
            if self.on_game_end is not None:
                self.on_game_end(info, rules, outcome.state)
        return replace(outcome, game=info)

    def _append_decided(
        self,
        info: GameInfo,
        rules: Ruleset,
        command_type: str,
        payload: dict[str, Any],
        actor: Actor,
        idempotency_key: str | None,
        decide: Callable[[Any, Dice], tuple[Event, ...]],
        *,
        position: Position | None = None,
        preface: Sequence[NewRecord] = (),
    ) -> Outcome:
        for _attempt in range(self.max_retries):
            if position is None or _attempt:
                position = self._position(info.id, rules)
            state, last = position.state, position.last_seq
            seq = last + 1 + len(preface)
            dice = SeededDice(info.seed, info.id, seq)
            try:
                events = decide(state, dice)
            except RuleViolation as violation:
                if idempotency_key and (earlier := self._find_key(info.id, idempotency_key, actor)) is not None:
                    return self._replay_idempotent(info, earlier, command_type, payload, actor)
                if preface:  # the notices stand even when the rules refuse what follows them
                    try:
                        self.store.append_at_tail(info.id, last + 1, preface, self.clock(), prev_hash=position.last_hash)
                    except TransactionSpoilt:
                        raise
                    except ConcurrencyError:
                        self.lost_races += 1
                        self.backoff(_attempt)
                        continue
                    raise
                if (rules.records_rejections and actor.kind is ActorKind.PLAYER
                        and self._refusal_worth_recording(info.id, rules, state, actor, last)):
                    # Compact: the clause, the message and a digest of the order, never the
                    # order itself (a player must not be able to grow the log at will).
                    rejection = NewRecord(
                        kind=RecordKind.REJECTION, type="OrderRefused",
                        payload={"order": command_type, "digest": _order_digest(rules, command_type, payload),
                                 "rule": violation.rule[:80], "message": violation.message[:500]},
                        audience_kind="seats", audience_seats=_seats(actor.seat),
                        actor_kind=str(actor.kind), actor_seat=actor.seat,
                        idempotency_key=idempotency_key,
                        draws=tuple(d.to_data() for d in dice.draws),
                    )
                    try:
                        self.store.append_at_tail(info.id, last + 1, [rejection], self.clock(), prev_hash=position.last_hash)
                    except TransactionSpoilt:
                        raise
                    except ConcurrencyError:
                        self.lost_races += 1
                        self.backoff(_attempt)
                        continue
                raise
            records = [*preface, self._command_record(rules, command_type, payload, actor, idempotency_key, dice, events)]
            records += [self._event_record(rules, e, len(preface)) for e in events]
            new_state = rules.fold(state, events)
            head = last + len(records)
            snapshot = self._snapshot_due(info, rules, new_state, head, position.snapshot_seq)
            try:
                stored = self.store.append_at_tail(
                    info.id, last + 1, records, self.clock(), prev_hash=position.last_hash, snapshot=snapshot
                )
            except TransactionSpoilt:
                raise
            except ConcurrencyError:
                self.lost_races += 1
                if idempotency_key and (earlier := self._find_key(info.id, idempotency_key, actor)) is not None:
                    return self._replay_idempotent(info, earlier, command_type, payload, actor)
                self.backoff(_attempt)
                continue
            after = Position(new_state, head, stored[-1].hash, snapshot.seq if snapshot else position.snapshot_seq,
                             position.with_records(stored))
            POSITIONS.put((self.store.cache_scope(), str(info.id)), rules.version, after)
            return Outcome(tuple(stored[len(preface):]), new_state, head, position=after)
        raise ConcurrencyError("The game is busy; the order could not be placed. Try again.", game=info.id)

    def _command_record(
        self, rules: Ruleset, command_type: str, payload: dict[str, Any], actor: Actor, key: str | None, dice: Dice,
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

    @staticmethod
    def _event_record(rules: Ruleset, event: Event, cause_offset: int = 0) -> NewRecord:
        audience = rules.event_audience(event)
        return NewRecord(
            kind=RecordKind.EVENT, type=rules.event_type_name(event), payload=rules.event_to_data(event),
            audience_kind=str(audience.kind), audience_seats=tuple(sorted(audience.seats)),
            schema_version=type(event).schema_version, cause_offset=cause_offset,
        )

    def _refusal_worth_recording(self, game_id: str, rules: Ruleset, state: Any, actor: Actor, last: int) -> bool:
        """A refusal is kept on record only for a seat the game is waiting for, and at most
        ``MAX_RECORDED_REFUSALS`` times since that seat's last accepted order: an order
        out of turn, or the eleventh wrong try, is answered but leaves nothing behind."""
        if actor.seat not in rules.to_act(state):
            return False
        count = 0
        for r in reversed(self.store.read(game_id, after=max(0, last - 4 * MAX_RECORDED_REFUSALS))):
            if (r.actor_kind, r.actor_seat) != (str(actor.kind), actor.seat):
                continue
            if r.kind is RecordKind.COMMAND:
                break
            count += r.kind is RecordKind.REJECTION
        return count < MAX_RECORDED_REFUSALS

    def _find_key(self, game_id: str, key: str, actor: Actor) -> StoredRecord | None:
        return self.store.find_key(game_id, key, actor_kind=str(actor.kind), actor_seat=actor.seat)

    def _replay_idempotent(
        self, info: GameInfo, earlier: StoredRecord, command_type: str, payload: Mapping[str, Any], actor: Actor
    ) -> Outcome:
        rules = self.ruleset_for(info)
        if earlier.kind is RecordKind.REJECTION:
            before = earlier.payload.get("digest") or _order_digest(
                rules, str(earlier.payload.get("order", "")), earlier.payload.get("command") or {})
        else:
            before = _order_digest(rules, earlier.type, earlier.payload)
        same_order = before == _order_digest(rules, command_type, payload)
        if not same_order or (earlier.actor_kind, earlier.actor_seat) != (str(actor.kind), actor.seat):
            raise IdempotencyConflict(
                "That idempotency key was already used for a different order.", seq=earlier.seq
            )
        if earlier.kind is RecordKind.REJECTION:
            raise RuleViolation(earlier.payload["rule"], earlier.payload["message"])
        records = (earlier, *self.store.caused_by(info.id, earlier.seq))
        state, last = self.current(info.id)
        return Outcome(records, state, last, replayed=True)

    # --- positions ------------------------------------------------------------------------

    def current(self, game_id: str) -> tuple[Any, int]:
        return self.state_at(game_id, None)

    def state_at(self, game_id: str, seq: int | None) -> tuple[Any, int]:
        """The position after record ``seq`` (the latest if None): snapshot + later events,
        read in one round trip (``EventStore.load``)."""
        position = self._position(game_id, self._rules_of(game_id), seq)
        return position.state, position.last_seq

    def position(self, game_id: str, rules: Ruleset | None = None) -> Position:
        """The latest position with the head of the log (what an order starts from). A
        caller that has read the game row passes its ``rules`` (no read of the row)."""
        return self._position(game_id, rules if rules is not None else self._rules_of(game_id))

    def _rules_of(self, game_id: str) -> Ruleset:
        key = (self.store.cache_scope(), str(game_id))
        pinned = _PINNED.get(key)
        if pinned is None:
            info = self.store.get_game(game_id)
            pinned = (info.ruleset, info.ruleset_version)
            if len(_PINNED) >= _PINNED_MAX:
                _PINNED.clear()
            _PINNED[key] = pinned
        return self.registry.get(*pinned)

    def _position(self, game_id: str, rules: Ruleset, seq: int | None = None) -> Position:
        key = (self.store.cache_scope(), str(game_id))
        if seq is None:
            cached = POSITIONS.get(key, rules.version)
            if cached is not None and cached.last_seq:
                records = self.store.read(game_id, after=cached.last_seq - 1)
                if records and records[0].seq == cached.last_seq and records[0].hash == cached.last_hash:
                    state = rules.fold(cached.state, self._events(rules, records[1:]))
                    position = Position(state, records[-1].seq, records[-1].hash, cached.snapshot_seq,
                                        cached.with_records(records[1:]))
                    POSITIONS.put(key, rules.version, position)
                    return position
        position = self._load_position(game_id, rules, seq)
        if seq is None:
            POSITIONS.put(key, rules.version, position)
        return position

    def _load_position(self, game_id: str, rules: Ruleset, seq: int | None) -> Position:
        tail = self.store.load(game_id, upto=seq)
        snap, records = tail.snapshot, tail.records
        if snap is not None and snap.ruleset_version != rules.version:
            snap, records = None, self.store.read(game_id, upto=seq)  # a snapshot of older rules: fold it all
        elif snap is not None and digest(snap.state) != snap.state_hash:
            # Changed behind the referee's back: never played from; the log is the truth.
            log.error("game %s: snapshot at seq %s does not match its hash; folding the log instead",
                      game_id, snap.seq)
            snap, records = None, self.store.read(game_id, upto=seq)
        state, snapshot_seq = rules.initial_state(), 0
        if snap is not None:
            state, snapshot_seq = rules.state_from_data(snap.state), snap.seq
            records = [r for r in records if r.seq > snap.seq] if records and records[0].seq <= snap.seq else records
        state = rules.fold(state, self._events(rules, records))
        return Position(state, tail.last_seq, tail.last_hash, snapshot_seq, tuple(records[-RECENT_RECORDS:]))

    def replay(self, game_id: str, upto: int | None = None) -> Any:
        """The fold from the first record, ignoring snapshots (what verify trusts)."""
        info = self.store.get_game(game_id)
        rules = self.ruleset_for(info)
        # Folded as the rows arrive: a long log is never held whole, in Python or in libpq.
        with closing(_logged_events(rules, info.id, self.store.iter_events(game_id, upto=upto))) as events:
            return rules.fold(rules.initial_state(), events)

    @staticmethod
    def _events(rules: Ruleset, records: Sequence[StoredRecord]) -> list[Event]:
        return [_decode(rules, r) for r in records if r.kind is RecordKind.EVENT]

    def _snapshot_due(
        self, info: GameInfo, rules: Ruleset, state: Any, seq: int, latest_seq: int
    ) -> Snapshot | None:
        """The snapshot to save with the append that ends at ``seq``, if one is due."""
        if seq - latest_seq < self.snapshot_every:
            return None
        data = rules.state_to_data(state)
        return Snapshot(info.id, seq, rules.version, data, digest(data))

    def _maybe_snapshot(
        self, info: GameInfo, rules: Ruleset, state: Any, seq: int, latest_seq: int | None = None
    ) -> int:
        """Save a snapshot if ``snapshot_every`` records have passed since the latest one
        (``latest_seq`` when the caller knows it); returns the latest snapshot's seq."""
        if latest_seq is None:
            latest = self.store.latest_snapshot(info.id)
            latest_seq = latest.seq if latest else 0
        if seq - latest_seq >= self.snapshot_every:
            data = rules.state_to_data(state)
            self.store.save_snapshot(Snapshot(info.id, seq, rules.version, data, digest(data)))
            return seq
        return latest_seq

    # --- what players may see -------------------------------------------------------------

    def view(self, game_id: str, viewer: Viewer, seq: int | None = None) -> dict[str, Any]:
        """The position after the viewer's record ``seq`` (the latest if None), numbered in
        the viewer's own sequence (see ``referee.visibility``)."""
        self.store.get_game(game_id)
        numbering = self.numbering(game_id, viewer)
        real = None if seq is None else numbering.real_of(seq)
        return self.view_at_real(game_id, viewer, real)

    def view_at_real(self, game_id: str, viewer: Viewer, real_seq: int | None) -> dict[str, Any]:
        info = self.store.get_game(game_id)
        rules = self.ruleset_for(info)
        state, last = self.state_at(game_id, real_seq)
        numbering = self.numbering(game_id, viewer)
        return {"seq": numbering.number_of(last), "position": rules.view(state, self._effective(info, viewer))}

    def _effective(self, info: GameInfo, viewer: Viewer) -> Viewer:
        """When a game ends its whole log becomes public, unless its settings keep it private."""
        if info.status == "finished" and not info.private_log:
            return MODERATOR_VIEW
        return viewer

    def numbering(
        self, game_id: str, viewer: Viewer, info: GameInfo | None = None, known: Sequence[StoredRecord] = (),
    ) -> Numbering:
        """Which records ``viewer`` sees, so they can be numbered without gaps. Kept per
        process and extended with one read of the records from its last one on (whose hash
        must still match: an append that was rolled back invalidates it). ``known`` are
        records in hand (an order's own, just appended): when they join the cached
        numbering by the hash chain, it is extended by them without reading the log."""
        info = info or self.store.get_game(game_id)
        effective = self._effective(info, viewer)
        if effective.kind is ViewerKind.MODERATOR:
            return Numbering([], known[-1].seq if known else self.store.last_seq(game_id), identity=True)
        rules = self.ruleset_for(info)
        key = (self.store.cache_scope(), game_id, str(effective.kind), effective.seat)
        cached = self.store_numberings.get(key)
        real: list[int] = []
        joined = _joining(cached, known) if cached is not None and cached.last_read else None
        if cached is not None and joined is not None:
            if not joined:
                return cached
            real, records = list(cached.real), joined
        elif cached is not None and cached.last_read:
            records = self.store.read(game_id, after=cached.last_read - 1)
            if records and records[0].seq == cached.last_read and records[0].hash == cached.last_hash:
                if len(records) == 1:
                    return cached
                real, records = list(cached.real), records[1:]
            else:
                cached = None  # the log behind the cache was rolled back
        if joined is None and (cached is None or not cached.last_read):
            records = self.store.read(game_id)
        for r in records:
            if shown(rules, effective, r, _decode):
                real.append(r.seq)
        last = records[-1] if records else None
        fresh = Numbering(real, last.seq if last else 0, last_hash=last.hash if last else "")
        self.store_numberings.put(key, fresh)
        return fresh

    def order_answer(
        self, game_id: str, viewer: Viewer, records: Sequence[StoredRecord], info: GameInfo | None = None,
        position: Position | None = None,
    ) -> tuple[list[dict[str, Any]], int]:
        """What ``viewer`` sees of the records an order just appended, and how many records
        they have been shown by then. The records in hand are the log's own (just appended,
        hash-chained): numbered and shown from memory when the viewer's numbering reaches
        up to them, read again only when it does not."""
        info = info or self.store.get_game(game_id)
        known: Sequence[StoredRecord] = records
        if position is not None and records and position.last_seq == records[-1].seq:
            known = position.recent  # ends with these records, which are committed: so is what they chain to
        numbering = self.numbering(game_id, viewer, info, known=known)
        if not records:
            return [], numbering.count
        rules = self.ruleset_for(info)
        effective = self._effective(info, viewer)
        upto = min(records[-1].seq, numbering.last_read)
        readers = self._readers(info, rules, records, numbering)
        items = [item for r in records
                 if r.seq <= upto and (item := item_for(rules, effective, r, _decode, readers)) is not None]
        return renumber(items, numbering), numbering.count

    def feed_of(
        self, game_id: str, viewer: Viewer, records: Sequence[StoredRecord], info: GameInfo,
    ) -> tuple[list[dict[str, Any]], Numbering]:
        """What ``viewer`` sees of ``records`` (a stretch of the log read once for every
        reader of the game), numbered, with the numbering that numbers them: the same
        filter as ``feed``, without reading the log again when the numbering joins them."""
        numbering = self.numbering(game_id, viewer, info, known=records)
        rules = self.ruleset_for(info)
        effective = self._effective(info, viewer)
        readers = self._readers(info, rules, records, numbering)
        items = [item for r in records
                 if r.seq <= numbering.last_read and (item := item_for(rules, effective, r, _decode, readers)) is not None]
        return renumber(items, numbering), numbering

    def feed(self, game_id: str, viewer: Viewer, after: int = 0, upto: int | None = None) -> list[dict[str, Any]]:
        """The log as ``viewer`` may see it, numbered in their own sequence: records they
        may not see are left out without a trace; dice draws are for moderators (and for
        everyone once the game is over)."""
        numbering = self.numbering(game_id, viewer)
        real_after = numbering.real_of(after)
        real_upto = None if upto is None else numbering.real_of(upto)
        return self.feed_between(game_id, viewer, real_after, real_upto, numbering)

    def feed_between(
        self, game_id: str, viewer: Viewer, real_after: int, real_upto: int | None,
        numbering: Numbering | None = None,
    ) -> list[dict[str, Any]]:
        """The viewer's items for the log positions after ``real_after`` up to ``real_upto``."""
        info = self.store.get_game(game_id)
        rules = self.ruleset_for(info)
        effective = self._effective(info, viewer)
        numbering = numbering or self.numbering(game_id, viewer, info)
        # Read no further than the numbering reaches: a record appended in between would
        # otherwise be numbered as its predecessor now and sent again later.
        upto = numbering.last_read if real_upto is None else min(real_upto, numbering.last_read)
        records = self.store.read(game_id, after=real_after, upto=upto)
        readers = self._readers(info, rules, records, numbering)
        items = [item for r in records if (item := item_for(rules, effective, r, _decode, readers)) is not None]
        return renumber(items, numbering)

    def _readers(
        self, info: GameInfo, rules: Ruleset, records: Sequence[StoredRecord], numbering: Numbering,
    ) -> Readers:
        """Who reads each order of ``records`` in full. The numbering was read up to the head
        of the log, where an order's records end: past it nothing is read."""
        head = max(numbering.last_read, records[-1].seq if records else 0)
        return Readers(rules, records, _decode, scope=self.store.cache_scope(), head=head,
                       read=lambda after, upto: self.store.read(info.id, after=after, upto=upto))

    # --- scheduled work ----------------------------------------------------------------------

    def run_due(
        self, game_id: str, key: str, *, game: GameInfo | None = None, position: Position | None = None
    ) -> Outcome | None:
        """Run the ``now``/``at`` work named ``key`` if the position still makes it due.
        The key is the idempotency key, so a second delivery changes nothing (None).
        ``game`` and ``position`` as for ``handle``."""
        info = game or self.store.get_game(game_id)
        rules = self.ruleset_for(info)
        if (info.status != "active" or info.frozen_reason) and self._find_key(game_id, key, SCHEDULER) is not None:
            return None
        if position is None:
            position = self._position(game_id, rules)
        work = next((w for w in rules.scheduled_work(position.state) if work_key_text(w.key) == key), None)
        if work is None or work.command is None:
            return None
        if work.when == "at" and work.at_ms is not None and work.at_ms > self.clock().timestamp() * 1000:
            return None
        data = rules.command_to_data(work.command)
        outcome = self.handle(
            game_id, command_type=type(work.command).__name__, payload=data,
            actor=SCHEDULER, idempotency_key=key, game=info, position=position,
        )
        return None if outcome.replayed else outcome

    # --- audit -----------------------------------------------------------------------------------

    def verify(self, game_id: str) -> VerifyReport:
        """Hash chain intact, sequence contiguous, snapshots true to the log, every recorded
        draw the one the game's seed gives at its place, and every recorded order re-decided
        with its recorded dice reproduces its recorded events."""
        info = self.store.get_game(game_id)
        rules = self.ruleset_for(info)
        records = self.store.read(game_id)
        report = VerifyReport(game_id, records=len(records))
        prev = GENESIS
        for i, r in enumerate(records, start=1):
            if r.seq != i:
                report.problems.append(Problem(r.seq, "sequence", f"expected seq {i}, found {r.seq}"))
                break
            if r.prev_hash != prev:
                report.problems.append(Problem(r.seq, "chain", "does not point at its predecessor's hash"))
            if r.computed_hash() != r.hash:
                report.problems.append(Problem(r.seq, "hash", "content does not match its stored hash"))
            prev = r.hash
        self._readjudicate(info, rules, records, report)
        self._check_snapshots(info, rules, records, report)
        return report

    def _readjudicate(
        self, info: GameInfo, rules: Ruleset, records: list[StoredRecord], report: VerifyReport
    ) -> None:
        state = rules.initial_state()
        by_cause: dict[int, list[StoredRecord]] = {}
        for r in records:
            if r.kind is RecordKind.EVENT:
                by_cause.setdefault(r.cause_seq or 0, []).append(r)
        orders = {r.seq for r in records if r.kind is RecordKind.COMMAND}
        for r in records:
            if r.kind not in (RecordKind.COMMAND, RecordKind.REJECTION):
                if r.kind is RecordKind.EVENT and r.cause_seq not in orders:
                    report.problems.append(Problem(r.seq, "readjudication", "event without a recorded order"))
                    return
                continue
            report.commands += 1
            forged = _unseeded_draw(info, r)
            if forged is not None:
                report.problems.append(Problem(r.seq, "dice", forged))
                return
            dice = RecordedDice([Draw.from_data(d) for d in r.draws])
            try:
                produced = self._redecide(info, rules, state, r, dice)
            except RuleViolation as violation:
                if r.kind is RecordKind.REJECTION and violation.rule == r.payload.get("rule"):
                    continue
                report.problems.append(Problem(r.seq, "readjudication", f"the order is now refused: {violation}"))
                return
            except Exception as exc:  # a corrupt payload must be reported, not crash the audit
                report.problems.append(Problem(r.seq, "readjudication", f"cannot re-decide: {exc}"))
                return
            if r.kind is RecordKind.REJECTION:
                report.problems.append(Problem(r.seq, "readjudication", "a refused order is now accepted"))
                return
            recorded = by_cause.get(r.seq, [])
            want = [(e.type, e.payload, e.audience) for e in recorded]
            got = []
            for e in produced:
                a = rules.event_audience(e)
                got.append((rules.event_type_name(e), rules.event_to_data(e), (str(a.kind), tuple(sorted(a.seats)))))
            if got != want:
                at = next(
                    (w_seq for w_seq, w, g in zip((e.seq for e in recorded), want, got, strict=False) if w != g),
                    recorded[len(got)].seq if len(recorded) > len(got) else r.seq,
                )
                report.problems.append(
                    Problem(at, "readjudication", f"re-deciding order {r.seq} ({r.type}) gives different events")
                )
                return
            if dice.unused:
                report.problems.append(Problem(r.seq, "readjudication", f"{dice.unused} recorded draw(s) unused"))
                return
            state = rules.fold(state, produced)

    def _redecide(self, info: GameInfo, rules: Ruleset, state: Any, r: StoredRecord, dice: Dice) -> tuple[Event, ...]:
        if r.type == SETUP:
            seats = tuple(SeatInfo(int(s["number"]), str(s["name"])) for s in r.payload["seats"])
            return rules.setup(rules.parse_settings(r.payload["settings"]), seats, dice)
        order = r.payload.get("order", r.type) if r.kind is RecordKind.REJECTION else r.type
        data = r.payload if r.kind is RecordKind.COMMAND else r.payload.get("command", None)
        if data is None:  # refusals without the stamped order cannot be re-decided; trust the record
            raise RuleViolation(r.payload.get("rule", ""), r.payload.get("message", ""))
        command = rules.command_from_data(order, data)
        return rules.decide(state, command, dice)

    def _check_snapshots(
        self, info: GameInfo, rules: Ruleset, records: list[StoredRecord], report: VerifyReport
    ) -> None:
        for snap in self.store.snapshots(info.id):
            if snap.ruleset_version != rules.version:
                continue
            if digest(snap.state) != snap.state_hash:
                report.problems.append(Problem(snap.seq, "snapshot", "snapshot content does not match its hash"))
                continue
            try:
                truth = rules.state_to_data(
                    rules.fold(rules.initial_state(), self._events(rules, [r for r in records if r.seq <= snap.seq]))
                )
            except Exception as exc:
                report.problems.append(Problem(snap.seq, "snapshot", f"cannot fold the log: {exc}"))
                continue
            if digest(truth) != snap.state_hash:
                report.problems.append(Problem(snap.seq, "snapshot", "snapshot differs from the fold of the log"))


def _unseeded_draw(info: GameInfo, record: StoredRecord) -> str | None:
    """Why a recorded draw is not the one the game's seed gives (``games.dice``' recipe:
    draw ``i`` of the order at ``seq``), or None. Without this a forger who rewrites a draw,
    the events it decided and every hash after them re-adjudicates cleanly."""
    for i, data in enumerate(record.draws):
        try:
            draw = Draw.from_data(data)
            expected = seeded_value(info.seed, info.id, record.seq, i, draw.low, draw.high)
        except Exception as exc:  # a mangled draw is a finding, not a crash of the audit
            return f"draw {i} cannot be recomputed from the seed: {exc}"
        if draw.value != expected:
            return (
                f"draw {i} ({draw.purpose!r} {draw.low}..{draw.high}) is recorded as {draw.value}; "
                f"the game's seed gives {expected}"
            )
    return None


#: How many refusals of one seat stay on record between two of its accepted orders.
MAX_RECORDED_REFUSALS = 10


def _stamp(rules: Ruleset, command_type: str, command: Any, actor: Actor, at_ms: int) -> Any:
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


def _order_digest(rules: Ruleset, command_type: str, payload: Mapping[str, Any]) -> str:
    """A digest of an order as the ruleset reads it (defaults filled in, the referee's
    stamps left out, on each step of a whole turn too), so a retry of the same order
    matches whatever its client omitted."""
    body: Any = unstamped(rules, command_type, payload)
    try:
        body = unstamped(rules, command_type, rules.command_to_data(rules.command_from_data(command_type, body)))
    except (RuleViolation, DataError, TypeError, ValueError):
        pass  # not an order of this ruleset: the raw body is what was sent
    return digest({"order": command_type, "body": body})


def _joining(cached: Numbering, known: Sequence[StoredRecord]) -> list[StoredRecord] | None:
    """The records of ``known`` after the cached numbering's last one, if ``known`` reaches
    back to it by the hash chain (so nothing between can be missing); None if it does not."""
    for i, r in enumerate(known):
        if r.seq == cached.last_read:
            return list(known[i + 1:]) if r.hash == cached.last_hash else None
        if r.seq == cached.last_read + 1:
            return list(known[i:]) if r.prev_hash == cached.last_hash else None
    return None


def _seats(seat: int | None) -> tuple[int, ...]:
    return () if seat is None else (seat,)


def _logged_events(
    rules: Ruleset, game_id: str, logged: Generator[LoggedEvent, None, None]
) -> Generator[Event, None, None]:
    """The events of ``EventStore.iter_events``, read back as ``_decode`` reads a record,
    one by one as they arrive (closing it closes the store's stream)."""
    decode = rules.event_from_data
    with closing(logged):
        for seq, type_, payload, schema_version in logged:
            try:
                event = decode(type_, payload, schema_version)
            except (DataError, KeyError, TypeError, ValueError) as exc:
                raise LogCorrupt(
                    f"Record {seq} of this game cannot be read ({exc}); a moderator must run verify_log.",
                    game=game_id, seq=seq,
                ) from None
            yield event


def _decode(rules: Ruleset, record: StoredRecord) -> Event:
    """An event read back from the log; a record the ruleset cannot read means the log was
    changed outside the referee, which is reported, never a crash."""
    try:
        return rules.event_from_data(record.type, record.payload, record.schema_version)
    except (DataError, KeyError, TypeError, ValueError) as exc:
        raise LogCorrupt(
            f"Record {record.seq} of this game cannot be read ({exc}); a moderator must run verify_log.",
            game=record.game_id, seq=record.seq,
        ) from None
