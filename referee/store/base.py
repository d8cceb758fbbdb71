"""The event store contract.

A log is a sequence of records per game, numbered 1, 2, 3 ... without gaps.

Record versions. Version 1 (every log written before audiences named a set of seats)
stores an audience as a kind ("everyone", "seat", "moderators") and at most one seat.
Version 2 stores a kind ("everyone", "seats", "moderators") and a list of seats, and hashes
both plus its version. Old records are never rewritten: they keep their version-1 hash
body, and ``audience_of`` reads them as the version-2 form (a "seat" is a set of one). Appends say
which sequence number they expect to write first; if another writer got there first the
store raises ``ConcurrencyError`` and writes nothing. Records are never changed. Each one
stores the hash of its predecessor and its own (``hashing.record_hash``).
"""

from __future__ import annotations

import datetime as dt
import enum
from abc import ABC, abstractmethod
from collections.abc import Generator, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from referee.errors import ConcurrencyError
from referee.store.hashing import GENESIS, chain_hash, hash_body, record_hash, v2_body_json


class TransactionSpoilt(ConcurrencyError):
    """An append lost a race in a way that spoilt the surrounding transaction (only a writer
    that bypassed the referee can cause it): retry in a new transaction, not in this one."""


class RecordKind(enum.StrEnum):
    COMMAND = "command"  # an order (or the referee's own action) with the dice it drew
    EVENT = "event"  # what the ruleset decided happened
    REJECTION = "rejection"  # a refused order, where the ruleset wants it on record
    NOTICE = "notice"  # referee metadata: moderator rulings on the log itself (freeze ...)


#: The scope of every key that is not a player's (the referee's, the scheduler's, moderators').
SHARED_KEY_SCOPE = -1


def key_scope(actor_kind: str, actor_seat: int | None) -> int:
    """Whose idempotency keys a record's key is checked against. A player's keys are its
    seat's alone, as a payment API scopes keys per account: another seat's key neither
    refuses its order nor tells it that the key was used. The referee, the scheduler and
    moderators share one scope per game, because a unit of scheduled work is played by
    whichever of them its position calls for and must still happen once."""
    return actor_seat if actor_kind == "player" and actor_seat is not None else SHARED_KEY_SCOPE


@dataclass(frozen=True)
class NewRecord:
    kind: RecordKind
    type: str
    payload: dict[str, Any]
    audience_kind: str = "everyone"
    audience_seats: tuple[int, ...] = ()
    actor_kind: str = "referee"
    actor_seat: int | None = None
    schema_version: int = 1
    idempotency_key: str | None = None
    cause_offset: int | None = None  # index, within the same append, of the causing command
    draws: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class StoredRecord:
    game_id: str
    seq: int
    kind: RecordKind
    type: str
    payload: dict[str, Any]
    audience_kind: str
    audience_seat: int | None
    actor_kind: str
    actor_seat: int | None
    schema_version: int
    idempotency_key: str | None
    cause_seq: int | None
    draws: tuple[dict[str, Any], ...]
    created_at: dt.datetime
    prev_hash: str
    hash: str = field(default="")
    audience_seats: tuple[int, ...] = ()
    record_version: int = 1

    @property
    def audience(self) -> tuple[str, tuple[int, ...]]:
        return audience_of(self)

    def hash_body(self) -> dict[str, Any]:
        return hash_body(
            record_version=self.record_version, game=self.game_id, seq=self.seq, kind=str(self.kind), type=self.type,
            schema_version=self.schema_version, payload=self.payload, audience_kind=self.audience_kind,
            audience_seat=self.audience_seat, audience_seats=self.audience_seats, actor_kind=self.actor_kind,
            actor_seat=self.actor_seat, idempotency_key=self.idempotency_key, cause_seq=self.cause_seq,
            draws=self.draws, created_at=self.created_at.isoformat(),
        )

    def computed_hash(self) -> str:
        return record_hash(self.prev_hash, self.hash_body())


RECORD_VERSION = 2

#: An event record as a fold reads it: (seq, type, payload, schema_version).
LoggedEvent = tuple[int, str, dict[str, Any], int]


