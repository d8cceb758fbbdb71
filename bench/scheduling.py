"""Scheduling benchmark: real Celery workers on Redis against a real PostgreSQL. Prints
figures; asserts no timings (only correctness: exactly one expiry per game).

    scripts/with_servers.sh .venv/bin/python bench/scheduling.py

1. 10,000 started Pig games whose deadlines all run out at the same instant (the injected
   clock moves past them), worked off by 2 worker processes that sweep concurrently
   (batches of games claimed with SELECT ... FOR NO KEY UPDATE SKIP LOCKED): time until
   every game has its one DeadlineExpired notice and its one referee Hold, and until the
   turn starts and notices those made due have run too; the exactly-once check;
2. the overhead of a job over a no-op task on the same broker (bench/scheduling_jobs.py):
   round trips of ``bench.noop`` (bench/noop_tasks.py), of ``run_due_work`` for a key
   already done and of a real deadline job, interleaved task by task; bursts of the first
   two; then the same real job in this process, split into its statements and the rest,
   beside a trivial statement's round trip;
3. 1,000 active games with orders and deadlines interleaved: this process places orders
   as a web process would while the workers sweep a steady stream of expiring deadlines.

Part 2 runs first, on idle workers; then the storm, then part 3. See bench/README.md for
what each figure measures. ``BENCH_GAMES`` sets the storm's size (``make bench`` uses
2,000 and scales the time to 10,000 in the summary; ``make bench-scheduling`` 10,000).
"""

from __future__ import annotations

import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.event_store import Table  # noqa: E402  (also sets the Django defaults below)
from bench.scheduling_active import active_games  # noqa: E402
from bench.scheduling_jobs import (  # noqa: E402
    burst,
    fresh_connection,
    in_process_jobs,
    ms,
    pct,
    pg_sessions,
    round_trip,
)
from bench.scheduling_setup import (  # noqa: E402
    ACTIVE,
    ACTIVE_SECONDS,
    BURST,
    GAMES,
    HOUR,
    IN_PROCESS,
    NOOP,
    RESERVED,
    ROUND_TRIPS,
    RUN,
    SERVICE_GAMES,
    SWEEPS,
    T0,
    TURN_LIMIT,
    VERIFY_SAMPLE,
    WARMUP,
    WORKERS,
    Workers,
    bulk_games,
    check_setup,
    queue_idle_of,
    service_games,
    set_now,
    setup_environment,
    wait_until,
)
from bench.scheduling_storm import claim_plan, exactly_once, storm  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-a-secret")

