"""Event-store benchmark against a real PostgreSQL. Prints figures; asserts no timings.

    scripts/with_servers.sh .venv/bin/python bench/event_store.py      (= make bench)

1. append rate: DjangoEventStore.append (1 record per call, and 100 per call) beside raw
   psycopg 3 INSERTs of the very same rows into a copy of the event table;
2. replay rate: Referee.replay over a long game beside a raw fetch + json.loads;
3. Referee.current on a 10-event and a 10,000-event game, with and without snapshots.

See bench/README.md for what each figure measures.
"""

from __future__ import annotations

import json
import os
import platform
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# tests.settings registers the pig ruleset. DEBUG off so Django does not record every query.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-a-secret")

# --- sizes (keep the whole run well under two minutes on two cores) ------------------------
ROUNDS = 4  # store and raw runs are interleaved in this many rounds to spread out noise
SINGLE_PER_ROUND = 500  # 1a: records appended one per transaction, per round
BATCHED_PER_ROUND = 5_000  # 1b: records appended 100 per transaction, per round
BATCH = 100
REPLAY_RUNS = 5  # 2: timed replays of the game written by 1b (ROUNDS * BATCHED_PER_ROUND events)
READS = 50  # 3: timed Referee.current calls per game
SMALL, BIG = 10, 10_000  # 3: game lengths in events
NO_SNAPSHOTS = 10**9  # a snapshot_every that never triggers

COLUMNS = (
    "game_id", "seq", "kind", "type", "schema_version", "payload", "audience_kind",
    "audience_seat", "actor_kind", "actor_seat", "idempotency_key", "cause_seq", "draws",
    "created_at", "prev_hash", "hash",
)
RAW_TABLE = "bench_raw_event"


def setup_django() -> None:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit("bench/event_store.py needs PostgreSQL: run it as "
                 "`scripts/with_servers.sh .venv/bin/python bench/event_store.py` (make bench).")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)


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


# --- raw psycopg side -----------------------------------------------------------------------


def raw_connection() -> Any:
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
         r.audience_seat, r.actor_kind, r.actor_seat, r.idempotency_key, r.cause_seq,
         Jsonb(list(r.draws)), r.created_at, r.prev_hash, r.hash)
        for r in records
    ]


INSERT_SQL = f"INSERT INTO {RAW_TABLE} ({', '.join(COLUMNS)}) VALUES ({', '.join(['%s'] * len(COLUMNS))})"
COPY_SQL = f"COPY {RAW_TABLE} ({', '.join(COLUMNS)}) FROM STDIN"


def raw_single(conn: Any, rows: Sequence[tuple[Any, ...]]) -> None:
    with conn.cursor() as cur:
        for row in rows:
            with conn.transaction():
                cur.execute(INSERT_SQL, row)


def raw_executemany(conn: Any, rows: Sequence[tuple[Any, ...]]) -> None:
    with conn.cursor() as cur:
        for batch in chunks(rows, BATCH):
            with conn.transaction():
                cur.executemany(INSERT_SQL, batch)


def raw_copy(conn: Any, rows: Sequence[tuple[Any, ...]]) -> None:
    with conn.cursor() as cur:
        for batch in chunks(rows, BATCH):
            with conn.transaction(), cur.copy(COPY_SQL) as copy:
                for row in batch:
                    copy.write_row(row)


# --- measuring ---------------------------------------------------------------------------------


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    result = fn()
    return time.perf_counter() - t0, result


def p95(samples: Sequence[float]) -> float:
    return statistics.quantiles(samples, n=100, method="inclusive")[94]


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


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x"


# --- the figures ---------------------------------------------------------------------------------


