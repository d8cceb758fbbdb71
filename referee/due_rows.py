"""One game's due-work rows within one unit of work (the game's row locked), written once.

A deadline job closes its row, cancels the reminder the expiry made stale, creates the next
turn's start, runs it at once, closes it, creates the next deadline, its reminder and its
notice, sends the notice and closes it: written as it happened that is three UPDATEs, two
INSERTs and two more UPDATEs. ``DueRows`` keeps the unit's own copy of every row it has read
or made, answers later reads in the unit from that copy (laid over what the database still
says), and writes every change and every new row in one statement at the end (``flush``):
new rows go in already in their final state (a turn start that ran in the same unit goes in
done). The caller holds the game's row lock throughout, and no writer touches a game's due
rows without that lock (the services, the jobs, the sweeper and its outage check all take
it first), so nothing the unit has not seen can change under it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q

from referee import noticeboard
from referee.models import DueWork, Game
from referee.store import sql as store_sql
from referee.store.base import TransactionSpoilt

# The pending rows by the partial index of pending rows, the rows of the keys by the unique
# (game, key, kind) index: never the game's finished rows, however many pile up. Each key is
# looked up on its own (a lateral subquery the planner may not flatten): with ``key =
# ANY(...)`` a generic plan made on a never-analysed table matched the game alone in the
# index and filtered every row the game ever had. No row locks: the game's row lock, which
# every writer of its due rows holds, is what serialises them (locking rows the game lock
# already guards cost more than the rest of the read).
_SELECT = (f"SELECT {store_sql.columns(DueWork)} FROM referee_duework WHERE game_id = %s::uuid "
           f"AND status = 'pending' UNION ALL SELECT d.* FROM unnest(%s::varchar[]) AS k(key), LATERAL ("
           f"SELECT {store_sql.columns(DueWork)} FROM referee_duework WHERE game_id = %s::uuid AND key = k.key "
           "AND status <> 'pending' OFFSET 0) AS d")
# One statement for a unit's writes: the changed rows' new state (a data-modifying CTE runs
# whether or not it is referenced), then the new rows, returning their ids; with the
# notices of the rows the unit sent out (a turn's start, a reminder), those notices too. Each list goes
# as one JSON array (one string to bind, parsed by PostgreSQL) rather than one array per
# column (psycopg's array dumpers cost more than the statement). The changed rows' ids also
# go as an array: matched by the primary key, not by a hash join over the whole table (the
# planner guesses a JSON array holds 100 rows). The game is named too, as in every statement
# on a game's rows (one partition, one shard: docs/scaling.md), and so is the status: a changed
# row was pending when the unit read it under the game's lock, and a planner without
# statistics that does not trust the key, ``(id, game_id)``, for an array of ids then reads
# the game's pending rows, not every row the game ever had. A new row of a key that already has one goes
# in only when the unit read that key's rows (``DueRows.select``); otherwise the key is looked
# up row by row (OFFSET 0: not hashed over every row the game ever had).
_CHANGED_AND_NEW = (
    "changed AS (UPDATE referee_duework d SET status = e->>1, done_at = (e->>2)::timestamptz, result = e->>3 "
    "FROM jsonb_array_elements(%(changed)s::jsonb) AS e WHERE d.game_id = %(game)s::uuid AND d.status = 'pending' "
    "AND d.id = ANY(%(ids)s::int8[]) AND d.id = (e->>0)::int8 RETURNING d.id), "
    "ins AS (INSERT INTO referee_duework (game_id, key, kind, seats, due_at, remaining, status, created_at, "
    "done_at, result) SELECT %(game)s::uuid, e->>0, e->>1, e->2, (e->>3)::timestamptz, "
    "(e->>4)::float8 * interval '1 second', e->>5, (e->>6)::timestamptz, (e->>7)::timestamptz, e->>8 "
    "FROM jsonb_array_elements(%(new)s::jsonb) AS e WHERE %(keys_read)s::bool OR NOT EXISTS ("
    "SELECT 1 FROM referee_duework x WHERE x.game_id = %(game)s::uuid AND x.key = e->>0 OFFSET 0) "
    "RETURNING id, key, kind)"
)
# ... and, in the same statement, the notices of the unit's turn and reminder rows, and the
# records the unit's appends held (``referee.store.held``), each part's rows told apart. The
# notices' SQL is what the noticeboard has plugged in (the notices app's).
_DUE_ROWS = "SELECT 'due', id, key, kind FROM ins"


def _flush_sql(noting: str | None, held: store_sql.HeldInsert | None) -> str:
    ctes = f"{held.ctes}, " if held is not None else ""
    rows = (f"SELECT 'record', seq, NULL, NULL FROM ({held.written}) AS w UNION ALL {_DUE_ROWS}"
            if held is not None else _DUE_ROWS)
    notices = f", {noting}" if noting else ""
    return f"WITH {ctes}{_CHANGED_AND_NEW}{notices} {rows}"


def _iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


class DueRows:
    """The unit's copy of a game's due rows: reads laid over the database, writes buffered."""

    def __init__(self, game: Game, pending: list[DueWork] | None = None) -> None:
        self.game = game
        self._seen: dict[int, DueWork] = {}  # rows read in this unit, by id: the unit's copy
        self._changed: dict[int, DueWork] = {}  # of those, the ones whose state changed
        self._new: list[DueWork] = []  # rows made in this unit, written by ``flush``
        # The game's pending rows as read with its lock (an order's): the first ``select``
        # reads nothing, and rows of keys that are done are not known, so ``flush`` writes a
        # new row only where its key has no row yet.
        self._pending = pending
        self._keys_unread = False
        # Once those were taken, the unit's copy holds every pending row of the game (the
        # lock is held): later reads are answered from it.
        self._pending_complete = False
        # Notices to record with the unit's write: (notice, row) of the rows it sent out.
        self._notices: list[tuple[str, DueWork, dt.datetime]] = []

    def adopt(self, rows: Iterable[DueWork]) -> list[DueWork]:
        """Rows the caller read (the job's own row, a sweep's batch), as the unit's copies."""
        return [self._seen.setdefault(r.pk, r) for r in rows]

    def select(self, keys: Sequence[str]) -> list[DueWork]:
        """The game's pending rows and the rows of ``keys`` (locked), as this unit left them."""
        if self._pending is not None:
            found, self._pending, self._keys_unread = self._pending, None, True
            self._pending_complete = True
        elif self._pending_complete:
            found = list(self._seen.values())
        elif store_sql.enabled():
            game_id = str(self.game.pk)
            found = store_sql.instances(DueWork, store_sql.run(store_sql.route(_SELECT, game_id), (game_id, list(keys), game_id)))
        else:
            found = list(DueWork.objects.filter(game=self.game).filter(
                Q(status=DueWork.Status.PENDING) | Q(key__in=list(keys))))
        wanted = set(keys)
        mine = self.adopt(found)
        mine += [r for r in self._new if r.key in wanted or r.status == DueWork.Status.PENDING]
        return [r for r in mine if r.status == DueWork.Status.PENDING or r.key in wanted]

    def note(self, notice: str, row: DueWork, now: dt.datetime) -> None:
        """Record ``notice`` for the row's seats' channels, the game's and its league's with
        the unit's write, if the row goes in (or is there already): see ``flush``."""
        self._notices.append((notice, row, now))

    @property
    def noting(self) -> bool:
        """Whether notices can ride on the unit's write (PostgreSQL; else each is recorded
        as the row runs, through ``notifications.recipients_get``)."""
        return store_sql.enabled()

    def add(self, rows: Iterable[DueWork]) -> None:
        self._new.extend(rows)

    def close(self, row: DueWork, status: str, done_at: dt.datetime, result: str) -> None:
        row.status, row.done_at, row.result = status, done_at, result[:200]
        if row.pk is not None:
            self._changed[row.pk] = row

    def deadline_of(self, key: str) -> DueWork | None:
        """The deadline row of ``key``: the unit's own if it made or read one."""
        for row in (*self._new, *self._seen.values()):
            if row.key == key and row.kind == DueWork.Kind.DEADLINE:
                return row
        return DueWork.objects.filter(game=self.game, key=key, kind=DueWork.Kind.DEADLINE).first()

    @property
    def unwritten(self) -> bool:
        """Whether the unit changed or made rows that ``flush`` has yet to write."""
        return bool(self._changed or self._new)

    def flush(self, held: store_sql.HeldInsert | None = None) -> list[DueWork]:
        """Write what the unit changed and made: one statement (PostgreSQL), which also
        writes ``held``, the records the unit's appends held, if given (all of them or the
        unit fails: ``TransactionSpoilt``). Returns the new rows that went in (all of them,
        unless the rows of done keys were never read)."""
        if not store_sql.enabled():
            changed, new = list(self._changed.values()), self._new
            self._changed, self._new = {}, []
            for row in changed:
                row.save(update_fields=["status", "done_at", "result"])
            DueWork.objects.bulk_create(new)
            for row in new:
                self._seen[row.pk] = row
            return new
        write = self.write(held)
        if write is None:
            return []
        try:
            written = store_sql.run(write.sql, write.params)
        except IntegrityError:
            if transaction.get_connection().in_atomic_block:
                transaction.set_rollback(True)
            raise TransactionSpoilt("The game moved on while the unit's records waited.") from None
        return write.done(written)

    def write(self, held: store_sql.HeldInsert | None = None) -> Write | None:
        """The statement ``flush`` sends (PostgreSQL), not sent: the caller sends it, alone or
        with other games' (``store_sql.run_together``), then gives its rows to ``Write.done``.
        None if the unit has nothing to write."""
        changed, new = list(self._changed.values()), self._new
        self._changed, self._new = {}, []
        if not changed and not new:
            return None
        notes = [(notice, row.key, row.kind, [int(n) for n in row.seats], row.pk is not None)
                 for notice, row, _ in self._notices]
        noted_at = self._notices[0][2] if self._notices else None
        self._notices = []
        noting = noticeboard.due_notices_ctes() if notes else None
        params = {
            "changed": store_sql.dumps([(r.pk, r.status, _iso(r.done_at), r.result) for r in changed]),
            "ids": store_sql.array([r.pk for r in changed]),
            "game": str(self.game.pk),
            "new": store_sql.dumps([
                (r.key, r.kind, r.seats, _iso(r.due_at),
                 None if r.remaining is None else r.remaining.total_seconds(), r.status, _iso(r.created_at),
                 _iso(r.done_at), r.result)
                for r in new
            ]),
            "keys_read": not self._keys_unread,
        }
        if noting:
            params["notes"] = store_sql.dumps([dict(zip(("notice", "key", "kind", "seats", "known"), n,
                                                        strict=True)) for n in notes])
            params["now"] = noted_at
        if held is not None:
            params.update(held.params)
        return Write(self, store_sql.route(_flush_sql(noting, held), params["game"]), params, new, held)


@dataclass
class Write:
    """One unit's write of its due rows, notices and held records, as a statement not yet sent."""

    rows: DueRows
    sql: str
    params: dict[str, Any]
    new: list[DueWork]
    held: store_sql.HeldInsert | None

    def done(self, written: Sequence[Sequence[Any]]) -> list[DueWork]:
        """The statement's rows given back (``part, id or seq, key, kind``): the new rows get
        their ids; ``TransactionSpoilt`` if a held record did not go in (the log moved on)."""
        if self.held is not None and sum(part == "record" for part, *_ in written) != self.held.count:
            raise TransactionSpoilt("The game moved on while the unit's records waited.",
                                    expected=self.held.first_seq)
        ids = {(key, kind): pk for part, pk, key, kind in written if part == "due"}
        new = [r for r in self.new if (r.key, r.kind) in ids]
        for row in new:
            row.pk = ids[(row.key, row.kind)]
            row._state.adding, row._state.db = False, "default"
            self.rows._seen[row.pk] = row
        return new
