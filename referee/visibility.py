"""What one viewer may see of a game's log, numbered in that viewer's own sequence.

Players see the records meant for them, and others' orders only as "an order was given".
If they saw the log's own sequence numbers, the gaps would tell them how many records
they were not shown (an invisible worm walking, a hit on it). So each viewer's records are
numbered 1, 2, 3 ... among the records that viewer can see; moderators (and everyone, once
a game's log is public) see the log's own numbers. ``Numbering`` maps between the two.
"""

from __future__ import annotations

import bisect
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.base import Ruleset, Viewer, ViewerKind
from referee.store.base import RecordKind, StoredRecord

Decode = Callable[[Ruleset, StoredRecord], Any]


def may_see_record(viewer: Viewer, r: StoredRecord) -> bool:
    return viewer.may_see_parts(*r.audience)


def item_for(rules: Ruleset, viewer: Viewer, r: StoredRecord, decode: Decode) -> dict[str, Any] | None:
    """The record as ``viewer`` sees it (numbered later), or None if they do not see it."""
    redacted = False
    payload: dict[str, Any] | None
    if r.kind is RecordKind.EVENT:
        payload = rules.view_event(decode(rules, r), viewer)
    elif may_see_record(viewer, r):
        payload = r.payload
    elif r.kind is RecordKind.COMMAND:
        # Others learn that an order was given and by whom (a seat, the referee, a
        # moderator), not what it said, nor what kind of order: its events tell them what
        # they may know. Who reads it in full was settled when it was recorded
        # (``Ruleset.order_audience``).
        payload, redacted = {}, True
    else:
        payload = None
    if payload is None:
        return None
    item: dict[str, Any] = {
        "seq": r.seq, "kind": str(r.kind), "type": "Order" if redacted else r.type, "payload": payload,
        "audience": r.audience[0], "actor": {"kind": r.actor_kind, "seat": r.actor_seat},
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


class NumberingCache:
    """Per process: a log only grows, so a viewer's numbering is extended, never redone."""

    def __init__(self, size: int = 512) -> None:
        self._entries: OrderedDict[tuple[Any, ...], Numbering] = OrderedDict()
        self._lock = threading.Lock()
        self.size = size

    def get(self, key: tuple[Any, ...]) -> Numbering | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
            return entry

    def put(self, key: tuple[Any, ...], numbering: Numbering) -> None:
        with self._lock:
            self._entries[key] = numbering
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)


def renumber(items: Sequence[dict[str, Any]], numbering: Numbering) -> list[dict[str, Any]]:
    out = []
    for item in items:
        item = dict(item)
        item["seq"] = numbering.number_of(item["seq"])
        cause = item["cause_seq"]
        item["cause_seq"] = numbering.number_of(cause) if cause is not None and (
            numbering.identity or cause in numbering.real
        ) else None
        out.append(item)
    return out
