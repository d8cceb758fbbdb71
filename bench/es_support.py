"""What bench/event_store.py measures with: synthetic Pig games, the raw psycopg side
(the baselines, one function per baseline), the ``eventsourcing`` peer, timing and the
table. No figures here."""

from __future__ import annotations

import os
import random
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

COLUMNS = (
    "game_id", "seq", "kind", "type", "schema_version", "payload", "audience_kind",
    "audience_seat", "audience_seats", "record_version", "actor_kind", "actor_seat", "idempotency_key",
    "cause_seq", "draws", "created_at", "prev_hash", "hash",
)
RAW_TABLE = "bench_raw_event"
BATCH = 100

# --- synthetic pig games ------------------------------------------------------------------


def pig_events(rules: Any, n: int, seed: int = 7) -> list[Any]:
    """``n`` events of a plausible two-seat Pig game: set-up, then turns of die rolls ended
    by a 1 (DieRolled + TurnLost) or a Hold. Built by folding, so every event is legal."""
    from tests.rulesets import pig

    rng = random.Random(seed)
    events: list[Any] = [pig.GameSetUp(order=(1, 2), target=1000)]
    state = rules.evolve(rules.initial_state(), events[0])
    while len(events) < n:
        seat = state.order[state.to_move]
        if not state.turn_started:
            new: tuple[Any, ...] = (pig.TurnStarted(state.turn, seat),)
        elif state.turn_total and rng.random() < 0.2:
            new = (pig.Held(seat, state.turn_total),)
        else:
            value = rng.randint(1, 6)
            new = (pig.DieRolled(seat, value),) + ((pig.TurnLost(seat),) if value == 1 else ())
        for event in new:
            state = rules.evolve(state, event)
        events.extend(new)
    return events[:n]


def event_records(rules: Any, events: Sequence[Any]) -> list[Any]:
    from referee.store.base import NewRecord, RecordKind

    out = []
    for e in events:
        audience = rules.event_audience(e)
        out.append(NewRecord(
            kind=RecordKind.EVENT, type=rules.event_type_name(e), payload=rules.event_to_data(e),
            audience_kind=str(audience.kind), audience_seats=tuple(sorted(audience.seats)),
            schema_version=type(e).schema_version,
        ))
    return out


