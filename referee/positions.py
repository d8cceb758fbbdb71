"""Positions: a game's state and the head of its log, read from a snapshot and the records
after it, and kept per process so the next order of a game reads only what is new.

Below ``referee.core`` (which plays orders from these positions) and ``referee.reading``
(which numbers and shows them per viewer): both import this module, it imports neither.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Generator, Sequence
from contextlib import closing
from dataclasses import dataclass
from typing import Any

from games.base import Event, Registry, Ruleset
from games.serialization import DataError
from referee.errors import LogCorrupt
from referee.store.base import (
    EventStore,
    GameInfo,
    LoadedTail,
    LoggedEvent,
    RecordKind,
    Snapshot,
    StoredRecord,
)
from referee.store.hashing import digest

log = logging.getLogger(__name__)

RECENT_RECORDS = 32

#: Records between snapshots. The first read of a game in a process folds up to this many
#: records after the latest snapshot: at 25 that read stays within 1.5 times a 10-record
#: game's (at 50 it was 2-2.75 times), for one snapshot row per 25 records, written in the
#: same statement as the append that makes it due.
SNAPSHOT_EVERY = 25

# (store scope, game) -> (ruleset, version): a game's rules never change, so reading a
# position needs no game row (``current()`` is one round trip).
_PINNED: dict[tuple[object, str], tuple[str, str]] = {}
_PINNED_MAX = 50_000


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

    def head(self, key: tuple[object, str]) -> int | None:
        """The seq of the cached head of any version (None: nothing cached)."""
        entry = self._entries.get(key)
        return entry[1].last_seq if entry is not None and entry[1].last_seq else None

    def discard(self, key: tuple[object, str]) -> None:
        with self._lock:
            self._entries.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


POSITIONS = PositionCache()


class _ReadAlong(threading.local):
    """Per thread: tails of the log read along with a game's lock, not yet used. A tail is
    ``(after, LoadedTail)``: the records from the cached head ``after`` on, or (``after``
    None) the latest snapshot and the records from it."""

    def __init__(self) -> None:
        self.tails: dict[tuple[object, str], tuple[int | None, LoadedTail]] = {}


_READ_ALONG = _ReadAlong()


class Positions:
    """Reads positions of the games in ``store``: from the process's cache when its head
    still matches the log, else from the latest snapshot and the records after it."""

    def __init__(self, store: EventStore, registry: Registry) -> None:
        self.store = store
        self.registry = registry

    def rules_of(self, game_id: str) -> Ruleset:
        key = (self.store.cache_scope(), str(game_id))
        pinned = _PINNED.get(key)
        if pinned is None:
            info = self.store.get_game(game_id)
            pinned = (info.ruleset, info.ruleset_version)
            if len(_PINNED) >= _PINNED_MAX:
                _PINNED.clear()
            _PINNED[key] = pinned
        return self.registry.get(*pinned)

    def tail_wanted(self, game_id: str) -> int | None:
        """What a statement that locks the game should read of its log for ``at``: the
        records from this seq on (the head this process has cached), or with None the
        latest snapshot and the records from it."""
        return POSITIONS.head((self.store.cache_scope(), str(game_id)))

    def read_along(self, game_id: str, after: int | None, tail: LoadedTail) -> None:
        """The log's tail as the game's lock read it (``tail_wanted``), in this unit of
        work: the next ``at`` of the latest position folds it instead of reading the log.
        The unit drops it when it ends, used or not (``forget_read_along``)."""
        _READ_ALONG.tails[(self.store.cache_scope(), str(game_id))] = (after, tail)

    @staticmethod
    def forget_read_along() -> None:
        """The unit of work ends: a tail it did not use is stale for the next."""
        _READ_ALONG.tails.clear()

    def at(self, game_id: str, rules: Ruleset, seq: int | None = None) -> Position:
        """The position after record ``seq`` (the latest, cached, if None)."""
        key = (self.store.cache_scope(), str(game_id))
        if seq is None:
            along = _READ_ALONG.tails.pop(key, None)
            cached = POSITIONS.get(key, rules.version)
            if cached is not None and cached.last_seq:
                if along is not None and along[0] == cached.last_seq:
                    records = along[1].records
                else:
                    records = self.store.read(game_id, after=cached.last_seq - 1)
                position = _caught_up(rules, cached, records)
                if position is not None:
                    POSITIONS.put(key, rules.version, position)
                    return position
            if along is not None and along[0] is None:
                position = self._checked(game_id, rules, seq, along[1])
                POSITIONS.put(key, rules.version, position)
                return position
        position = self._load(game_id, rules, seq)
        if seq is None:
            POSITIONS.put(key, rules.version, position)
        return position

    def latest_of(self, games: Sequence[tuple[str, Ruleset]]) -> dict[str, Position]:
        """The latest positions of several games whose rows the caller has locked, read in
        one statement (``EventStore.load_many``): a cached game's records after its head, the
        others' latest snapshot and records after it. A game whose read needs more (a
        snapshot of older rules, or one that fails its hash) is left out: ``at`` reads it."""
        scope = self.store.cache_scope()
        cached = {game_id: POSITIONS.get((scope, game_id), rules.version) for game_id, rules in games}
        after = {game_id: c.last_seq - 1 for game_id, c in cached.items() if c is not None and c.last_seq}
        read = self.store.load_many([(game_id, after.get(game_id)) for game_id, _ in games])
        out: dict[str, Position] = {}
        for game_id, rules in games:
            if game_id not in read:
                continue
            tail = read[game_id]
            position = None
            if game_id in after:
                position = _caught_up(rules, cached[game_id], tail.records)  # type: ignore[arg-type]
            elif tail.snapshot is None or (tail.snapshot.ruleset_version == rules.version
                                           and digest(tail.snapshot.state) == tail.snapshot.state_hash):
                position = self._from_tail(rules, tail)
            if position is not None:
                POSITIONS.put((scope, game_id), rules.version, position)
                out[game_id] = position
        return out

    def _load(self, game_id: str, rules: Ruleset, seq: int | None) -> Position:
        return self._checked(game_id, rules, seq, self.store.load(game_id, upto=seq))

    def _checked(self, game_id: str, rules: Ruleset, seq: int | None, tail: LoadedTail) -> Position:
        """The position from a tail read from the log, read again whole where its snapshot
        cannot be played from (older rules, or a hash that does not match)."""
        snap, records = tail.snapshot, tail.records
        if snap is not None and snap.ruleset_version != rules.version:
            snap, records = None, self.store.read(game_id, upto=seq)  # a snapshot of older rules: fold it all
        elif snap is not None and digest(snap.state) != snap.state_hash:
            # Changed behind the referee's back: never played from; the log is the truth.
            log.error("game %s: snapshot at seq %s does not match its hash; folding the log instead",
                      game_id, snap.seq)
            snap, records = None, self.store.read(game_id, upto=seq)
        return self._from_tail(rules, LoadedTail(snap, records))

    @staticmethod
    def _from_tail(rules: Ruleset, tail: LoadedTail) -> Position:
        snap, records = tail.snapshot, tail.records
        state, snapshot_seq = rules.initial_state(), 0
        if snap is not None:
            state, snapshot_seq = rules.state_from_data(snap.state), snap.seq
            records = [r for r in records if r.seq > snap.seq] if records and records[0].seq <= snap.seq else records
        state = rules.fold(state, events_of(rules, records))
        return Position(state, tail.last_seq, tail.last_hash, snapshot_seq, tuple(records[-RECENT_RECORDS:]))

    def save_snapshot_if_due(
        self, info: GameInfo, rules: Ruleset, state: Any, seq: int, latest_seq: int | None, every: int,
    ) -> int:
        """Save a snapshot if ``every`` records have passed since the latest one (``latest_seq``
        when the caller knows it); returns the latest snapshot's seq."""
        if latest_seq is None:
            latest = self.store.latest_snapshot(info.id)
            latest_seq = latest.seq if latest else 0
        if seq - latest_seq >= every:
            data = rules.state_to_data(state)
            self.store.save_snapshot(Snapshot(info.id, seq, rules.version, data, digest(data)))
            return seq
        return latest_seq

    def replay(self, game_id: str, upto: int | None = None) -> Any:
        """The fold from the first record, ignoring snapshots (what verify trusts)."""
        info = self.store.get_game(game_id)
        rules = self.registry.get(info.ruleset, info.ruleset_version)
        # Folded as the rows arrive: a long log is never held whole, in Python or in libpq.
        with closing(logged_events(rules, info.id, self.store.iter_events(game_id, upto=upto))) as events:
            return rules.fold(rules.initial_state(), events)


