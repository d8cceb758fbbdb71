"""An order's latency as its game's log grows, on a database that was never analysed.

    scripts/with_servers.sh .venv/bin/python bench/plans.py      (part of make bench)

PostgreSQL plans from statistics, and a table nobody analysed has none: the planner guesses
from the table's size on disk. A prepared statement keeps the generic plan it made, however
the table grows, until an ``ANALYZE`` or a schema change. So the worst case for the hot path
is a fresh deployment: a new database, autovacuum not yet run, one long-lived connection
whose plans were made while the tables were small. This bench is that case:

* a database of its own, created empty and migrated here, with autovacuum off on every table
  of the referee (so it stays never analysed; checked at the end);
* one connection held from the start (``CONN_MAX_AGE`` unlimited; its server pid printed at
  the start and the end);
* one Pig game: ROUNDS rounds of PAIRS roll + hold orders through the API when its log is
  about 100 records long, then the same game grown to 10,000 records (notices, appended by
  the store in orders of 100 records: the append statement orders use, prepared while the
  table was small) and 3,000 finished due-work rows, then ROUNDS rounds again;
* beside each round, a bare DRF POST (bench/bare.py) on the same connection, so that a
  change of the machine's load between the two halves shows.

The figure: p50 of an order at 10,000 records / at 100 records, round by round (min /
median / max), and the same normalised by the bare POST of each round. Prints figures;
asserts no timings. See bench/README.md.
"""

from __future__ import annotations

import datetime as dt
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import harness  # noqa: E402

harness.django_environment()

PAIRS = max(5, int(15 * harness.SCALE))
BARE = max(10, int(20 * harness.SCALE))
SMALL, BIG = 100, 10_000  # records in the game's log
DUE_HISTORY = 3_000  # finished due-work rows behind the big game
REFEREE_TABLES = ("referee_event", "referee_snapshot", "referee_duework", "referee_game", "referee_seat",
                  "referee_vacation")


def fresh_database() -> str:
    """A new, empty database beside the one in DATABASE_URL; its URL."""
    import psycopg

    url = harness.postgres_url("bench/plans.py")
    name = f"bench_plans_{os.getpid()}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + "/" + name


def setup() -> None:
    os.environ["DATABASE_URL"] = fresh_database()
    from django.db import connection

    harness.start_django(one_connection=True)  # one connection, held from the start
    with connection.cursor() as cur:
        for table in REFEREE_TABLES:
            cur.execute(f"ALTER TABLE {table} SET (autovacuum_enabled = false)")


def backend_pid() -> int:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        return int(cur.fetchone()[0])


def main() -> None:
    setup()
    print(f"measuring {harness.ROUNDS} rounds at {SMALL} and at {BIG} records ...", file=sys.stderr, flush=True)
    from django.db import connection

    from bench import results
    from bench.bare import create_table
    from bench.event_store import Table
    from referee import services
    from referee.models import DueWork, Game
    from referee.store.base import NewRecord, RecordKind

    pid_at_start = backend_pid()
    create_table()
    users, clients = harness.players("plans")
    gid, seats = harness.pig_game(users, clients)
    referee = services.referee_get()
    store = referee.store

    def order(kind: str) -> float:
        state, _ = referee.current(gid)
        elapsed, _seq = harness.post_order(seats[state.order[state.to_move]], gid, kind)
        services.game_run_pending(game_id=gid)  # the next turn's start, outside the timing
        return elapsed

    def pairs(n: int) -> list[float]:
        return [t for _ in range(n) for t in (order("Roll"), order("Hold"))]

    def bare(n: int) -> list[float]:
        return harness.bare_posts(clients[0], n)

    def rounds() -> tuple[list[float], list[float]]:
        orders, bares = [], []
        for _ in range(harness.ROUNDS):
            bares.append(statistics.median(bare(BARE)))
            orders.append(statistics.median(pairs(PAIRS)))
        return orders, bares

    while store.last_seq(gid) < SMALL - 4 * PAIRS * harness.ROUNDS // 2:  # the log about SMALL long mid-measurement
        pairs(1)
    small_at = store.last_seq(gid)
    small, bare_small = rounds()

    now = dt.datetime.now(dt.UTC)
    while (head := store.last_seq(gid)) < BIG:
        store.append(gid, head + 1, [
            NewRecord(kind=RecordKind.NOTICE, type="Padding", payload={"i": i}, actor_kind="referee")
            for i in range(min(100, BIG - head))
        ], now)
    DueWork.objects.bulk_create([
        DueWork(game_id=gid, key=f"history:{i}", kind="now", status="done", created_at=now, done_at=now, due_at=now)
        for i in range(DUE_HISTORY)
    ])
    pairs(2)  # the process's cached position reads the padding once
    big_at = store.last_seq(gid)
    big, bare_big = rounds()

    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM pg_stat_user_tables WHERE relname = ANY(%s) AND (last_analyze IS NOT NULL "
                    "OR last_autoanalyze IS NOT NULL)", [list(REFEREE_TABLES)])
        analysed = cur.fetchone()[0]
    pid_at_end = backend_pid()
    ratios = [b / s for b, s in zip(big, small, strict=True)]
    normalised = [(b / bb) / (s / bs) for b, s, bb, bs in zip(big, small, bare_big, bare_small, strict=True)]

    spread = results.spread
    print(f"load average {os.getloadavg()[0]:.1f}; {harness.ROUNDS} rounds each side, min / median / max; a new database, "
          f"autovacuum off, tables analysed: {analysed}; one connection (server pid {pid_at_start} at the start, "
          f"{pid_at_end} at the end); {Game.objects.count()} game")
    t = Table()
    t.section("order latency as the log grows (Pig roll / hold through the API)", "p50 ms (median)", "ratio")
    t.row(f"at {small_at}-{small_at + 4 * PAIRS * harness.ROUNDS} records", f"{statistics.median(small) * 1000:.2f}", "1")
    t.row(f"at {big_at} records, {DUE_HISTORY} finished due rows (goal <= 1.1)", f"{statistics.median(big) * 1000:.2f}",
          spread(ratios))
    t.row("... each round divided by its bare POST", "", spread(normalised))
    t.row("a bare DRF POST, beside the small game / the big one",
          f"{statistics.median(bare_small) * 1000:.2f} / {statistics.median(bare_big) * 1000:.2f}", "")
    t.print()
    results.record("order.big_log_vs_small", ratios)
    connection.close()


if __name__ == "__main__":
    main()
