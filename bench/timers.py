"""Timer precision: how late does a round clock end? Real Celery workers on Redis, a real
PostgreSQL, the real clock. Prints lateness figures; asserts only correctness.

Each game of the tests-only ``countdown`` ruleset (tests/rulesets/countdown.py) is a
sequence of timed rounds; each round's end is ``Work(when="at")``. The referee hands it to
a worker with that ETA when the round starts (the database sweeper stays the safety net
and is not running here). The end's lateness is what the referee's own clock stamped on
the ``EndRound`` order minus the round's scheduled end: ``RoundEnded.late_ms`` in the log.

As a peer in the same run, one interleaved batch per round runs with the ETA path off
(``REFEREE_TIMER_HORIZON_SECONDS=0``) and a sweep every second from this process, the
best a sweeper alone can do: the figure the ETA path is measured against.

The games start one after another and their rounds differ by a few milliseconds, so the
timers end spread over several seconds, as a server's would, rather than all at once
(that would measure the workers' throughput, which bench/scheduling.py does).

    scripts/with_servers.sh .venv/bin/python bench/timers.py     (or: make bench-timers)
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-a-secret")
os.environ.setdefault("LOG_LEVEL", "WARNING")

GAMES = int(os.environ.get("BENCH_TIMER_GAMES", "50"))  # x ROUNDS timers per batch
ROUNDS = 2
ROUND_MS = int(os.environ.get("BENCH_TIMER_ROUND_MS", "3000"))
REPEATS = int(os.environ.get("BENCH_TIMER_REPEATS", "3"))
WORKERS = 2


def start_workers(env: dict[str, str], n: int, tag: str) -> list[subprocess.Popen[bytes]]:
    return [
        subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "--loglevel", "warning",
             "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"{tag}{i}@%h"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for i in range(n)
    ]


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()


def sweep_loop(stop_flag: list[bool]) -> None:
    """A sweeper every second (the peer's only way to end a timer)."""
    from django.db import connection

    from referee import scheduling

    while not stop_flag:
        scheduling.sweep()
        time.sleep(1.0)
    connection.close()


def batch(tag: str) -> list[str]:
    """GAMES countdown games, started a few ms apart (each start commits, then its nudge)."""
    from django.contrib.auth import get_user_model

    from referee import services

    users = get_user_model()
    ids = []
    for i in range(GAMES):
        game = services.game_create(name=f"{tag} {i}", ruleset="countdown", turn_limit_seconds=60,
                                    settings={"rounds": ROUNDS, "round_ms": ROUND_MS + 37 * i})
        user = users.objects.create(username=f"{tag}-{i}", email=f"{tag}-{i}@example.org")
        services.seat_add(game=game, user=user, name=f"Player {i}")
        services.game_start(game=game)
        ids.append(str(game.pk))
    return ids


def wait_done(ids: list[str], timeout: float) -> list[int]:
    from referee.models import Event, Game

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if Game.objects.filter(pk__in=ids, status="finished").count() == len(ids):
            break
        time.sleep(0.25)
    late = list(Event.objects.filter(game_id__in=ids, type="RoundEnded").values_list("payload", flat=True))
    return [p["late_ms"] for p in late]


def pct(values: list[int], p: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))])


def main() -> None:
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")) or not os.environ.get(
            "REDIS_URL"):
        sys.exit("bench/timers.py needs PostgreSQL and Redis: scripts/with_servers.sh .venv/bin/python bench/timers.py")
    os.environ.pop("REFEREE_CLOCK_FILE", None)
    os.environ["CELERY_BROKER_URL"] = os.environ["REDIS_URL"]
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "0"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)
    from config.celery import app
    from referee import services

    app.conf.task_always_eager = False
    env = {**os.environ, "CELERY_TASK_ALWAYS_EAGER": "0"}
    rows: dict[str, list[dict[str, Any]]] = {"eta": [], "sweeper": []}
    total = {"eta": 0, "sweeper": 0}
    for r in range(REPEATS):
        for mode in ("eta", "sweeper"):
            mode_env = dict(env)
            from django.conf import settings

            stop_flag: list[bool] = []
            sweeper = None
            if mode == "sweeper":
                mode_env["REFEREE_TIMER_HORIZON_SECONDS"] = "0"
                settings.REFEREE_TIMER_HORIZON_SECONDS = 0
                sweeper = threading.Thread(target=sweep_loop, args=(stop_flag,), daemon=True)
            else:
                settings.REFEREE_TIMER_HORIZON_SECONDS = 900
            workers = start_workers(mode_env, WORKERS, f"{mode}{r}-")
            time.sleep(3)  # workers up
            if sweeper is not None:
                sweeper.start()
            try:
                ids = batch(f"{mode}{r}")
                late = wait_done(ids, timeout=180)
            finally:
                stop_flag.append(True)
                stop(workers)
                if sweeper is not None:
                    sweeper.join(timeout=30)
            assert len(late) == GAMES * ROUNDS, f"{mode}: {len(late)} of {GAMES * ROUNDS} timers ended"
            bad = [g for g in ids[:5] if not services.referee_get().verify(g).ok]
            assert not bad, f"verify failed for {bad}"
            total[mode] += len(late)
            rows[mode].append({"p50": statistics.median(late), "p99": pct(late, 99), "max": max(late)})
            print(f"round {r + 1} {mode:8}: {len(late)} timers, lateness p50 {rows[mode][-1]['p50']:.0f} ms, "
                  f"p99 {rows[mode][-1]['p99']:.0f} ms, max {rows[mode][-1]['max']:.0f} ms", file=sys.stderr)
    print(f"\nTimer lateness: {REPEATS} interleaved rounds of {GAMES * ROUNDS} timers "
          f"({GAMES} games x {ROUNDS} rounds of {ROUND_MS} ms), {WORKERS} workers, load {os.getloadavg()[0]:.1f}")
    print(f"{'path':32} {'p50 ms (min/med/max)':>24} {'p99 ms (min/med/max)':>24}")
    for mode, label in (("eta", "ETA to the worker (the referee)"), ("sweeper", "sweeper only, every 1 s (peer)")):
        p50 = [x["p50"] for x in rows[mode]]
        p99 = [x["p99"] for x in rows[mode]]
        print(f"{label:32} {min(p50):7.0f}/{statistics.median(p50):6.0f}/{max(p50):6.0f}"
              f"      {min(p99):7.0f}/{statistics.median(p99):6.0f}/{max(p99):6.0f}")
    ratio = [e["p99"] / max(s["p99"], 1) for e, s in zip(rows["eta"], rows["sweeper"], strict=True)]
    print(f"p99 ratio ETA / sweeper: {min(ratio):.4f}/{statistics.median(ratio):.4f}/{max(ratio):.4f}")
    print(f"all {total['eta'] + total['sweeper']} timers ended exactly once; every sampled log verified")


if __name__ == "__main__":
    main()
