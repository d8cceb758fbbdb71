"""Part 2 of the scheduling bench (bench/scheduling.py): a deadline job beside a no-op task
on the same broker and workers. A task's round trip (send, the worker runs it, its report
back), a burst of tasks, a fresh connection's cost, and the real job run in this process
with the time of its statements measured. See bench/README.md."""

from __future__ import annotations

import json
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any


def round_trip(redis: Any, name: str, args: Sequence[Any], task_id: str) -> tuple[float, float]:
    """Send one task and wait for the worker's report that it finished: (round trip, time
    inside the worker) in seconds."""
    from config.celery import app

    t0 = time.perf_counter()
    app.send_task(name, args=list(args), task_id=task_id)
    item = redis.blpop("bench:done", timeout=60)
    elapsed = time.perf_counter() - t0
    if item is None:
        raise TimeoutError(f"{name}{tuple(args)} did not finish within 60 s")
    done = json.loads(item[1])
    if done["id"] != task_id:
        raise AssertionError(f"expected {task_id} to finish, got {done['id']}")
    return elapsed, done["seconds"]


def burst(redis: Any, name: str, args: Sequence[Sequence[Any]], tag: str) -> tuple[float, list[float]]:
    """Send len(args) tasks at once; seconds from the first send until all have finished."""
    from config.celery import app

    t0 = time.perf_counter()
    for i, a in enumerate(args):
        app.send_task(name, args=list(a), task_id=f"bench-{tag}-{i}")
    inside = []
    for _ in args:
        item = redis.blpop("bench:done", timeout=60)
        if item is None:
            raise TimeoutError(f"a burst of {name} did not finish")
        inside.append(json.loads(item[1])["seconds"])
    return time.perf_counter() - t0, inside


def pg_sessions() -> int:
    """Sessions ever opened to this database (PostgreSQL 14+)."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return cur.fetchone()[0]


def fresh_connection() -> float:
    """What a worker pays per task when Django's connection is closed around every task:
    a new connection, made the way Django makes it, one query, close."""
    from django.db import connections

    t0 = time.perf_counter()
    conn = connections.create_connection("default")
    with conn.cursor() as cur:
        cur.execute("SELECT 1")
    conn.close()
    return time.perf_counter() - t0


def pct(samples: Sequence[float], p: int) -> float:
    return statistics.quantiles(samples, n=100, method="inclusive")[p - 1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.2f}"


def in_process_jobs(game_ids: Sequence[str]) -> dict[str, Any]:
    """The real deadline job of each game run here, without Celery, with the time spent in
    its SQL statements measured around ``referee.store.sql.run`` and ``count`` (every statement
    of the job goes through them; Django ORM statements are timed too), interleaved with a trivial
    statement's round trip on the same connection."""
    from django.db import connection

    from referee import scheduling
    from referee.store import sql as store_sql

    spent: list[float] = []
    real_run, real_count = store_sql.run, store_sql.count

    def timing(send: Any) -> Any:
        def timed(sql: str, params: Any = (), **options: Any) -> Any:
            t = time.perf_counter()
            try:
                return send(sql, params, **options)
            finally:
                spent.append(time.perf_counter() - t)

        return timed

    def orm(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        t = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            spent.append(time.perf_counter() - t)

    out: dict[str, Any] = {"job": [], "statements": [], "trivial": [], "count": 0}
    counts = Counter()
    store_sql.run, store_sql.count = timing(real_run), timing(real_count)
    try:
        with connection.execute_wrapper(orm):
            for game_id in game_ids:
                t = time.perf_counter()
                real_run("SELECT 1")
                out["trivial"].append(time.perf_counter() - t)
                spent.clear()
                t = time.perf_counter()
                result = scheduling.due_work_run(game_id=game_id, key="turn:0:deadline", kind="deadline")
                out["job"].append(time.perf_counter() - t)
                if not result.startswith("referee played"):
                    raise AssertionError(f"game {game_id}: {result}")
                out["statements"].append(sum(spent))
                counts[len(spent)] += 1
    finally:
        store_sql.run, store_sql.count = real_run, real_count
    out["count"] = counts.most_common(1)[0][0]
    return out


# --- the figures -------------------------------------------------------------------------------