def audience_of(record: StoredRecord) -> tuple[str, tuple[int, ...]]:
    """The upcaster of record versions: any record's audience as (kind, seats) in the
    version-2 vocabulary."""
    if record.record_version >= 2:
        return record.audience_kind, record.audience_seats
    if record.audience_kind == "seat":
        return "seats", (() if record.audience_seat is None else (record.audience_seat,))
    return record.audience_kind, ()


def stamp(
    game_id: str, first_seq: int, prev_hash: str, records: Sequence[NewRecord], now: dt.datetime
) -> list[StoredRecord]:
    """Number, chain and hash new records. Shared by every store so they agree byte for byte.

    Builds each record once, with the version-2 hash body written out here rather than via
    a first, hash-less record (this runs on every append)."""
    out: list[StoredRecord] = []
    created = now.isoformat()
    for i, r in enumerate(records):
        seq = first_seq + i
        seats = tuple(sorted(set(r.audience_seats))) if r.audience_seats else ()
        cause_seq = None if r.cause_offset is None else first_seq + r.cause_offset
        draws = tuple(r.draws)
        digest_ = chain_hash(prev_hash, v2_body_json(
            game=game_id, seq=seq, kind=str(r.kind), type=r.type, schema_version=r.schema_version,
            payload=r.payload, audience_kind=r.audience_kind, audience_seats=seats, actor_kind=r.actor_kind,
            actor_seat=r.actor_seat, idempotency_key=r.idempotency_key, cause_seq=cause_seq, draws=draws,
            created_at=created,
        ))
        out.append(stored_record(
            game_id=game_id, seq=seq, kind=r.kind, type=r.type, payload=r.payload, audience_kind=r.audience_kind,
            audience_seat=None, actor_kind=r.actor_kind, actor_seat=r.actor_seat, schema_version=r.schema_version,
            idempotency_key=r.idempotency_key, cause_seq=cause_seq, draws=draws, created_at=now,
            prev_hash=prev_hash, hash=digest_, audience_seats=seats, record_version=RECORD_VERSION,
        ))
        prev_hash = digest_
    return out


def stored_record(**fields: Any) -> StoredRecord:
    """A ``StoredRecord`` from all its fields, without the frozen dataclass's per-field
    ``__setattr__`` (replay builds tens of thousands of them)."""
    record = object.__new__(StoredRecord)
    record.__dict__.update(fields)
    return record


@dataclass(frozen=True)
class LoadedTail:
    """What the referee needs to decide the next order, read in one go: the latest snapshot
    (at or before the position asked for) and every record from the snapshot's own on (from
    the first without one). The last record gives the head's seq and hash."""

    snapshot: Snapshot | None
    records: list[StoredRecord]

    @property
    def last_seq(self) -> int:
        return self.records[-1].seq if self.records else 0

    @property
    def last_hash(self) -> str:
        return self.records[-1].hash if self.records else GENESIS


@dataclass(frozen=True)
class GameInfo:
    id: str
    ruleset: str
    ruleset_version: str
    settings: dict[str, Any]
    seed: str
    status: str = "open"  # open (seating), active, finished
    frozen_reason: str = ""
    private_log: bool = False


@dataclass(frozen=True)
class Snapshot:
    game_id: str
    seq: int
    ruleset_version: str
    state: dict[str, Any]
    state_hash: str


