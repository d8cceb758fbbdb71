"""An order beside a bare DRF POST, request by request: wall time and the process's CPU.
Prints figures; asserts no timings. Not part of ``make bench`` (bench/README.md, section 2).

    scripts/with_servers.sh .venv/bin/python bench/orders_cpu.py

An order (a Pig roll or hold, alternately, through the API), a bare POST, the next order ...:
``BENCH_REQUESTS`` of each (default 500) after 80 of each to warm up. Wall time is the
request's own. CPU is ``time.process_time`` (every thread of the process, which the load
hardly moves) from the request's start until the process's outboxes are empty: the nudges
and live notices an order hands to their threads are paid for by the process that answers
orders, so they count, on the side that sent them. Each game's turn start (run by a worker in
production) is run here between the pairs, outside both measures. Also printed: the CPU the
nudges' thread spends per nudge and the live notices' thread per notice (``time.thread_time``
around each delivery).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import harness  # noqa: E402

harness.django_environment()

REQUESTS = int(os.environ.get("BENCH_REQUESTS", "500"))
WARM_UP = 80


def main() -> None:
    harness.postgres_url("bench/orders_cpu.py")
    harness.start_django()
    from bench.bare import create_table
    from referee import live, nudges, services

    create_table()
    users, clients = harness.players(f"cpu{os.getpid()}")
    gid, seats = harness.pig_game(users, clients)
    spent = [0.0, 0]  # the nudges' thread: CPU seconds, nudges delivered
    published = [0.0, 0]  # the live notices' thread: likewise

    def timed(deliver: Any, into: list[Any]) -> Any:
        def delivered(batch: list[Any]) -> None:
            started = time.thread_time()
            deliver(batch)
            into[0] += time.thread_time() - started
            into[1] += len(batch)
        return delivered

    nudges._outbox.deliver = timed(nudges._outbox.deliver, spent)
    live._outbox.deliver = timed(live._outbox.deliver, published)

    def drained() -> None:
        nudges.wait_sent()
        live._outbox.wait_empty()

    def acting() -> int:
        state, _ = services.referee_get().current(gid)
        return state.order[state.to_move]

    rows: dict[str, list[tuple[float, float]]] = {"order": [], "bare": []}
    for i in range(WARM_UP + REQUESTS):
        if i == WARM_UP:
            spent[:], published[:] = [0.0, 0], [0.0, 0]
        client = seats[acting()]
        drained()
        cpu, wall = time.process_time(), time.perf_counter()
        response = client.post(f"/api/games/{gid}/commands/", {"type": ("Roll", "Hold")[i % 2], "payload": {}},
                               content_type="application/json")
        wall = time.perf_counter() - wall
        drained()
        cpu = time.process_time() - cpu
        assert response.status_code == 201, response.content
        if i >= WARM_UP:
            rows["order"].append((wall, cpu))
        before = spent[:], published[:]
        services.game_run_pending(game_id=gid)  # a worker's part, outside the figures
        drained()
        spent[:], published[:] = before
        cpu, wall = time.process_time(), time.perf_counter()
        response = clients[0].post("/bench/bare/", {"n": i}, content_type="application/json")
        wall = time.perf_counter() - wall
        drained()
        cpu = time.process_time() - cpu
        assert response.status_code == 201
        if i >= WARM_UP:
            rows["bare"].append((wall, cpu))

    def p50(side: str) -> float:
        return statistics.median(w for w, _ in rows[side]) * 1000

    def mean_cpu(side: str) -> float:
        return statistics.fmean(c for _, c in rows[side]) * 1000

    load = os.getloadavg()
    print(f"load average {load[0]:.2f} (5 min {load[1]:.2f}); {REQUESTS} of each, request by request")
    print(f"wall p50: order {p50('order'):.2f} ms, bare POST {p50('bare'):.2f} ms, ratio {p50('order') / p50('bare'):.2f}")
    print(f"CPU mean: order {mean_cpu('order'):.2f} ms, bare POST {mean_cpu('bare'):.2f} ms, "
          f"ratio {mean_cpu('order') / mean_cpu('bare'):.2f}")
    for what, (cpu, n) in (("nudges", spent), ("live notices", published)):
        if n:
            print(f"{what}: {n} for {REQUESTS} orders, {cpu / n * 1000:.2f} ms of CPU each")


if __name__ == "__main__":
    main()
