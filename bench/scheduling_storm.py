"""Part 1 of the scheduling bench (bench/scheduling.py): every deadline of the storm due at
once, worked off by the workers' sweeps; the sweeper's claim explained; the exactly-once
count afterwards. See bench/README.md."""

from __future__ import annotations

import datetime as dt
import statistics
import time
from collections import Counter
from typing import Any

from bench.scheduling_setup import (
    PHASE_TIMEOUT,
    POLL,
    SWEEP,
    SWEEPS,
    queue_idle_of,
    set_now,
    wait_until,
)


def claim_plan(now: dt.datetime) -> tuple[float, int]:
    """EXPLAIN ANALYZE of the sweeper's claim (the query in ``scheduling.sweep``: a batch of
    games among those with the oldest due rows) with every deadline due, rolled back: its
    execution time (ms) and the due rows it reads to lock one batch."""
    import re

    from django.db import transaction

    from referee.models import DueWork, Game
    from referee.scheduling import sweep_batch

    batch = sweep_batch()
    candidates = (DueWork.objects.filter(status=DueWork.Status.PENDING, due_at__lte=now)
                  .order_by("due_at", "id").values("game_id")[:batch * 4])
    claim = Game.objects.select_for_update(no_key=True, skip_locked=True).filter(pk__in=candidates).order_by()[:batch]
    times, rows = [], 0
    for _ in range(5):
        with transaction.atomic():
            plan = claim.explain(analyze=True)
            transaction.set_rollback(True)
        times.append(float(re.search(r"Execution Time: ([\d.]+) ms", plan).group(1)))
        scanned = re.search(r"Scan .*actual time=[\d.]+\.\.[\d.]+ rows=(\d+)", plan)
        rows = int(scanned.group(1)) if scanned else -1
    return statistics.median(times), rows


def progress(now: dt.datetime) -> dict[str, int]:
    """Pending rows that are due, by kind (on the sweeper's own index, so polling stays cheap)."""
    from django.db.models import Count

    from referee.models import DueWork

    rows = (DueWork.objects.filter(status=DueWork.Status.PENDING, due_at__lte=now)
            .values_list("kind").annotate(n=Count("id")).order_by())
    counts = dict.fromkeys(DueWork.Kind.values, 0)
    counts.update(dict(rows))
    return counts


def storm(redis: Any, now: dt.datetime) -> dict[str, Any]:
    """Move the clock to ``now`` (every storm deadline is then due), enqueue SWEEPS sweeps and
    time how long until no deadline is left pending, and until nothing at all is due (the
    turn-1 starts and their notices, which the sweeps run under the same game lock)."""
    from config.celery import app

    set_now(now)
    out: dict[str, Any] = {}
    queued = redis.llen("celery")
    t0 = time.perf_counter()
    for _ in range(SWEEPS):
        app.send_task(SWEEP)
    end = t0 + PHASE_TIMEOUT
    while True:
        time.sleep(POLL)
        counts = progress(now)
        if counts["deadline"] == 0 and "deadlines" not in out:
            out["deadlines"] = time.perf_counter() - t0
        if not any(counts.values()):
            out["everything"] = time.perf_counter() - t0
            break
        if time.perf_counter() > end:
            raise TimeoutError(f"phase stuck at {counts} after {PHASE_TIMEOUT:.0f} s")
    out["queued"] = redis.llen("celery") - queued
    out["sweepers"] = [int(pid) for pid in redis.lrange("bench:sweeping", 0, -1)]
    wait_until(queue_idle_of(redis), "the sweeps to finish")
    return out

def exactly_once() -> Counter[tuple[int, int, int]]:
    """Per game: (DeadlineExpired notices, referee Hold orders, TurnStarted events)."""
    from django.db.models import Count, Q

    from referee.models import Game

    mine = Q(name__startswith="Service game") | Q(name__startswith="Bulk game")  # not the other scripts'
    rows = Game.objects.filter(mine).annotate(
        expired=Count("events", filter=Q(events__kind="notice", events__type="DeadlineExpired")),
        holds=Count("events", filter=Q(events__kind="command", events__type="Hold", events__actor_kind="referee")),
        started=Count("events", filter=Q(events__type="TurnStarted")),
    ).values_list("expired", "holds", "started")
    return Counter(rows)
