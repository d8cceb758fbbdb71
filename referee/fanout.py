"""One read of a game's log per new head, shared by every reader of the game in this process.

Each reader used to read the log itself whenever the game's log grew, so an order on a game
with 600 readers cost 600 reads (and as many numberings and encodings) in the web
processes, and slowed the orders themselves. Here a process keeps, per watched game, a
:class:`Tail`: the last records of the log (read once per new head), and for each viewer
class among its readers (the public, each seat, moderators) what that class sees of them.
That share is made by :meth:`referee.core.Referee.feed_of`, the filter and numbering of
every other read path, so a reader gets exactly its ``/events/``; readers of one class share
the items (and their encoding), never those of another class.

A :class:`Tail` is immutable: it is built in a database thread and swapped in on the event
loop, where readers take what comes after their position from it.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.base import Viewer
from referee.store.base import GameInfo, StoredRecord
from referee.store.hashing import GENESIS
from referee.visibility import Numbering

#: Records kept per watched game: a reader further behind reads its own catch-up.
WINDOW = 500
#: How far back a game's first read in a process reaches, for readers that read just before.
PRIME = 100


def sse_bytes(item: dict[str, Any]) -> bytes:
    """A record as one server-sent event."""
    data = json.dumps(item, separators=(",", ":"), ensure_ascii=True)
    return f"id: {item['seq']}\nevent: record\ndata: {data}\n\n".encode()


class Entry:
    """One record as one viewer class sees it; encoded once for all the class's streams."""

    __slots__ = ("item", "real", "_sse", "_memo")

    def __init__(self, item: dict[str, Any], real: int) -> None:
        self.item, self.real = item, real
        self._sse: bytes | None = None
        self._memo: dict[Hashable, bytes] | None = None

    def memo(self, key: Hashable, make: Callable[[], bytes]) -> bytes:
        """Bytes that depend only on this entry and the class's entries after it (a page of a
        long-poll answer starting here, several SSE events joined): made once for every reader
        of the class that is sent them. The entries after one never change (the log only
        grows, and a class shared out anew gets new entries)."""
        if self._memo is None:
            self._memo = {}
        found = self._memo.get(key)
        if found is None:
            found = make()
            if len(self._memo) < 16:  # a few shapes in practice; never grow without bound
                self._memo[key] = found
        return found

    @property
    def seq(self) -> int:
        return int(self.item["seq"])

    @property
    def sse(self) -> bytes:
        if self._sse is None:
            self._sse = sse_bytes(self.item)
        return self._sse


@dataclass(frozen=True)
class Share:
    """What one viewer class sees of the tail's records, in its own numbering."""

    entries: tuple[Entry, ...]
    numbering: Numbering
    #: how many of the class's records lie at or before the tail's first one
    floor: int
    seqs: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "seqs", tuple(e.seq for e in self.entries))

    def after(self, after: int) -> list[Entry] | None:
        """The class's records after its number ``after``; None when some of them are older
        than the tail (that reader must read them itself)."""
        if after < self.floor:
            return None
        return list(self.entries[bisect.bisect_right(self.seqs, after):])


@dataclass(frozen=True)
class Tail:
    """The last records of a game's log as this process last read them."""

    info: GameInfo
    records: tuple[StoredRecord, ...]
    base: int  # the records are those after this seq ...
    head: int  # ... up to this one
    head_hash: str
    shares: Mapping[Viewer, Share]


def advance(game_id: str, tail: Tail | None, viewers: Iterable[Viewer]) -> Tail:
    """``tail`` brought up to the log's head with one read of the records after it (the
    game's row with it), shared out to each of ``viewers``' classes. Runs in a database
    thread; never changes ``tail``."""
    from referee.instance import referee_get

    referee = referee_get()
    store = referee.store
    info = store.get_game(game_id)
    new: list[StoredRecord] = []
    if tail is not None:
        new = store.read(game_id, after=tail.head)
        if new and new[0].prev_hash != tail.head_hash:
            tail = None  # committed records never change; be safe if they somehow did
    if tail is None:
        base = max(0, store.last_seq(game_id) - PRIME)
        records = tuple(store.read(game_id, after=base))
        new = list(records)
        old_shares: Mapping[Viewer, Share] = {}
    else:
        records = (tail.records + tuple(new))[-WINDOW:]
        base = tail.base if not records else records[0].seq - 1
        # A game that ends (its log becoming public) or changes settings is shared out anew.
        old_shares = tail.shares if tail.info == info else {}
    head = records[-1].seq if records else base
    head_hash = records[-1].hash if records else (tail.head_hash if tail is not None else GENESIS)
    shares: dict[Viewer, Share] = {}
    for viewer in dict.fromkeys(viewers):
        old = old_shares.get(viewer)
        if old is not None and not new:
            shares[viewer] = old
            continue
        if old is not None:
            items, numbering = referee.feed_of(game_id, viewer, new, info)
            kept = tuple(e for e in old.entries if e.real > base)
        else:
            items, numbering = referee.feed_of(game_id, viewer, records, info)
            kept = ()
        fresh = _entries(items, numbering)
        shares[viewer] = Share(kept + fresh, numbering, numbering.number_of(base) or 0)
    return Tail(info, records, base, head, head_hash, shares)


def _entries(items: list[dict[str, Any]], numbering: Numbering) -> tuple[Entry, ...]:
    return tuple(Entry(item, numbering.real_of(item["seq"])) for item in items)
