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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.store.hashing import GENESIS, record_hash


class RecordKind(enum.StrEnum):
    COMMAND = "command"  # an order (or the referee's own action) with the dice it drew
    EVENT = "event"  # what the ruleset decided happened
    REJECTION = "rejection"  # a refused order, where the ruleset wants it on record
    NOTICE = "notice"  # referee metadata: moderator rulings on the log itself (freeze ...)


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
        if self.record_version >= 2:
            return self._hash_body_v2()
        return {
            "game": self.game_id,
            "seq": self.seq,
            "kind": str(self.kind),
            "type": self.type,
            "schema_version": self.schema_version,
            "payload": self.payload,
            "audience": [self.audience_kind, self.audience_seat],
            "actor": [self.actor_kind, self.actor_seat],
            "idempotency_key": self.idempotency_key,
            "cause_seq": self.cause_seq,
            "draws": list(self.draws),
            "created_at": self.created_at.isoformat(),
        }

    def _hash_body_v2(self) -> dict[str, Any]:
        return {
            "record_version": self.record_version,
            "game": self.game_id,
            "seq": self.seq,
            "kind": str(self.kind),
            "type": self.type,
            "schema_version": self.schema_version,
            "payload": self.payload,
            "audience": [self.audience_kind, list(self.audience_seats)],
            "actor": [self.actor_kind, self.actor_seat],
            "idempotency_key": self.idempotency_key,
            "cause_seq": self.cause_seq,
            "draws": list(self.draws),
            "created_at": self.created_at.isoformat(),
        }

    def computed_hash(self) -> str:
        return record_hash(self.prev_hash, self.hash_body())


RECORD_VERSION = 2


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
    """Number, chain and hash new records. Shared by every store so they agree byte for byte."""
    out: list[StoredRecord] = []
    for i, r in enumerate(records):
        seq = first_seq + i
        rec = StoredRecord(
            game_id=game_id,
            seq=seq,
            kind=r.kind,
            type=r.type,
            payload=r.payload,
            audience_kind=r.audience_kind,
            audience_seat=None,
            audience_seats=tuple(sorted(set(r.audience_seats))),
            record_version=RECORD_VERSION,
            actor_kind=r.actor_kind,
            actor_seat=r.actor_seat,
            schema_version=r.schema_version,
            idempotency_key=r.idempotency_key,
            cause_seq=None if r.cause_offset is None else first_seq + r.cause_offset,
            draws=tuple(r.draws),
            created_at=now,
            prev_hash=prev_hash,
        )
        rec = StoredRecord(**{**rec.__dict__, "hash": rec.computed_hash()})
        out.append(rec)
        prev_hash = rec.hash
    return out


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
    def append(self, game_id: str, expected_seq: int, records: Sequence[NewRecord], now: dt.datetime) -> list[StoredRecord]:
        """Write ``records`` as ``expected_seq``, ``expected_seq + 1`` ... or raise ConcurrencyError."""

    @abstractmethod
    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[StoredRecord]: ...

    @abstractmethod
    def last_seq(self, game_id: str) -> int: ...

    @abstractmethod
    def find_key(self, game_id: str, key: str) -> StoredRecord | None:
        """The record that carries idempotency key ``key`` in this game, if any."""

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