def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-scheduling-"))
    try:
        run(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run(tmp: Path) -> None:
    setup_environment(tmp)
    print(f"setting up {GAMES + RESERVED + IN_PROCESS:,} games ...", file=sys.stderr, flush=True)
    import celery
    import django
    import redis as redis_lib
    from django.db import connection

    from config.celery import app
    from referee import services
    from referee.models import DueWork

    load = os.getloadavg()
    # No socket timeout: the script blocks on BLPOP for up to minutes (redis-py's own default
    # of a few seconds turned a slow worker start-up into an error).
    redis = redis_lib.Redis.from_url(os.environ["REDIS_URL"], socket_timeout=None)
    redis.delete("celery", "unacked", "unacked_index", "bench:ready", "bench:done", "bench:sweeping",
                 "bench:sweeps", "bench:failures")
    with connection.cursor() as cur:
        cur.execute("SHOW server_version")
        pg_version = cur.fetchone()[0]
        cur.execute("SHOW fsync")
        fsync = cur.fetchone()[0]

    # set-up ------------------------------------------------------------------------------------
    t = time.perf_counter()
    service_ids = service_games(SERVICE_GAMES)
    t_service = time.perf_counter() - t
    t = time.perf_counter()
    bulk_ids = bulk_games(GAMES + RESERVED + IN_PROCESS - SERVICE_GAMES, service_ids[0])
    t_bulk = time.perf_counter() - t
    t = time.perf_counter()
    checked = check_setup(service_ids, bulk_ids)
    with connection.cursor() as cur:
        cur.execute("ANALYZE")
    t_check = time.perf_counter() - t
    app.conf.task_always_eager = False  # from here on every task goes through Redis
    deadline_at = set(DueWork.objects.filter(key="turn:0:deadline", kind="deadline", status=DueWork.Status.PENDING)
                      .values_list("due_at", flat=True))
    if deadline_at != {T0 + TURN_LIMIT * HOUR}:
        raise AssertionError(f"the deadlines are not all at one instant: {deadline_at}")
    game_ids = service_ids + bulk_ids
    storm_ids, reserved, in_process = (game_ids[:GAMES], game_ids[GAMES:GAMES + RESERVED],
                                       game_ids[GAMES + RESERVED:])
    after = T0 + (TURN_LIMIT + 1) * HOUR  # one hour past every deadline

    t = time.perf_counter()
    workers = Workers(tmp, redis)
    t_workers = time.perf_counter() - t
    try:
        # part 2 first, on idle workers: no-op tasks, no-op jobs, then real deadline jobs ------------
        print("round trips and bursts ...", file=sys.stderr, flush=True)
        done_keys = [(g, "turn:0:start") for g in storm_ids]  # ran at set-up: "nothing to do"
        for i in range(WARMUP):
            round_trip(redis, NOOP, (), f"bench-warm-noop-{i}")
            round_trip(redis, RUN, done_keys[i], f"bench-warm-job-{i}")
        t_noop_burst, noop_inside = burst(redis, NOOP, [()] * BURST, "bnoop")
        t_done_burst, done_inside = burst(redis, RUN, done_keys[-BURST:], "bdone")
        connects = [fresh_connection() for _ in range(ROUND_TRIPS // 5)]
        # Round trips interleaved task by task (a no-op, a job whose key is done, a real
        # deadline job), so that a change of the machine's load falls on all three alike.
        # Nothing sweeps; each real job runs its game's turn-1 start and notice itself,
        # under the same lock (no nudges), and the queue is left idle after it.
        wait_until(queue_idle_of(redis), "the queue to drain")
        set_now(after)
        trips: dict[str, list[tuple[float, float]]] = {"noop": [], "done": [], "real": []}
        s0 = pg_sessions()
        for i, g in enumerate(reserved):
            trips["noop"].append(round_trip(redis, NOOP, (), f"bench-noop-{i}"))
            trips["done"].append(round_trip(redis, RUN, done_keys[WARMUP + i], f"bench-done-{i}"))
            trips["real"].append(round_trip(redis, RUN, (g, "turn:0:deadline"), f"bench-real-{i}"))
            wait_until(queue_idle_of(redis), "the nudges of a real job", timeout=60)
        opened = (pg_sessions() - s0) / (3 * RESERVED)
        split = in_process_jobs(in_process)

        # part 1: the storm ------------------------------------------------------------------------
        claim_ms, claim_rows = claim_plan(after)
        print(f"{GAMES:,} deadlines ...", file=sys.stderr, flush=True)
        result = storm(redis, after)
        once = exactly_once()  # before part 3 adds expiries and orders of its own
        results = Counter(DueWork.objects.filter(key="turn:0:deadline", kind="deadline", game_id__in=game_ids)
                          .values_list("result", flat=True))
        print(f"{ACTIVE:,} active games for {ACTIVE_SECONDS:.0f} s ...", file=sys.stderr, flush=True)
        active = active_games(redis, storm_ids, after)
    finally:
        workers.kill()
    failures = [f.decode() for f in redis.lrange("bench:failures", 0, -1)]
    problems = workers.problems()
    sample = game_ids[::len(game_ids) // VERIFY_SAMPLE]
    verified = sum(services.referee_get().verify(g).ok for g in sample)

    # --- the table ------------------------------------------------------------------------------
    print(f"load average (1 min) at the start {load[0]:.2f}, at the end {os.getloadavg()[0]:.2f}: other work on "
          "the machine slows every figure")
    print(f"PostgreSQL {pg_version} (fsync={fsync}) and Redis on 127.0.0.1; Python {platform.python_version()}, "
          f"Django {django.get_version()}, Celery {celery.__version__}; {os.cpu_count()} CPUs")
    print(f"{WORKERS} workers (`celery worker --pool solo`, prefetch 1, acks_late), up in {t_workers:.1f} s; "
          f"clock injected through REFEREE_CLOCK_FILE")
    tab = Table()
    total = GAMES + RESERVED + IN_PROCESS
    tab.section(f"0. set-up: {total:,} started Pig games, reminders sent", "games", "seconds", "games/s")
    tab.row("real services (game_create, 2 seat_add, game_start + jobs)", f"{SERVICE_GAMES:,}",
            f"{t_service:.1f}", f"{SERVICE_GAMES / t_service:,.0f}")
    tab.row(f"  (so {total:,} through the services would take)", "", f"{total * t_service / SERVICE_GAMES:,.0f}", "")
    tab.row("bulk: Referee on the in-memory store, rows bulk_create'd", f"{total - SERVICE_GAMES:,}",
            f"{t_bulk:.1f}", f"{(total - SERVICE_GAMES) / t_bulk:,.0f}")
    tab.row(f"check: {checked} games alike, verify() ok, due rows = due_work_sync's", "", f"{t_check:.1f}", "")

    t_deadlines, t_all = result["deadlines"], result["everything"]
    tab.section(f"1. {GAMES:,} deadlines due at once, {SWEEPS} sweep tasks", "seconds", "games/s", "ms/game/worker")
    tab.row(f"sweep's claim of a batch, {GAMES:,} due (EXPLAIN ANALYZE; {claim_rows:,} rows read)",
            f"{claim_ms / 1000:.4f}", "", ms(claim_ms / 1000))
    tab.row("all deadlines expired (DeadlineExpired + referee Hold)", f"{t_deadlines:.1f}",
            f"{GAMES / t_deadlines:,.0f}", ms(WORKERS * t_deadlines / GAMES))
    tab.row("  and the turn-1 starts and notices they made due", f"{t_all:.1f}",
            f"{GAMES / t_all:,.0f}", ms(WORKERS * t_all / GAMES))
    tab.row("  the same scaled to 10,000 games (seconds)", f"{10_000 * t_deadlines / GAMES:.1f}", "", "")
    tab.row(f"  sweeps started on worker pids {', '.join(map(str, result['sweepers']))}", "", "", "")
    tab.row("  nudges queued meanwhile (the sweeps run what the expiries make due)", f"{result['queued']:,}", "", "")
    lat = active["latencies"]
    tab.section(f"3. {ACTIVE:,} active games, {active['seconds']:.0f} s: orders here, deadlines on the workers",
                "count", "per second", "p50 / p95 ms")
    tab.row(f"orders (Hold) in {ACTIVE // 2} games, from this one process", f"{active['orders']:,}",
            f"{active['orders'] / active['seconds']:,.0f}", f"{ms(statistics.median(lat))} / {ms(pct(lat, 95))}")
    tab.row("  (turns not started yet when their game came round again)", f"{active['skipped']:,}", "", "")
    tab.row(f"deadlines expired meanwhile in {ACTIVE - ACTIVE // 2} games (streamed, swept every 0.5 s)",
            f"{active['expired']:,}", f"{active['expired'] / active['drain']:,.0f}", "")
    good = sum(n for (expired, holds, _), n in once.items() if expired == holds == 1)
    twice = sum(n for (expired, holds, _), n in once.items() if expired > 1 or holds > 1)
    none = sum(n for (expired, holds, _), n in once.items() if expired == 0 or holds == 0)
    started = Counter()
    for (_, _, turns), n in once.items():
        started[turns] += n
    tab.section(f"exactly once, all {total:,} games, after the storm", "games", "", "")
    tab.row("with exactly 1 DeadlineExpired and 1 referee Hold", f"{good:,}", "", "")
    tab.row("with 2 or more expiries or referee Holds", f"{twice:,}", "", "")
    tab.row("with none", f"{none:,}", "", "")
    tab.row(f"full verify() (hash chain, re-adjudication) ok, of {len(sample)}", f"{verified}", "", "")
    for result_text, n in results.most_common():
        tab.row(f"turn:0:deadline result: {result_text[:60]}", f"{n:,}", "", "")
    tab.row("games whose turn 1 had started after the storm", f"{started[2]:,}", "", "")

    tab.section(f"2a. round trip, one task at a time, interleaved task by task ({ROUND_TRIPS} each)", "p50 ms",
                "p95 ms", "p99 ms", "in-worker p50", "p50 vs noop")
    base = statistics.median(rt for rt, _ in trips["noop"])
    labels = {"noop": "bench.noop (does nothing)", "done": "run_due_work, key already done",
              "real": f"run_due_work, a real deadline ({RESERVED}; + its turn start and notice)"}
    for kind, label in labels.items():
        rts, inside = [rt for rt, _ in trips[kind]], [s for _, s in trips[kind]]
        tab.row(label, ms(statistics.median(rts)), ms(pct(rts, 95)), ms(pct(rts, 99)),
                ms(statistics.median(inside)), f"{statistics.median(rts) / base:.2f}x")
    for kind in labels:
        rts = [rt for rt, _ in trips[kind]]
        tab.row(f"  {kind}: min / median / max ms", f"{ms(min(rts))} / {ms(statistics.median(rts))} / {ms(max(rts))}",
                "", "", "", "")
    ratios = [real / noop for (real, _), (noop, _) in zip(trips["real"], trips["noop"], strict=True)]
    tab.row("  the real job / the no-op just before it, task by task: min / median / max (goal: median <= 3)",
            "", "", "", "", f"{min(ratios):.2f} / {statistics.median(ratios):.2f} / {max(ratios):.2f}x")
    tab.row(f"new PostgreSQL sessions per task while they ran: {opened:.2f}")
    tab.row("a new Django connection: connect, SELECT 1, close", ms(statistics.median(connects)),
            ms(pct(connects, 95)), "", "", "")
    jobs, inside, trivial = split["job"], split["statements"], split["trivial"]
    outside = statistics.median(rt for rt, _ in trips["real"]) - statistics.median(s for _, s in trips["real"])
    tab.row(f"the real deadline job in this process, no Celery ({IN_PROCESS} more games)", ms(statistics.median(jobs)),
            ms(pct(jobs, 95)), ms(pct(jobs, 99)), "", "")
    tab.row(f"  of which in its {split['count']} statements (BEGIN and COMMIT not counted)",
            ms(statistics.median(inside)), "", "", "", "")
    tab.row("  the rest: Python, BEGIN and COMMIT", ms(statistics.median(j - i for j, i in zip(jobs, inside, strict=True))),
            "", "", "", "")
    tab.row("one trivial statement (SELECT 1) on this process's connection", ms(statistics.median(trivial)),
            ms(pct(trivial, 95)), "", "", "")
    floor = (split["count"] + 2) * statistics.median(trivial)
    tab.row(f"  {split['count']} + 2 round trips of a trivial statement: the job's floor before any work",
            ms(floor), "", "", "", f"{(floor + outside) / base:.2f}x")
    tab.row("  the time in the worker a job may take for 3x a no-op (3 x noop - the real job's outside)",
            ms(3 * base - outside), "", "", "", "")

    tab.section(f"2b. throughput, {WORKERS} workers", "tasks/s", "ms/task/worker", "in-worker p50", "vs noop")
    tab.row(f"bench.noop, burst of {BURST}", f"{BURST / t_noop_burst:,.0f}", ms(WORKERS * t_noop_burst / BURST),
            ms(statistics.median(noop_inside)), "1.00x")
    tab.row(f"run_due_work (key done), burst of {BURST}", f"{BURST / t_done_burst:,.0f}",
            ms(WORKERS * t_done_burst / BURST), ms(statistics.median(done_inside)),
            f"{t_done_burst / t_noop_burst:.2f}x")
    tab.row(f"deadlines in part 1's sweeps ({GAMES:,})", f"{GAMES / t_deadlines:,.0f}",
            ms(WORKERS * t_deadlines / GAMES), "", f"{(t_deadlines / GAMES) / (t_noop_burst / BURST):.2f}x")
    tab.print()

    from bench import results as shared

    real = statistics.median(rt for rt, _ in trips["real"])
    shared.record("deadlines.seconds_10k", 10_000 * t_deadlines / GAMES, games=GAMES)
    shared.record("deadlines.everything_10k", 10_000 * t_all / GAMES, games=GAMES)
    shared.record("deadlines.job_vs_noop", real / base)
    shared.record("deadlines.job_vs_noop_task_by_task", ratios)
    shared.record("statements.deadline_job", split["count"] + 2)  # BEGIN and COMMIT included
    shared.record("active.orders_per_s", active["orders"] / active["seconds"])
    shared.record("active.expiries_per_s", active["expired"] / active["drain"])
    shared.record("active.order_p50_ms", statistics.median(lat) * 1000)
    shared.record("exactly_once.bad", twice + none)
    print()
    print(f"task failures reported by the workers: {len(failures)}; error lines in worker logs: {len(problems)}")
    for line in (failures + problems)[:10]:
        print("  " + line)


if __name__ == "__main__":
    main()