def chunks(seq: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for i in range(0, len(seq), size):
        yield seq[i:i + size]


# --- the raw psycopg side: the baselines ------------------------------------------------------


def raw_connection() -> Any:
    """Autocommit, as the store's own statements run outside an order's transaction."""
    import psycopg
    from psycopg.types.string import TextLoader

    conn = psycopg.connect(os.environ["DATABASE_URL"], autocommit=True)
    # Hand jsonb back as text, as Django's backend does, so the raw read does its own json.loads.
    conn.adapters.register_loader("jsonb", TextLoader)
    return conn


def create_raw_table(conn: Any) -> str:
    """A copy of referee_event: same columns, defaults, NOT NULL and CHECK constraints, the same
    indexes (so unique (game, seq) and the partial idempotency index) and the same foreign key
    to referee_game. Only the append-only triggers are left out; they fire on UPDATE/DELETE."""
    with conn.cursor() as cur:
        cur.execute(f"DROP TABLE IF EXISTS {RAW_TABLE}")
        cur.execute(f"CREATE TABLE {RAW_TABLE} (LIKE referee_event INCLUDING ALL)")
        cur.execute(
            "SELECT pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE conrelid = 'referee_event'::regclass AND contype = 'f'"
        )
        fks = [row[0] for row in cur.fetchall()]
        for i, definition in enumerate(fks):
            cur.execute(f"ALTER TABLE {RAW_TABLE} ADD CONSTRAINT {RAW_TABLE}_fk{i} {definition}")
        cur.execute(f"SELECT count(*) FROM pg_indexes WHERE tablename = '{RAW_TABLE}'")
        indexes = cur.fetchone()[0]
    return f"{indexes} indexes, {len(fks)} foreign key"


def raw_rows(records: Sequence[Any], game_id: str) -> list[tuple[Any, ...]]:
    """The store's own stamped rows (same seq, payload, hashes) as parameters, under ``game_id``."""
    from psycopg.types.json import Jsonb

    gid = uuid.UUID(game_id)
    return [
        (gid, r.seq, str(r.kind), r.type, r.schema_version, Jsonb(r.payload), r.audience_kind,
         r.audience_seat, Jsonb(list(r.audience_seats)), r.record_version, r.actor_kind, r.actor_seat,
         r.idempotency_key, r.cause_seq, Jsonb(list(r.draws)), r.created_at, r.prev_hash, r.hash)
        for r in records
    ]


INSERT_SQL = f"INSERT INTO {RAW_TABLE} ({', '.join(COLUMNS)}) VALUES ({', '.join(['%s'] * len(COLUMNS))})"
COPY_SQL = f"COPY {RAW_TABLE} ({', '.join(COLUMNS)}) FROM STDIN"
#: What Referee.replay reads: the event records' seq, type, payload and schema version.
REPLAY_SQL = ("SELECT seq, type, payload, schema_version FROM referee_event "
              "WHERE game_id = %s AND kind = 'event' ORDER BY seq")


def raw_single(conn: Any, rows: Sequence[tuple[Any, ...]]) -> None:
    """One autocommit INSERT per record: one round trip each (prepared by psycopg from the
    fifth), as the store's append is one autocommit statement."""
    with conn.cursor() as cur:
        for row in rows:
            cur.execute(INSERT_SQL, row)


def raw_executemany(conn: Any, rows: Sequence[tuple[Any, ...]]) -> None:
    """BEGIN, 100 pipelined INSERTs, COMMIT per batch (100 records atomically)."""
    with conn.cursor() as cur:
        for batch in chunks(rows, BATCH):
            with conn.transaction():
                cur.executemany(INSERT_SQL, batch)


def raw_copy(conn: Any, rows: Sequence[tuple[Any, ...]]) -> None:
    """One autocommit COPY per batch of 100 (atomic by itself): the COPY statement, its
    rows in one message, then its end: two round trips, the least COPY can do."""
    with conn.cursor() as cur:
        for batch in chunks(rows, BATCH):
            with cur.copy(COPY_SQL) as copy:
                for row in batch:
                    copy.write_row(row)


def raw_replay(conn: Any, game_id: str) -> int:
    """The replay's own read, raw: the same 4 columns of the same rows in one query, then
    ``json.loads`` of each payload (no decoding into events, no fold)."""
    import json

    with conn.cursor() as cur:
        cur.execute(REPLAY_SQL, (uuid.UUID(game_id),))
        rows = cur.fetchall()
    loads = json.loads
    for row in rows:
        loads(row[2])
    return len(rows)


# --- measuring -----------------------------------------------------------------------------------


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    result = fn()
    return time.perf_counter() - t0, result


class Table:
    def __init__(self) -> None:
        self.rows: list[tuple[str, ...]] = []

    def section(self, title: str, *headers: str) -> None:
        self.rows.append(("",))
        self.rows.append((title, *headers))

    def row(self, label: str, *cells: str) -> None:
        self.rows.append(("  " + label, *cells))

    def print(self) -> None:
        width = max(len(r[0]) for r in self.rows) + 2
        cols = max(len(r) for r in self.rows) - 1
        cell = [max((len(r[i]) for r in self.rows if len(r) > i), default=0) + 2 for i in range(1, cols + 1)]
        for r in self.rows:
            line = r[0].ljust(width) + "".join(c.rjust(cell[i]) for i, c in enumerate(r[1:]))
            print(line.rstrip())


def rate(n: int, seconds: float) -> str:
    return f"{n / seconds:,.0f}"


# --- the peer: eventsourcing with its PostgreSQL recorder ---------------------------------------


def eventsourcing_apps(snapshot_every: int) -> tuple[Any, Any, Any]:
    """Two ``eventsourcing`` applications on the same PostgreSQL (the library's own tables),
    and an aggregate that records the same Pig event payloads and folds them (a counter and
    the last payload: a cheaper fold than Pig's, which favours the peer). The first is the
    library's default (no snapshots, no cache); the second snapshots every
    ``snapshot_every`` events and keeps an aggregate cache that it fast-forwards on each
    ``get`` (one read of the events after the cached version), as the referee keeps its
    positions."""
    from urllib.parse import urlparse

    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    url = urlparse(os.environ["DATABASE_URL"])
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": url.path.lstrip("/"),
        "POSTGRES_HOST": url.hostname or "127.0.0.1", "POSTGRES_PORT": str(url.port or 5432),
        "POSTGRES_USER": url.username or "postgres", "POSTGRES_PASSWORD": url.password or "",
        "CREATE_TABLE": "y",
    }

    class PigLog(Aggregate):
        @event("Started")
        def __init__(self, target: int) -> None:
            self.events = 0
            self.last: dict[str, Any] = {}

        @event("Recorded")
        def record(self, type: str, data: dict[str, Any]) -> None:  # noqa: A002 (the event's field)
            self.events += 1
            self.last = data

    class Peer(Application):
        pass

    class CachedPeer(Application):
        snapshotting_intervals = {PigLog: snapshot_every}  # noqa: RUF012 (the library's own attribute)

    cached_env = {**env, "IS_SNAPSHOTTING_ENABLED": "y", "AGGREGATE_CACHE_MAXSIZE": "1000",
                  "AGGREGATE_CACHE_FASTFORWARD": "y"}
    return Peer(env=env), CachedPeer(env=cached_env), PigLog


def es_game(app: Any, cls: Any, records: Sequence[Any], part: int = 500) -> Any:
    agg = cls(target=1000)
    for piece in chunks(records, part):  # saved in slices, as a long game is
        for r in piece:
            agg.record(type=r.type, data=r.payload)
        app.save(agg)
    return agg
