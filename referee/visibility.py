"""What one viewer may see of a game's log, numbered in that viewer's own sequence.

Players see the records meant for them, and others' orders only as "an order was given".
If they saw the log's own sequence numbers, the gaps would tell them how many records
they were not shown (an invisible worm walking, a hit on it). So each viewer's records are
numbered 1, 2, 3 ... among the records that viewer can see; moderators (and everyone, once
a game's log is public) see the log's own numbers. ``Numbering`` maps between the two.

An order is read in full only by those in both its stored audience and the one its ruleset
gives it from its own events (``Readers``): a record is hashed and never rewritten, so an
order recorded before the ruleset's visibility applied to every order (the referee's turn
for a seat, a moderator's correction, then public) is narrowed when it is read.
"""

from __future__ import annotations

import bisect
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from games.base import (
    EVERYONE,
    Actor,
    ActorKind,
    Audience,
    AudienceKind,
    Event,
    Ruleset,
    Viewer,
    ViewerKind,
    narrowest,
)
from referee.store.base import RecordKind, StoredRecord

Decode = Callable[[Ruleset, StoredRecord], Any]

#: The first order of every game: its settings and seats, which the game's page shows anyway.
SETUP = "Setup"
_STAMPED = ("actor", "at_ms")


def may_see_record(viewer: Viewer, r: StoredRecord) -> bool:
    return viewer.may_see_parts(*r.audience)


