"""Event-store benchmark against a real PostgreSQL. Prints figures; asserts no timings.

    scripts/with_servers.sh .venv/bin/python bench/event_store.py      (part of make bench)

Every figure is a ratio to a baseline measured in the same run, in ROUNDS interleaved rounds
(min / median / max of the rounds), the baseline doing the same work (the same rows,
columns, round trips and durability), beside the same figure for the ``eventsourcing``
library with its PostgreSQL recorder:

1. append: the referee's append (1 record per statement, and 100) beside raw psycopg 3
   autocommit INSERTs, and a COPY, of the very same rows into a copy of the event table;
2. replay: Referee.replay over a long game beside a raw read of the same 4 columns +
   json.loads; its memory and time at 1k, 10k and 100k events;
3. Referee.current on a 10-event and a 10,000-event game (warm, and first in a process),
   and on the 10-event game beside eventsourcing's cached, snapshotting ``repository.get``.

See bench/README.md for what each figure and each baseline does, round trip by round trip.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# tests.settings registers the pig ruleset. DEBUG off so Django does not record every query.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-a-secret")

from bench.es_support import (  # noqa: E402
    BATCH,
    RAW_TABLE,
    Table,
    chunks,
    create_raw_table,
    es_game,
    event_records,
    eventsourcing_apps,
    pig_events,
    raw_connection,
    raw_copy,
    raw_executemany,
    raw_replay,
    raw_rows,
    raw_single,
    timed,
)
from bench.replay_scaling import replay_scaling  # noqa: E402

# --- sizes (a few minutes on two cores; BENCH_SCALE=10 for steadier figures) ---------------
SCALE = float(os.environ.get("BENCH_SCALE", "1"))
ROUNDS = max(3, int(os.environ.get("BENCH_ROUNDS", "3")))  # each side runs once per round, interleaved
SINGLE_PER_ROUND = max(2_000, int(2_000 * SCALE))  # 1a: records appended one per statement, per round
BATCHED_PER_ROUND = int(2_000 * SCALE)  # 1b: records appended 100 per statement, per round
REPLAY_EVENTS = int(10_000 * SCALE)  # 2: the replayed game
READS = int(30 * SCALE)  # 3: timed Referee.current calls per game and round
SMALL, BIG = 10, 10_000  # 3: game lengths in events
NO_SNAPSHOTS = 10**9  # a snapshot_every that never triggers


def setup_django() -> None:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit("bench/event_store.py needs PostgreSQL: run it as "
                 "`scripts/with_servers.sh .venv/bin/python bench/event_store.py` (make bench).")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)


def main() -> None:
    setup_django()
    print(f"measuring {ROUNDS} rounds (a few minutes on two cores) ...", file=sys.stderr, flush=True)
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
    app, cached_app, PigLog = eventsourcing_apps(referee.snapshot_every)
    load_before = os.getloadavg()

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

    g_single, g_batched = new_game(), new_game()
    g_raw_single, g_raw_many, g_raw_copy = new_game(), new_game(), new_game()
    es_single, es_batched = PigLog(target=1000), PigLog(target=1000)
    app.save(es_single)
    app.save(es_batched)
    events = pig_events(rules, max(REPLAY_EVENTS, BIG))
    replay_events = events[:REPLAY_EVENTS]
    replay_records = event_records(rules, replay_events)

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
    big_records = event_records(rules, events[:BIG])
    # The cached peer's games, saved an order (snapshot_every events) at a time with the
    # same worst-case tail as the referee's, then read once so its cache holds them.
    every = referee.snapshot_every
    es_small = es_game(cached_app, PigLog, replay_records[:SMALL], part=every)
    es_big = es_game(cached_app, PigLog, big_records[:BIG - every + 1], part=every)
    for rec in big_records[BIG - every + 1:]:
        es_big.record(type=rec.type, data=rec.payload)
    cached_app.save(es_big)

    final_state = referee.replay(g_replay)  # warm-up and a sanity check
    assert final_state == rules.fold(rules.initial_state(), events[:REPLAY_EVENTS])
    assert raw_replay(raw, g_replay) == REPLAY_EVENTS
    assert app.repository.get(es_replay.id).events == REPLAY_EVENTS
    assert cached_app.repository.get(es_small.id).events == SMALL
    assert cached_app.repository.get(es_big.id).events == BIG
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
        # 1a. one record per statement
        part = single_records[r * SINGLE_PER_ROUND:(r + 1) * SINGLE_PER_ROUND]

        def appends_single(part: Any = part) -> list[Any]:
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

        def es_appends(part: Any = part) -> None:
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

        # 1b. a hundred records per statement
        part = batched_records[r * BATCHED_PER_ROUND:(r + 1) * BATCHED_PER_ROUND]

        def appends_batched(part: Any = part) -> list[Any]:
            nonlocal batched_seq
            out: list[Any] = []
            prev = out[-1].hash if out else None
            for batch in chunks(part, BATCH):
                out += store.append(g_batched, batched_seq, batch, utc_now(), prev_hash=prev)
                batched_seq += len(batch)
                prev = out[-1].hash
            return out

        t_store, stored = timed(appends_batched)
        rows = raw_rows(stored, g_raw_copy)
        t_copy = timed(lambda rows=rows: raw_copy(raw, rows))[0]
        rows = raw_rows(stored, g_raw_many)
        t_many = timed(lambda rows=rows: raw_executemany(raw, rows))[0]

        def es_batches(part: Any = part) -> None:
            for batch in chunks(part, BATCH):
                for rec in batch:
                    es_batched.record(type=rec.type, data=rec.payload)
                app.save(es_batched)

        t_es = timed(es_batches)[0]
        note("append100.store_copy", t_copy / t_store)
        note("append100.store", t_many / t_store)
        note("append100.peer_copy", t_copy / t_es)
        note_rate("append100.store", len(part), t_store)
        note_rate("append100.copy", len(part), t_copy)
        note_rate("append100.raw", len(part), t_many)
        note_rate("append100.peer", len(part), t_es)

        # 2. replay
        t_replay = timed(lambda: referee.replay(g_replay))[0]
        t_raw = timed(lambda: raw_replay(raw, g_replay))[0]
        t_events = timed(lambda: sum(1 for _ in store.iter_events(g_replay)))[0]
        t_fold = timed(lambda: rules.fold(rules.initial_state(), replay_events))[0]
        t_es = timed(lambda: app.repository.get(es_replay.id))[0]
        note("replay.store", t_raw / t_replay)
        note("replay.read_events", t_raw / t_events)
        note("replay.fold", t_raw / t_fold)
        note("replay.peer", t_raw / t_es)
        note_rate("replay.store", REPLAY_EVENTS, t_replay)
        note_rate("replay.raw", REPLAY_EVENTS, t_raw)
        note_rate("replay.peer", REPLAY_EVENTS, t_es)

        # 3. the latest position: every kind of read once per pass, READS passes (interleaved
        # read by read, so a change of load falls on every side alike); medians per round.
        # A game's first read in a process (the cache cleared) comes right before its warm
        # read, which it leaves warm.
        def cold(gid: str) -> Any:
            POSITIONS.discard((store.cache_scope(), gid))  # a process that has not seen the game yet
            return referee.current(gid)

        reads: dict[Any, Any] = {}
        for key, gid in games.items():
            reads[("cold", *key)] = lambda gid=gid: cold(gid)
            reads[key] = lambda gid=gid: referee.current(gid)
        reads["es_small"] = lambda: cached_app.repository.get(es_small.id)
        reads["es_big"] = lambda: cached_app.repository.get(es_big.id)
        # The first read of the long game without snapshots folds all 10,000 records and leaves
        # garbage that the next read would pay for: it runs in passes of its own, after.
        heavy = ("cold", BIG, False)
        samples: dict[Any, list[float]] = {key: [] for key in reads}
        for _ in range(READS):
            for key, fn in reads.items():
                if key != heavy:
                    samples[key].append(timed(fn)[0])
        for _ in range(max(3, READS // 10)):
            samples[heavy].append(timed(reads[heavy])[0])
        med = {key: statistics.median(values) for key, values in samples.items()}
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
    with raw.cursor() as cur:
        for gid, n in ((g_raw_single, n_single), (g_raw_copy, n_batched), (g_raw_many, n_batched)):
            cur.execute(f"SELECT count(*) FROM {RAW_TABLE} WHERE game_id = %s", (uuid.UUID(gid),))
            assert cur.fetchone()[0] == n

    scaling = replay_scaling(referee, store, raw, rules, new_game, ROUNDS)
    raw.close()

    # --- the table ------------------------------------------------------------------------------
    spread = results.spread
    print(f"PostgreSQL {pg_version} (fsync={fsync}) on 127.0.0.1; Python {platform.python_version()}, "
          f"Django {django.get_version()}, psycopg {psycopg.__version__}; {os.cpu_count()} CPUs; "
          f"load average {load_before[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    print(f"raw: {RAW_TABLE} = LIKE referee_event INCLUDING ALL + its foreign key ({raw_table});")
    print("     raw rows are the store's own stamped rows: hash computation EXCLUDED from raw timings")
    print(f"{ROUNDS} interleaved rounds; each figure is min / median / max over the rounds; "
          "a ratio above 1 means the referee is faster")
    t = Table()
    t.section(f"1a. append, 1 record per statement ({SINGLE_PER_ROUND:,} per round)", "ev/s (median)",
              "raw time / ours")
    t.row("referee store (one autocommit statement, predecessor hash passed in)",
          rate_of(rates["append1.store"]), spread(ratios["append1.store"]))
    t.row("raw psycopg autocommit INSERT (one round trip)", rate_of(rates["append1.raw"]), "1")
    t.row("eventsourcing, app.save of 1 new event", rate_of(rates["append1.peer"]), spread(ratios["append1.peer"]))
    t.section(f"1b. append, {BATCH} records per statement ({BATCHED_PER_ROUND:,} per round)", "ev/s (median)",
              "COPY time / ours")
    t.row("referee store (one autocommit statement)", rate_of(rates["append100.store"]),
          spread(ratios["append100.store_copy"]))
    t.row("raw psycopg autocommit COPY of 100 rows", rate_of(rates["append100.copy"]), "1")
    t.row("eventsourcing, app.save of 100 new events", rate_of(rates["append100.peer"]),
          spread(ratios["append100.peer_copy"]))
    t.row("(referee store vs raw BEGIN + executemany + COMMIT)", rate_of(rates["append100.raw"]),
          spread(ratios["append100.store"]))
    t.row("(hash chain alone: stamp(), no database)", f"{n_batched / t_stamp:,.0f}", "")
    t.section(f"2. replay of {REPLAY_EVENTS:,} events", "ev/s (median)", "raw time / ours")
    t.row("Referee.replay (stream + decode + fold)", rate_of(rates["replay.store"]), spread(ratios["replay.store"]))
    t.row("  of which DjangoEventStore.iter_events (its read, streamed)", "", spread(ratios["replay.read_events"]))
    t.row("  Pig's fold alone (evolve over events already decoded, no I/O)", "", spread(ratios["replay.fold"]))
    t.row("raw fetch of the same 4 columns + json.loads", rate_of(rates["replay.raw"]), "1")
    t.row("eventsourcing repository.get (no snapshots)", rate_of(rates["replay.peer"]), spread(ratios["replay.peer"]))
    scaling.add_to(t)
    t.section(f"3. latest position, median of {READS} reads per round, interleaved", "ms (median)", "ratio")
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
    t.row(f"eventsourcing repository.get, cache + snapshots, {BIG:,} / {SMALL} events", pair("es_big", "es_small"),
          spread(ratios["latest.peer_big_small"]))
    t.row(f"Referee.current / eventsourcing get (cache + snapshots), {SMALL} events", "",
          spread(ratios["latest.small_vs_peer"]))
    t.print()
    for name, values in {**ratios, **scaling.ratios}.items():
        results.record(name, values)


def rate_of(values: list[float]) -> str:
    return f"{statistics.median(values):,.0f}"


if __name__ == "__main__":
    main()