def _caught_up(rules: Ruleset, cached: Position, records: Sequence[StoredRecord]) -> Position | None:
    """The cached position moved on by ``records`` (read from its head's own record on, to
    check its hash); None if the head is no longer there as cached (rolled back, changed)."""
    if not records or records[0].seq != cached.last_seq or records[0].hash != cached.last_hash:
        return None
    state = rules.fold(cached.state, events_of(rules, records[1:]))
    return Position(state, records[-1].seq, records[-1].hash, cached.snapshot_seq, cached.with_records(records[1:]))


def snapshot_due(info: GameInfo, rules: Ruleset, state: Any, seq: int, latest_seq: int, every: int) -> Snapshot | None:
    """The snapshot to save with the append that ends at ``seq``, if one is due."""
    if seq - latest_seq < every:
        return None
    data = rules.state_to_data(state)
    return Snapshot(info.id, seq, rules.version, data, digest(data))


def events_of(rules: Ruleset, records: Sequence[StoredRecord]) -> list[Event]:
    return [decode(rules, r) for r in records if r.kind is RecordKind.EVENT]


def logged_events(
    rules: Ruleset, game_id: str, logged: Generator[LoggedEvent, None, None]
) -> Generator[Event, None, None]:
    """The events of ``EventStore.iter_events``, read back as ``decode`` reads a record,
    one by one as they arrive (closing it closes the store's stream). Each type and schema
    version's reader is looked up once (``Ruleset.event_reader``)."""
    readers: dict[tuple[str, int], Callable[[Any], Event]] = {}
    with closing(logged):
        for seq, type_, payload, schema_version in logged:
            try:
                read = readers.get((type_, schema_version))
                if read is None:
                    read = readers[type_, schema_version] = rules.event_reader(type_, schema_version)
                event = read(payload)
            except (DataError, KeyError, TypeError, ValueError) as exc:
                raise LogCorrupt(
                    f"Record {seq} of this game cannot be read ({exc}); a moderator must run verify_log.",
                    game=game_id, seq=seq,
                ) from None
            yield event


def decode(rules: Ruleset, record: StoredRecord) -> Event:
    """An event read back from the log; a record the ruleset cannot read means the log was
    changed outside the referee, which is reported, never a crash."""
    try:
        return rules.event_from_data(record.type, record.payload, record.schema_version)
    except (DataError, KeyError, TypeError, ValueError) as exc:
        raise LogCorrupt(
            f"Record {record.seq} of this game cannot be read ({exc}); a moderator must run verify_log.",
            game=record.game_id, seq=record.seq,
        ) from None