class EventStore(ABC):
    """What the referee needs from storage. ``append`` is atomic: all records or none."""

    # games
    @abstractmethod
    def create_game(self, info: GameInfo) -> None: ...

    @abstractmethod
    def get_game(self, game_id: str) -> GameInfo:
        """Raise ``referee.errors.GameNotFound`` if there is no such game."""

    @abstractmethod
    def update_game(self, game_id: str, *, status: str | None = None, frozen_reason: str | None = None) -> None: ...

    # the log
    @abstractmethod
    def append(
        self, game_id: str, expected_seq: int, records: Sequence[NewRecord], now: dt.datetime,
        prev_hash: str | None = None, snapshot: Snapshot | None = None,
    ) -> list[StoredRecord]:
        """Write ``records`` as ``expected_seq``, ``expected_seq + 1`` ... or raise ConcurrencyError.

        ``prev_hash`` is the hash of record ``expected_seq - 1`` when the caller has just
        read it (it saves a read); an append whose predecessor does not have that hash is
        refused like a lost race, so a stale tail can never break the chain. ``snapshot``
        (of the position after these records) is saved with them, or not at all."""

    @abstractmethod
    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[StoredRecord]: ...

    def read_events(self, game_id: str, after: int = 0, upto: int | None = None) -> list[LoggedEvent]:
        """The event records of ``read``, as ``(seq, type, payload, schema_version)``: all a
        fold needs (replay reads tens of thousands). A store that can fetch only those
        columns overrides it."""
        return [(r.seq, r.type, r.payload, r.schema_version)
                for r in self.read(game_id, after=after, upto=upto) if r.kind is RecordKind.EVENT]

    def iter_events(
        self, game_id: str, after: int = 0, upto: int | None = None
    ) -> Generator[LoggedEvent, None, None]:
        """``read_events`` as the rows arrive, for a fold that consumes them one by one (a
        replay of a long log never holds it whole). A store that can stream overrides it;
        the caller must exhaust or close the iterator before using the store again."""
        yield from self.read_events(game_id, after=after, upto=upto)

    @abstractmethod
    def last_seq(self, game_id: str) -> int: ...

    @abstractmethod
    def find_key(self, game_id: str, key: str, *, actor_kind: str, actor_seat: int | None) -> StoredRecord | None:
        """The record that carries idempotency key ``key`` in this game in the scope of
        that actor (``key_scope``), if any."""

    def append_at_tail(
        self, game_id: str, expected_seq: int, records: Sequence[NewRecord], now: dt.datetime, *,
        prev_hash: str, snapshot: Snapshot | None = None,
    ) -> list[StoredRecord]:
        """The referee's append: right after it read the tail (``prev_hash``), with the
        snapshot due, if any. By default a plain ``append`` and then the snapshot; a store
        that can do both in one statement overrides it."""
        stored = self.append(game_id, expected_seq, records, now)
        if snapshot is not None:
            self.save_snapshot(snapshot)
        return stored

    def holding(self, game_id: str) -> AbstractContextManager[None]:
        """Within the block, the game's ``append_at_tail`` calls may be held and written
        together when it ends (reads of the game's log still see them). By default each
        is written as it comes."""
        return nullcontext()

    def take_held(self, game_id: str) -> Any:
        """What ``holding`` holds for the game, taken out to be written by the caller in a
        statement of its own (``referee.store.sql.HeldInsert``); None if nothing is, or if
        the store writes each append as it comes."""
        return None

    def load(self, game_id: str, upto: int | None = None) -> LoadedTail:
        """The latest snapshot at or before ``upto`` and the records from its seq on."""
        snapshot = self.latest_snapshot(game_id, upto=upto)
        after = snapshot.seq - 1 if snapshot is not None else 0
        return LoadedTail(snapshot, self.read(game_id, after=after, upto=upto))

    def load_many(self, games: Sequence[tuple[str, int | None]]) -> dict[str, LoadedTail]:
        """For each (game, after): with ``after`` None, its latest snapshot and the records
        from its seq on (``load``); else the records after ``after``, with no snapshot."""
        return {game_id: self.load(game_id) if after is None else LoadedTail(None, self.read(game_id, after=after))
                for game_id, after in games}

    def caused_by(self, game_id: str, seq: int) -> list[StoredRecord]:
        return [r for r in self.read(game_id, after=seq) if r.cause_seq == seq]

    # snapshots (disposable caches of the fold)
    @abstractmethod
    def save_snapshot(self, snapshot: Snapshot) -> None: ...

    @abstractmethod
    def latest_snapshot(self, game_id: str, upto: int | None = None) -> Snapshot | None: ...

    @abstractmethod
    def snapshots(self, game_id: str) -> list[Snapshot]: ...

    @abstractmethod
    def drop_snapshot(self, game_id: str, seq: int) -> None: ...

    @staticmethod
    def genesis(game_id: str) -> str:
        return GENESIS

    def cache_scope(self) -> object:
        """What identifies this store's data for per-process caches: the database for the
        Django store (shared by its instances), the instance for in-memory stores."""
        return self.__dict__.setdefault("_cache_scope", object())
