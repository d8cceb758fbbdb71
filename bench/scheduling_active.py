"""Part 3 of the scheduling bench (bench/scheduling.py): active games, orders placed in this
process while the workers sweep a stream of expiring deadlines. See bench/README.md."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Sequence
from typing import Any

from bench.scheduling_setup import ACTIVE, ACTIVE_SECONDS, SWEEP, wait_until


def active_games(redis: Any, game_ids: Sequence[str], now: dt.datetime) -> dict[str, Any]:
    """Part 3: ACTIVE games after the storm (each at turn 1, its turn started; the clock stays
    at ``now``, so no turn-1 deadline is due unless this part makes it due). Half get
    orders from this process, as from a web process: the acting seat's Hold through
    ``services.command_handle``, round-robin (a worker starts the next turn after the
    nudge). In the other half, deadlines run out in a steady stream: every 0.1 s a slice of
    their deadline rows is made due, and a sweep is sent every 0.5 s (the beat's job)."""
    from django.contrib.auth import get_user_model

    from config.celery import app
    from referee import services
    from referee.models import DueWork, Seat

    ordered, expiring = list(game_ids[:ACTIVE // 2]), list(game_ids[ACTIVE // 2:ACTIVE])
    users = {(str(s.game_id), s.number): s.user_id for s in Seat.objects.filter(game_id__in=ordered)}
    user_of = {u.pk: u for u in get_user_model().objects.filter(pk__in=set(users.values()))}
    referee = services.referee_get()
    rows = list(DueWork.objects.filter(game_id__in=expiring, kind="deadline", status="pending").values_list("id", flat=True))
    per_tick = max(1, round(len(rows) / (ACTIVE_SECONDS * 10)))
    latencies: list[float] = []
    skipped = 0
    t0 = time.perf_counter()
    next_tick, next_sweep, i = t0, t0, 0
    while time.perf_counter() - t0 < ACTIVE_SECONDS:
        clock = time.perf_counter()
        if clock >= next_tick and rows:
            due, rows = rows[:per_tick], rows[per_tick:]
            DueWork.objects.filter(pk__in=due).update(due_at=now)
            next_tick += 0.1
        if clock >= next_sweep:
            app.send_task(SWEEP)
            next_sweep += 0.5
        gid = ordered[i % len(ordered)]
        i += 1
        state, _ = referee.current(gid)
        if not state.turn_started:
            skipped += 1  # its next turn has not started yet (the worker's job is queued)
            continue
        user = user_of[users[(gid, state.order[state.to_move])]]
        t = time.perf_counter()
        services.command_handle(game_id=gid, user=user, command_type="Hold", payload={})
        latencies.append(time.perf_counter() - t)
    elapsed = time.perf_counter() - t0
    last_sweep = [time.perf_counter()]

    def drained() -> bool:
        # Beat goes on sweeping after the stream stops: rows made due after the last sweep
        # of the loop are the next sweep's.
        if time.perf_counter() - last_sweep[0] >= 0.5:
            app.send_task(SWEEP)
            last_sweep[0] = time.perf_counter()
        return not DueWork.objects.filter(game_id__in=expiring, kind="deadline", status="pending",
                                          due_at__lte=now).exists()

    wait_until(drained, "the streamed deadlines")
    expired = DueWork.objects.filter(game_id__in=expiring, kind="deadline", status="done",
                                     result__startswith="referee played").exclude(key="turn:0:deadline").count()
    return {"seconds": elapsed, "orders": len(latencies), "latencies": latencies, "skipped": skipped,
            "expired": expired, "drain": time.perf_counter() - t0}