def unstamped(rules: Ruleset, command_type: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` without the referee's stamps, on the order and on each step of a whole turn."""
    body = {k: v for k, v in data.items() if k not in _STAMPED}
    if rules.whole_turn is not None and command_type == rules.whole_turn[0]:
        steps = body.get(rules.whole_turn[1])
        if isinstance(steps, list | tuple):
            body[rules.whole_turn[1]] = [
                {k: v for k, v in s.items() if k not in _STAMPED} if isinstance(s, Mapping) else s for s in steps]
    return body


def order_readers(
    rules: Ruleset, command_type: str, payload: Mapping[str, Any], actor: Actor, events: Sequence[Event],
) -> Audience:
    """Who may read an order (as recorded, ``payload``) in full, given the events it caused:
    everyone for the game's settings and seats, else as ``Ruleset.order_audience`` says.
    The same answer when the order is recorded and whenever it is read."""
    if command_type == SETUP:
        return EVERYONE
    return rules.order_audience(command_type, unstamped(rules, command_type, payload), actor, events)


class Readers:
    """Who may read each order of a stretch of the log in full: those in both its stored
    audience and ``order_readers``'s, from the order and its own events (the records whose
    ``cause_seq`` is the order's, appended right after it, so in the same stretch unless it
    ends among them: then the rest is read, up to ``head``, the log's last record when the
    stretch was read, never past it). Worked out for an order only when a viewer outside
    the moderators is in its stored audience, and kept per process by the hash of its last
    record (which chains the order and all its events)."""

    def __init__(
        self, rules: Ruleset, records: Sequence[StoredRecord], decode: Decode, *,
        scope: object, head: int, read: Callable[[int, int], Sequence[StoredRecord]],
    ) -> None:
        self.rules, self.records, self.decode = rules, records, decode
        self.scope, self.head, self.read = scope, head, read

    def of(self, command: StoredRecord) -> Audience:
        stored = Audience(AudienceKind(command.audience[0]), frozenset(command.audience[1]))
        events = self._events_of(command)
        key = (self.scope, command.game_id, command.seq, events[-1].hash if events else command.hash)
        readers = _READERS.get(key)
        if readers is None:
            actor = Actor(ActorKind(command.actor_kind), command.actor_seat)
            readers = narrowest(stored, order_readers(
                self.rules, command.type, command.payload, actor, [self.decode(self.rules, e) for e in events]))
            _READERS.put(key, readers)
        return readers

    def _events_of(self, command: StoredRecord) -> list[StoredRecord]:
        first = self.records[0].seq if self.records else 0
        at = command.seq - first
        if not (0 <= at < len(self.records) and self.records[at].seq == command.seq):
            at = next(i for i, r in enumerate(self.records) if r.seq == command.seq)
        following: Sequence[StoredRecord] = self.records[at + 1:]
        events: list[StoredRecord] = []
        while True:
            for r in following:
                if r.cause_seq != command.seq:
                    return events
                events.append(r)
            last = following[-1].seq if following else command.seq
            if last >= self.head:
                return events
            following = self.read(last, min(self.head, last + _READ_ON))


#: How many records to read on at a time when a stretch ends among an order's events.
_READ_ON = 64


V = TypeVar("V")


class Lru(Generic[V]):
    """A per-process cache of the least recently used entries, shared by threads."""

    def __init__(self, size: int) -> None:
        self._entries: OrderedDict[tuple[Any, ...], V] = OrderedDict()
        self._lock = threading.Lock()
        self.size = size

    def get(self, key: tuple[Any, ...]) -> V | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
            return entry

    def put(self, key: tuple[Any, ...], value: V) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


#: Per process, as the numberings: the orders of the games being read, their readers.
_READERS: Lru[Audience] = Lru(8192)


def shown(rules: Ruleset, viewer: Viewer, r: StoredRecord, decode: Decode) -> bool:
    """Whether ``viewer`` is shown the record at all (so it counts in their numbering): an
    order always is, in full or as "an order was given"."""
    if r.kind is RecordKind.EVENT:
        return rules.view_event(decode(rules, r), viewer) is not None
    return r.kind is RecordKind.COMMAND or may_see_record(viewer, r)


def item_for(
    rules: Ruleset, viewer: Viewer, r: StoredRecord, decode: Decode, readers: Readers,
) -> dict[str, Any] | None:
    """The record as ``viewer`` sees it (numbered later), or None if they do not see it."""
    redacted = False
    payload: dict[str, Any] | None
    audience = r.audience[0]
    if r.kind is RecordKind.EVENT:
        payload = rules.view_event(decode(rules, r), viewer)
    elif r.kind is RecordKind.COMMAND:
        if viewer.kind is ViewerKind.MODERATOR:
            payload = r.payload
        elif may_see_record(viewer, r):
            within = readers.of(r)
            audience = str(within.kind)
            payload = r.payload if viewer.may_see(within) else None
        else:
            payload = None
        if payload is None:
            # Others learn that an order was given and by whom (a seat, the referee, a
            # moderator), not what it said, nor what kind of order: its events tell them
            # what they may know.
            payload, redacted = {}, True
    elif may_see_record(viewer, r):
        payload = r.payload
    else:
        payload = None
    if payload is None:
        return None
    item: dict[str, Any] = {
        "seq": r.seq, "kind": str(r.kind), "type": "Order" if redacted else r.type, "payload": payload,
        "audience": audience, "actor": {"kind": r.actor_kind, "seat": r.actor_seat},
        "cause_seq": r.cause_seq, "at": r.created_at.isoformat(),
    }
    if redacted:
        item["redacted"] = True
    if viewer.kind is ViewerKind.MODERATOR and r.kind is not RecordKind.EVENT:
        item["draws"] = list(r.draws)
    return item


@dataclass
class Numbering:
    """The log's sequence numbers of the records one viewer sees, in order."""

    real: list[int]
    last_read: int  # the log position this numbering is complete up to
    identity: bool = False
    last_hash: str = ""  # of the record at last_read: a rolled-back append invalidates the cache

    def number_of(self, real_seq: int | None) -> int | None:
        """The viewer's number for a record they see, or for the last one before it."""
        if real_seq is None:
            return None
        if self.identity:
            return real_seq
        return bisect.bisect_right(self.real, real_seq)

    def real_of(self, number: int) -> int:
        """The log position of the viewer's record ``number`` (0: before the first)."""
        if self.identity or number <= 0:
            return max(number, 0)
        return self.real[min(number, len(self.real)) - 1] if self.real else 0

    @property
    def count(self) -> int:
        return self.last_read if self.identity else len(self.real)

    def shows(self, real_seq: int) -> bool:
        """Whether the viewer sees the record at ``real_seq`` (a search of the sorted
        positions: a scan of them grew with the log for every record an answer shows)."""
        if self.identity:
            return True
        i = bisect.bisect_left(self.real, real_seq)
        return i < len(self.real) and self.real[i] == real_seq


class NumberingCache(Lru[Numbering]):
    """Per process: a log only grows, so a viewer's numbering is extended, never redone."""

    def __init__(self, size: int = 512) -> None:
        super().__init__(size)


def renumber(items: Sequence[dict[str, Any]], numbering: Numbering) -> list[dict[str, Any]]:
    out = []
    for item in items:
        item = dict(item)
        item["seq"] = numbering.number_of(item["seq"])
        cause = item["cause_seq"]
        item["cause_seq"] = numbering.number_of(cause) if cause is not None and numbering.shows(cause) else None
        out.append(item)
    return out
