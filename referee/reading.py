"""The per-viewer reading of a game: which records each viewer sees, numbered in their own
gapless sequence, their feed of the log and their view of a position.

A reader is given positions (by the referee, which plays them): it never decides or
appends. It sits below ``referee.core`` and above ``referee.visibility`` (the rules of who
sees what), so neither of those imports the other through it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.base import MODERATOR_VIEW, Registry, Ruleset, Viewer, ViewerKind
from referee.positions import Position, decode
from referee.store.base import EventStore, GameInfo, StoredRecord
from referee.visibility import Numbering, NumberingCache, Readers, item_for, renumber, shown

#: The position after a record (the latest if None), with its seq: ``Referee.state_at``.
StateAt = Callable[[str, int | None], tuple[Any, int]]

_NUMBERINGS = NumberingCache()


class Reader:
    def __init__(self, store: EventStore, registry: Registry, numberings: NumberingCache = _NUMBERINGS) -> None:
        self.store = store
        self.registry = registry
        self.numberings = numberings

    def _rules(self, info: GameInfo) -> Ruleset:
        return self.registry.get(info.ruleset, info.ruleset_version)

    def view(self, game_id: str, viewer: Viewer, seq: int | None, state_at: StateAt) -> dict[str, Any]:
        """The position after the viewer's record ``seq`` (the latest if None), numbered in
        the viewer's own sequence (see ``referee.visibility``)."""
        self.store.get_game(game_id)
        numbering = self.numbering(game_id, viewer)
        real = None if seq is None else numbering.real_of(seq)
        return self.view_at_real(game_id, viewer, real, state_at)

    def view_at_real(self, game_id: str, viewer: Viewer, real_seq: int | None, state_at: StateAt) -> dict[str, Any]:
        info = self.store.get_game(game_id)
        rules = self._rules(info)
        state, last = state_at(game_id, real_seq)
        numbering = self.numbering(game_id, viewer)
        return {"seq": numbering.number_of(last), "position": rules.view(state, effective(info, viewer))}

    def numbering(
        self, game_id: str, viewer: Viewer, info: GameInfo | None = None, known: Sequence[StoredRecord] = (),
    ) -> Numbering:
        """Which records ``viewer`` sees, so they can be numbered without gaps. Kept per
        process and extended with one read of the records from its last one on (whose hash
        must still match: an append that was rolled back invalidates it). ``known`` are
        records in hand (an order's own, just appended): when they join the cached
        numbering by the hash chain, it is extended by them without reading the log."""
        info = info or self.store.get_game(game_id)
        seen_as = effective(info, viewer)
        if seen_as.kind is ViewerKind.MODERATOR:
            return Numbering([], known[-1].seq if known else self.store.last_seq(game_id), identity=True)
        rules = self._rules(info)
        key = (self.store.cache_scope(), game_id, str(seen_as.kind), seen_as.seat)
        cached = self.numberings.get(key)
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
            if shown(rules, seen_as, r, decode):
                real.append(r.seq)
        last = records[-1] if records else None
        fresh = Numbering(real, last.seq if last else 0, last_hash=last.hash if last else "")
        self.numberings.put(key, fresh)
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
        rules = self._rules(info)
        seen_as = effective(info, viewer)
        upto = min(records[-1].seq, numbering.last_read)
        readers = self._readers(info, rules, records, numbering)
        items = [item for r in records
                 if r.seq <= upto and (item := item_for(rules, seen_as, r, decode, readers)) is not None]
        return renumber(items, numbering), numbering.count

    def feed_of(
        self, game_id: str, viewer: Viewer, records: Sequence[StoredRecord], info: GameInfo,
    ) -> tuple[list[dict[str, Any]], Numbering]:
        """What ``viewer`` sees of ``records`` (a stretch of the log read once for every
        reader of the game), numbered, with the numbering that numbers them: the same
        filter as ``feed``, without reading the log again when the numbering joins them."""
        numbering = self.numbering(game_id, viewer, info, known=records)
        rules = self._rules(info)
        seen_as = effective(info, viewer)
        readers = self._readers(info, rules, records, numbering)
        items = [item for r in records
                 if r.seq <= numbering.last_read and (item := item_for(rules, seen_as, r, decode, readers)) is not None]
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
        rules = self._rules(info)
        seen_as = effective(info, viewer)
        numbering = numbering or self.numbering(game_id, viewer, info)
        # Read no further than the numbering reaches: a record appended in between would
        # otherwise be numbered as its predecessor now and sent again later.
        upto = numbering.last_read if real_upto is None else min(real_upto, numbering.last_read)
        records = self.store.read(game_id, after=real_after, upto=upto)
        readers = self._readers(info, rules, records, numbering)
        items = [item for r in records if (item := item_for(rules, seen_as, r, decode, readers)) is not None]
        return renumber(items, numbering)

    def _readers(
        self, info: GameInfo, rules: Ruleset, records: Sequence[StoredRecord], numbering: Numbering,
    ) -> Readers:
        """Who reads each order of ``records`` in full. The numbering was read up to the head
        of the log, where an order's records end: past it nothing is read."""
        head = max(numbering.last_read, records[-1].seq if records else 0)
        return Readers(rules, records, decode, scope=self.store.cache_scope(), head=head,
                       read=lambda after, upto: self.store.read(info.id, after=after, upto=upto))


def effective(info: GameInfo, viewer: Viewer) -> Viewer:
    """When a game ends its whole log becomes public, unless its settings keep it private."""
    if info.status == "finished" and not info.private_log:
        return MODERATOR_VIEW
    return viewer


def _joining(cached: Numbering, known: Sequence[StoredRecord]) -> list[StoredRecord] | None:
    """The records of ``known`` after the cached numbering's last one, if ``known`` reaches
    back to it by the hash chain (so nothing between can be missing); None if it does not."""
    for i, r in enumerate(known):
        if r.seq == cached.last_read:
            return list(known[i + 1:]) if r.hash == cached.last_hash else None
        if r.seq == cached.last_read + 1:
            return list(known[i:]) if r.prev_hash == cached.last_hash else None
    return None