def main() -> None:
    setup_django()
    print("measuring (about 45 s on two cores) ...", file=sys.stderr, flush=True)
    import django
    import psycopg
    from django.db import connection

    from referee.core import Referee, utc_now
    from referee.rulesets import get_registry
    from referee.store.base import stamp
    from referee.store.django_store import DjangoEventStore
    from referee.store.hashing import GENESIS

    registry = get_registry()
    rules = registry.get("pig")
    store = DjangoEventStore()
    referee = Referee(store, registry)  # the default snapshot_every
    no_snap = Referee(store, registry, snapshot_every=NO_SNAPSHOTS)

    def new_game() -> str:
        return referee.create_game(ruleset="pig", settings={"target": 1000}).id

    raw = raw_connection()
    raw_table = create_raw_table(raw)
    with connection.cursor() as cur:
        cur.execute("SHOW server_version")
        pg_version = cur.fetchone()[0]
        cur.execute("SHOW fsync")
        fsync = cur.fetchone()[0]

    n_single, n_batched = ROUNDS * SINGLE_PER_ROUND, ROUNDS * BATCHED_PER_ROUND
    single_records = event_records(rules, pig_events(rules, n_single))
    batched_records = event_records(rules, pig_events(rules, n_batched))

    # warm-up: ORM query compilation, psycopg prepared statements, the caches of both tables
    warm = new_game()
    warm_rows = [store.append(warm, i + 1, [rec], utc_now())[0] for i, rec in enumerate(single_records[:50])]
    raw_single(raw, raw_rows(warm_rows, warm))

    # 1. append rate --------------------------------------------------------------------------
    g_single, g_batched = new_game(), new_game()
    g_raw_single, g_raw_many, g_raw_copy = new_game(), new_game(), new_game()
    t_store_single = t_raw_single = t_store_batched = t_raw_many = t_raw_copy = 0.0
    for r in range(ROUNDS):
        part = single_records[r * SINGLE_PER_ROUND:(r + 1) * SINGLE_PER_ROUND]
        first = r * SINGLE_PER_ROUND + 1

        def appends_single(part: Sequence[Any] = part, first: int = first) -> list[Any]:
            return [store.append(g_single, first + i, [rec], utc_now())[0] for i, rec in enumerate(part)]

        dt_, stored = timed(appends_single)
        t_store_single += dt_
        rows = raw_rows(stored, g_raw_single)
        t_raw_single += timed(lambda rows=rows: raw_single(raw, rows))[0]

        part = batched_records[r * BATCHED_PER_ROUND:(r + 1) * BATCHED_PER_ROUND]
        first = r * BATCHED_PER_ROUND + 1

        def appends_batched(part: Sequence[Any] = part, first: int = first) -> list[Any]:
            out: list[Any] = []
            for i, batch in enumerate(chunks(part, BATCH)):
                out += store.append(g_batched, first + i * BATCH, batch, utc_now())
            return out

        dt_, stored = timed(appends_batched)
        t_store_batched += dt_
        rows = raw_rows(stored, g_raw_many)
        t_raw_many += timed(lambda rows=rows: raw_executemany(raw, rows))[0]
        rows = raw_rows(stored, g_raw_copy)
        t_raw_copy += timed(lambda rows=rows: raw_copy(raw, rows))[0]

    # the hash chain alone (stamp(), no database), for scale: the raw side does not hash
    now = utc_now()
    t_stamp = min(timed(lambda: stamp(g_batched, 1, GENESIS, batched_records, now))[0] for _ in range(3))

    # 2. replay rate ----------------------------------------------------------------------------
    replay_times, read_times, raw_times = [], [], []
    cols = ", ".join(["id", *COLUMNS])
    query = f"SELECT {cols} FROM referee_event WHERE game_id = %s ORDER BY seq"
    payload_at, draws_at = 1 + COLUMNS.index("payload"), 1 + COLUMNS.index("draws")

    def raw_fetch() -> int:
        with raw.cursor() as cur:
            cur.execute(query, (uuid.UUID(g_batched),))
            rows = cur.fetchall()
        for row in rows:
            json.loads(row[payload_at])
            json.loads(row[draws_at])
        return len(rows)

    final_state = referee.replay(g_batched)  # warm-up
    assert final_state == rules.fold(rules.initial_state(), pig_events(rules, n_batched))
    assert raw_fetch() == n_batched
    for _ in range(REPLAY_RUNS):
        replay_times.append(timed(lambda: referee.replay(g_batched))[0])
        read_times.append(timed(lambda: store.read(g_batched))[0])
        raw_times.append(timed(raw_fetch)[0])

    # 3. cost of reading the latest position ------------------------------------------------
    def build(ref: Referee, n: int) -> str:
        """A game of ``n`` events appended in orders of ``snapshot_every`` events, each followed
        by the referee's own snapshot policy, as Referee.handle does after an append. The first
        order is sized so that the last snapshot lands snapshot_every - 1 events before the head:
        the longest tail current() can meet, i.e. the worst case."""
        every = referee.snapshot_every
        gid = new_game()
        info = store.get_game(gid)
        tail = min(every - 1, n)
        head = n - tail
        sizes = ([head % every] if head % every else []) + [every] * (head // every) + [tail]
        events = pig_events(rules, n)
        records = event_records(rules, events)
        state, seq = rules.initial_state(), 0
        for size in sizes:
            store.append(gid, seq + 1, records[seq:seq + size], utc_now())
            state = rules.fold(state, events[seq:seq + size])
            seq += size
            ref._maybe_snapshot(info, rules, state, seq)
        return gid

    games = {
        (SMALL, True): build(referee, SMALL),
        (BIG, True): build(referee, BIG),
        (SMALL, False): build(no_snap, SMALL),
        (BIG, False): build(no_snap, BIG),
    }
    reads: dict[tuple[int, bool], list[float]] = {}
    for key, gid in games.items():
        state, last = referee.current(gid)  # warm-up and a sanity check against a full replay
        assert last == key[0] and state == referee.replay(gid)
        reads[key] = [timed(lambda gid=gid: referee.current(gid))[0] * 1000 for _ in range(READS)]
    big_snap = store.latest_snapshot(games[(BIG, True)])
    assert big_snap is not None and store.latest_snapshot(games[(BIG, False)]) is None

    # --- the table ------------------------------------------------------------------------------
    print(f"PostgreSQL {pg_version} (fsync={fsync}) on 127.0.0.1; Python {platform.python_version()}, "
          f"Django {django.get_version()}, psycopg {psycopg.__version__}; {os.cpu_count()} CPUs")
    print(f"raw: {RAW_TABLE} = LIKE referee_event INCLUDING ALL + its foreign key ({raw_table});")
    print("     raw rows are the store's own stamped rows: hash computation EXCLUDED from raw timings")
    t = Table()
    t.section("1a. append, 1 record per transaction", "store ev/s", "raw ev/s", "store/raw")
    t.row(f"DjangoEventStore.append vs INSERT, {n_single:,} events",
          rate(n_single, t_store_single), rate(n_single, t_raw_single), ratio(t_raw_single, t_store_single))
    t.section(f"1b. append, {BATCH} records per transaction", "store ev/s", "raw ev/s", "store/raw")
    t.row(f"DjangoEventStore.append vs executemany, {n_batched:,} events",
          rate(n_batched, t_store_batched), rate(n_batched, t_raw_many), ratio(t_raw_many, t_store_batched))
    t.row(f"DjangoEventStore.append vs COPY, {n_batched:,} events",
          rate(n_batched, t_store_batched), rate(n_batched, t_raw_copy), ratio(t_raw_copy, t_store_batched))
    t.row("(hash chain alone: stamp(), no database)", rate(n_batched, t_stamp), "", "")

    t.section(f"2. replay, {n_batched:,} events, median of {REPLAY_RUNS}", "ev/s", "ms", "vs raw")
    med_replay, med_read, med_raw = (statistics.median(x) for x in (replay_times, read_times, raw_times))
    t.row("Referee.replay (read + decode + fold)", rate(n_batched, med_replay), f"{med_replay * 1000:,.0f}",
          ratio(med_raw, med_replay))
    t.row("  of which DjangoEventStore.read", rate(n_batched, med_read), f"{med_read * 1000:,.0f}",
          ratio(med_raw, med_read))
    t.row("raw fetch + json.loads (payload, draws)", rate(n_batched, med_raw), f"{med_raw * 1000:,.0f}", "1.00x")

    t.section(f"3. Referee.current, {READS} reads", "median ms", "p95 ms", f"vs {SMALL} ev")
    for snaps in (True, False):
        base = statistics.median(reads[(SMALL, snaps)])
        for n in (SMALL, BIG):
            samples = reads[(n, snaps)]
            if snaps:
                how = (f"snapshot_every={referee.snapshot_every}, last at {big_snap.seq:,}" if n == BIG
                       else "no snapshot due yet")
            else:
                how = "snapshots disabled"
            t.row(f"{n:>6,} events, {how}", f"{statistics.median(samples):.2f}", f"{p95(samples):.2f}",
                  ratio(statistics.median(samples), base))
    t.print()
    raw.close()


if __name__ == "__main__":
    main()
