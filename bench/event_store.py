"""Event-store benchmark against a real PostgreSQL. Prints figures; asserts no timings.

    scripts/with_servers.sh .venv/bin/python bench/event_store.py      (part of make bench)

Every figure is a ratio to a peer measured in the same run, in ROUNDS interleaved rounds
(min / median / max of the rounds), beside the same figure for the ``eventsourcing``
library with its PostgreSQL recorder:

1. append: the referee's append (1 record per transaction, and 100) beside raw psycopg 3
   INSERTs of the very same rows into a copy of the event table;
2. replay: Referee.replay over a long game beside a raw fetch + json.loads;
3. Referee.current on a 10-event and a 10,000-event game (with and without snapshots), and
   on the 10-event game beside eventsourcing's ``repository.get``.

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

# --- sizes (about a minute on two cores; BENCH_SCALE=10 for steadier figures) --------------
SCALE = float(os.environ.get("BENCH_SCALE", "1"))
ROUNDS = max(3, int(os.environ.get("BENCH_ROUNDS", "3")))  # each side runs once per round, interleaved
SINGLE_PER_ROUND = int(300 * SCALE)  # 1a: records appended one per transaction, per round
BATCHED_PER_ROUND = int(2_000 * SCALE)  # 1b: records appended 100 per transaction, per round
BATCH = 100
REPLAY_EVENTS = int(10_000 * SCALE)  # 2: the replayed game
READS = int(30 * SCALE)  # 3: timed Referee.current calls per game and round
SMALL, BIG = 10, 10_000  # 3: game lengths in events
NO_SNAPSHOTS = 10**9  # a snapshot_every that never triggers

COLUMNS = (
    "game_id", "seq", "kind", "type", "schema_version", "payload", "audience_kind",
    "audience_seat", "audience_seats", "record_version", "actor_kind", "actor_seat", "idempotency_key",
    "cause_seq", "draws", "created_at", "prev_hash", "hash",
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
         r.audience_seat, Jsonb(list(r.audience_seats)), r.record_version, r.actor_kind, r.actor_seat,
         r.idempotency_key, r.cause_seq, Jsonb(list(r.draws)), r.created_at, r.prev_hash, r.hash)
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


# --- the peer: eventsourcing with its PostgreSQL recorder ---------------------------------------


def eventsourcing_app() -> Any:
    """An ``eventsourcing`` application on the same PostgreSQL (its own table), and an
    aggregate that records the same Pig event payloads and folds them (a counter and the
    last payload: a cheaper fold than Pig's, which favours the peer)."""
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

    return Peer(env=env), PigLog


def es_game(app: Any, cls: Any, records: Sequence[Any]) -> Any:
    agg = cls(target=1000)
    for part in chunks(records, 500):  # saved in slices, as a long game is
        for r in part:
            agg.record(type=r.type, data=r.payload)
        app.save(agg)
    return agg


# --- the figures ---------------------------------------------------------------------------------


def main() -> None:
    setup_django()
    print(f"measuring {ROUNDS} rounds (about a minute on two cores) ...", file=sys.stderr, flush=True)
    import django
    import psycopg
    from django.db import connection

    from bench import results
    from referee.core import POSITIONS, Referee, utc_now
    from referee.rulesets import get_registry
    from referee.store.base import stamp
    from referee.store.django_store import DjangoEventStore
    from referee.store.hashing import GENESIS

    registry = get_registry()
    rules = registry.get("pig")
    store = DjangoEventStore()
    referee = Referee(store, registry)  # the default snapshot_every
    no_snap = Referee(store, registry, snapshot_every=NO_SNAPSHOTS)
    app, PigLog = eventsourcing_app()

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
    single_records = event_records(rules, pig_events(rules, n_single + 50))
    batched_records = event_records(rules, pig_events(rules, n_batched))

    # warm-up: prepared statements, psycopg, the caches of every table
    warm = new_game()
    prev = GENESIS
    warm_rows = []
    for i, rec in enumerate(single_records[:50]):
        (row,) = store.append(warm, i + 1, [rec], utc_now(), prev_hash=prev)
        prev = row.hash
        warm_rows.append(row)
    raw_single(raw, raw_rows(warm_rows, warm))
    warm_es = PigLog(target=1)
    for rec in single_records[:50]:
        warm_es.record(type=rec.type, data=rec.payload)
        app.save(warm_es)
    app.repository.get(warm_es.id)

    # 1. appends, 2. replay, 3. latest position: every side once per round, interleaved ----------
    g_single, g_batched = new_game(), new_game()
    g_raw_single, g_raw_many, g_raw_copy = new_game(), new_game(), new_game()
    es_single, es_batched = PigLog(target=1000), PigLog(target=1000)
    app.save(es_single)
    app.save(es_batched)
    events = pig_events(rules, max(REPLAY_EVENTS, BIG))
    replay_records = event_records(rules, events[:REPLAY_EVENTS])

    def build(ref: Referee, n: int) -> str:
        """A game of ``n`` events appended in orders of ``snapshot_every`` events, each followed
        by the referee's own snapshot policy, as Referee.handle does. The first order is sized
        so that the last snapshot lands snapshot_every - 1 events before the head: the longest
        tail current() can meet, i.e. the worst case."""
        every = referee.snapshot_every
        gid = new_game()
        info = store.get_game(gid)
        tail = min(every - 1, n)
        head = n - tail
        sizes = ([head % every] if head % every else []) + [every] * (head // every) + [tail]
        records = event_records(rules, events[:n])
        state, seq = rules.initial_state(), 0
        for size in sizes:
            store.append(gid, seq + 1, records[seq:seq + size], utc_now())
            state = rules.fold(state, events[seq:seq + size])
            seq += size
            ref._maybe_snapshot(info, rules, state, seq)
        return gid

    g_replay = build(no_snap, REPLAY_EVENTS)
    games = {(SMALL, True): build(referee, SMALL), (BIG, True): build(referee, BIG),
             (SMALL, False): build(no_snap, SMALL), (BIG, False): build(no_snap, BIG)}
    es_replay = es_game(app, PigLog, replay_records)
    es_small, es_big = es_game(app, PigLog, replay_records[:SMALL]), es_game(app, PigLog, event_records(rules, events[:BIG]))

    cols = ", ".join(["id", *COLUMNS])
    query = f"SELECT {cols} FROM referee_event WHERE game_id = %s ORDER BY seq"
    payload_at, draws_at = 1 + COLUMNS.index("payload"), 1 + COLUMNS.index("draws")

    def raw_fetch() -> int:
        with raw.cursor() as cur:
            cur.execute(query, (uuid.UUID(g_replay),))
            rows = cur.fetchall()
        for row in rows:
            json.loads(row[payload_at])
            json.loads(row[draws_at])
        return len(rows)

    final_state = referee.replay(g_replay)  # warm-up and a sanity check
    assert final_state == rules.fold(rules.initial_state(), events[:REPLAY_EVENTS])
    assert raw_fetch() == REPLAY_EVENTS
    assert app.repository.get(es_replay.id).events == REPLAY_EVENTS
    for key, gid in games.items():
        state, last = referee.current(gid)  # warm-up and a sanity check against a full replay
        assert last == key[0] and state == referee.replay(gid)
    big_snap = store.latest_snapshot(games[(BIG, True)])
    assert big_snap is not None and store.latest_snapshot(games[(BIG, False)]) is None

    ratios: dict[str, list[float]] = {}
    rates: dict[str, list[float]] = {}

    def note(name: str, value: float) -> None:
        ratios.setdefault(name, []).append(value)

    def note_rate(name: str, n: int, seconds: float) -> None:
        rates.setdefault(name, []).append(n / seconds)

    single_seq, batched_seq, prev_single = 1, 1, GENESIS
    es_single_n = 0
    for r in range(ROUNDS):
        # 1a. one record per transaction
        part = single_records[r * SINGLE_PER_ROUND:(r + 1) * SINGLE_PER_ROUND]

        def appends_single(part: Sequence[Any] = part) -> list[Any]:
            nonlocal single_seq, prev_single
            out = []
            for rec in part:
                (row,) = store.append(g_single, single_seq, [rec], utc_now(), prev_hash=prev_single)
                single_seq, prev_single = single_seq + 1, row.hash
                out.append(row)
            return out

        t_store, stored = timed(appends_single)
        rows = raw_rows(stored, g_raw_single)
        t_raw = timed(lambda rows=rows: raw_single(raw, rows))[0]

        def es_appends(part: Sequence[Any] = part) -> None:
            for rec in part:
                es_single.record(type=rec.type, data=rec.payload)
                app.save(es_single)

        t_es = timed(es_appends)[0]
        es_single_n += len(part)
        note("append1.store", t_raw / t_store)
        note("append1.peer", t_raw / t_es)
        note_rate("append1.store", len(part), t_store)
        note_rate("append1.raw", len(part), t_raw)
        note_rate("append1.peer", len(part), t_es)

        # 1b. a hundred records per transaction
        part = batched_records[r * BATCHED_PER_ROUND:(r + 1) * BATCHED_PER_ROUND]

        def appends_batched(part: Sequence[Any] = part) -> list[Any]:
            nonlocal batched_seq
            out: list[Any] = []
            prev = out[-1].hash if out else None
            for batch in chunks(part, BATCH):
                out += store.append(g_batched, batched_seq, batch, utc_now(), prev_hash=prev)
                batched_seq += len(batch)
                prev = out[-1].hash
            return out

        t_store, stored = timed(appends_batched)
        rows = raw_rows(stored, g_raw_many)
        t_raw = timed(lambda rows=rows: raw_executemany(raw, rows))[0]
        rows = raw_rows(stored, g_raw_copy)
        t_copy = timed(lambda rows=rows: raw_copy(raw, rows))[0]

        def es_batches(part: Sequence[Any] = part) -> None:
            for batch in chunks(part, BATCH):
                for rec in batch:
                    es_batched.record(type=rec.type, data=rec.payload)
                app.save(es_batched)

        t_es = timed(es_batches)[0]
        note("append100.store", t_raw / t_store)
        note("append100.store_copy", t_copy / t_store)
        note("append100.peer", t_raw / t_es)
        note_rate("append100.store", len(part), t_store)
        note_rate("append100.raw", len(part), t_raw)
        note_rate("append100.peer", len(part), t_es)

        # 2. replay
        t_replay = timed(lambda: referee.replay(g_replay))[0]
        t_read = timed(lambda: store.read(g_replay))[0]
        t_events = timed(lambda: store.read_events(g_replay))[0]
        t_raw = timed(raw_fetch)[0]
        t_es = timed(lambda: app.repository.get(es_replay.id))[0]
        note("replay.store", t_raw / t_replay)
        note("replay.read", t_raw / t_read)
        note("replay.read_events", t_raw / t_events)
        note("replay.peer", t_raw / t_es)
        note_rate("replay.store", REPLAY_EVENTS, t_replay)
        note_rate("replay.raw", REPLAY_EVENTS, t_raw)
        note_rate("replay.peer", REPLAY_EVENTS, t_es)

        # 3. the latest position
        med: dict[Any, float] = {}
        for key, gid in games.items():
            med[key] = statistics.median(timed(lambda gid=gid: referee.current(gid))[0] for _ in range(READS))

            def cold(gid: str = gid) -> Any:
                POSITIONS.clear()  # a process that has not seen the game yet: snapshot + tail
                return referee.current(gid)

            med[("cold", *key)] = statistics.median(timed(cold)[0] for _ in range(READS))
        med["es_small"] = statistics.median(timed(lambda: app.repository.get(es_small.id))[0] for _ in range(READS))
        med["es_big"] = statistics.median(timed(lambda: app.repository.get(es_big.id))[0] for _ in range(max(3, READS // 10)))
        note("latest.big_small", med[(BIG, True)] / med[(SMALL, True)])
        note("latest.big_small_nosnap", med[(BIG, False)] / med[(SMALL, False)])
        note("latest.big_small_cold", med[("cold", BIG, True)] / med[("cold", SMALL, True)])
        note("latest.big_small_cold_nosnap", med[("cold", BIG, False)] / med[("cold", SMALL, False)])
        note("latest.peer_big_small", med["es_big"] / med["es_small"])
        note("latest.small_vs_peer", med[(SMALL, True)] / med["es_small"])
        for key, value in med.items():
            rates.setdefault(f"latest.ms.{key}", []).append(value * 1000)

    # the hash chain alone (stamp(), no database), for scale: the raw side does not hash
    now = utc_now()
    t_stamp = min(timed(lambda: stamp(g_batched, 1, GENESIS, batched_records, now))[0] for _ in range(3))

    # every log is whole and verifies: correctness, not speed
    assert [r.seq for r in store.read(g_single)] == list(range(1, n_single + 1))
    assert store.last_seq(g_batched) == n_batched
    for gid in (g_single, g_batched):
        report = referee.verify(gid)
        assert not [p for p in report.problems if p.check in ("sequence", "chain", "hash")], report.problems[:3]
    assert app.repository.get(es_single.id).events == es_single_n

    # --- the table ------------------------------------------------------------------------------
    spread = results.spread
    print(f"PostgreSQL {pg_version} (fsync={fsync}) on 127.0.0.1; Python {platform.python_version()}, "
          f"Django {django.get_version()}, psycopg {psycopg.__version__}; {os.cpu_count()} CPUs; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"raw: {RAW_TABLE} = LIKE referee_event INCLUDING ALL + its foreign key ({raw_table});")
    print("     raw rows are the store's own stamped rows: hash computation EXCLUDED from raw timings")
    print(f"{ROUNDS} interleaved rounds; each figure is min / median / max over the rounds")
    t = Table()
    t.section(f"1a. append, 1 record per transaction ({SINGLE_PER_ROUND} per round)", "ev/s (median)", "vs raw INSERT")
    t.row("referee store (predecessor hash passed in)", rate_of(rates["append1.store"]), spread(ratios["append1.store"]))
    t.row("raw psycopg INSERT", rate_of(rates["append1.raw"]), "1")
    t.row("eventsourcing, app.save of 1 new event", rate_of(rates["append1.peer"]), spread(ratios["append1.peer"]))
    t.section(f"1b. append, {BATCH} records per transaction ({BATCHED_PER_ROUND} per round)", "ev/s (median)",
              "vs raw executemany")
    t.row("referee store", rate_of(rates["append100.store"]), spread(ratios["append100.store"]))
    t.row("raw psycopg executemany", rate_of(rates["append100.raw"]), "1")
    t.row("eventsourcing, app.save of 100 new events", rate_of(rates["append100.peer"]), spread(ratios["append100.peer"]))
    t.row("(referee store vs raw COPY)", "", spread(ratios["append100.store_copy"]))
    t.row("(hash chain alone: stamp(), no database)", f"{n_batched / t_stamp:,.0f}", "")
    t.section(f"2. replay of {REPLAY_EVENTS:,} events", "ev/s (median)", "vs raw fetch+loads")
    t.row("Referee.replay (read + decode + fold)", rate_of(rates["replay.store"]), spread(ratios["replay.store"]))
    t.row("  of which DjangoEventStore.read_events (its read)", "", spread(ratios["replay.read_events"]))
    t.row("  (DjangoEventStore.read: every column of every record)", "", spread(ratios["replay.read"]))
    t.row("raw fetch + json.loads (payload, draws)", rate_of(rates["replay.raw"]), "1")
    t.row("eventsourcing repository.get", rate_of(rates["replay.peer"]), spread(ratios["replay.peer"]))
    t.section(f"3. latest position, median of {READS} reads per round", "ms (median)", "ratio")
    ms = {k: statistics.median(v) for k, v in rates.items() if k.startswith("latest.ms.")}

    def pair(big: Any, small: Any) -> str:
        return f"{ms[f'latest.ms.{big}']:.2f} / {ms[f'latest.ms.{small}']:.2f}"

    t.row(f"Referee.current, {BIG:,} / {SMALL} events (snapshot every {referee.snapshot_every}, "
          f"last {BIG - big_snap.seq} behind)", pair((BIG, True), (SMALL, True)), spread(ratios["latest.big_small"]))
    t.row(f"Referee.current, {BIG:,} / {SMALL} events, snapshots disabled", pair((BIG, False), (SMALL, False)),
          spread(ratios["latest.big_small_nosnap"]))
    t.row("  first read in a process (no cached position), with snapshots",
          pair(("cold", BIG, True), ("cold", SMALL, True)), spread(ratios["latest.big_small_cold"]))
    t.row("  first read in a process, snapshots disabled",
          pair(("cold", BIG, False), ("cold", SMALL, False)), spread(ratios["latest.big_small_cold_nosnap"]))
    t.row(f"eventsourcing repository.get, {BIG:,} / {SMALL} events", pair("es_big", "es_small"),
          spread(ratios["latest.peer_big_small"]))
    t.row(f"Referee.current / eventsourcing get, {SMALL} events", "", spread(ratios["latest.small_vs_peer"]))
    t.print()
    for name, values in ratios.items():
        results.record(name, values)
    raw.close()


def rate_of(values: list[float]) -> str:
    return f"{statistics.median(values):,.0f}"


if __name__ == "__main__":
    main()
