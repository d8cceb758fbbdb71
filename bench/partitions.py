"""The log partitioned by hash of game (16 partitions) against plain tables. Prints ratios;
asserts no timings (only that every game's deadline ran once on both layouts).

    scripts/with_servers.sh .venv/bin/python bench/partitions.py      (part of make bench)

Two databases on the same server, migrated alike but for ``REFEREE_LOG_PARTITIONS`` (0 and
16), each served by a process of its own; both get the same steps, one after the other,
taking turns to go first. A round: ORDER_STEPS steps of ORDERS roll-or-hold pairs on a new
Pig game (through the service, each order timed: the median), then GAMES new games whose
deadlines all run out at once, worked off by one in-process sweep (timed). The figures are
partitioned / plain per round: min / median / max (goal ≤ 1.1). bench/README.md.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-a-secret")

ROUNDS = max(3, int(os.environ.get("BENCH_ROUNDS", "5")))
GAMES = int(os.environ.get("BENCH_PARTITION_GAMES", "100"))  # games whose deadlines run out at once
ORDER_STEPS = int(os.environ.get("BENCH_PARTITION_STEPS", "4"))  # order steps a round, the sides taking turns
ORDERS = int(os.environ.get("BENCH_PARTITION_ORDERS", "15"))  # roll-or-hold pairs a step, on a new game
PARTITIONS = 16
T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


def _database_url(name: str) -> str:
    base = os.environ["DATABASE_URL"]
    return base.rsplit("/", 1)[0] + "/" + name


def _databases() -> dict[int, str]:
    """A fresh database per layout, migrated (the migrations read the partition count)."""
    import psycopg

    names = {0: "bench_log_plain", PARTITIONS: f"bench_log_p{PARTITIONS}"}
    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as conn:
        for name in names.values():
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
    for partitions, name in names.items():
        env = {**os.environ, "DATABASE_URL": _database_url(name), "REFEREE_LOG_PARTITIONS": str(partitions)}
        subprocess.run([sys.executable, str(ROOT / "manage.py"), "migrate", "-v0"], env=env, check=True, cwd=ROOT)
    return names


def _serve(clock_file: Path) -> None:
    """One layout's side, in this process (the database is DATABASE_URL's): each line read
    is a step ("orders N": N roll-or-hold pairs on a new game, each timed; "storm N": N new
    games whose deadlines then run out at once, one sweep timed), each answered with a line
    of JSON. The parent sends the two sides the same steps, one after the other."""
    answers, sys.stdout = sys.stdout, sys.stderr  # what the service prints is not an answer
    import django

    django.setup()
    from referee import scheduling, services
    from referee.clock import set_fake_now
    from referee.models import DueWork, Event
    from tests.factories import acting_seat, started_game

    now = T0
    referee = services.referee_get()
    cpu = _Cpu()
    for line in sys.stdin:
        step, size = line.split()
        set_fake_now(clock_file, now)
        if step == "orders":
            game, seats = started_game(settings={"target": 1000})
            latencies, used = [], 0.0
            for _ in range(int(size) * 2):
                state, _ = referee.current(str(game.pk))
                seat = acting_seat(game, seats)
                before = cpu.seconds()
                started = time.perf_counter()
                services.command_handle(game_id=str(game.pk), user=seat.user,
                                        command_type="Hold" if state.turn_total >= 6 else "Roll", payload={})
                latencies.append(time.perf_counter() - started)
                used += cpu.seconds() - before
                services.game_run_pending(game_id=str(game.pk))
            answer: dict[str, Any] = {"latencies": latencies, "cpu": used / len(latencies) if cpu.on else None}
        else:
            ids = [started_game()[0].pk for _ in range(int(size))]
            expiry = now + dt.timedelta(hours=37)
            set_fake_now(clock_file, expiry)
            before = cpu.seconds()
            started = time.perf_counter()
            scheduling.sweep(now=expiry)
            answer = {"seconds": time.perf_counter() - started,
                      "cpu": cpu.seconds() - before if cpu.on else None,
                      "expired": Event.objects.filter(game_id__in=ids, type="DeadlineExpired")
                      .values("game_id").distinct().count()}
            # Untimed: the next step starts from nothing due (not these games' next turns).
            DueWork.objects.filter(status=DueWork.Status.PENDING).update(status=DueWork.Status.CANCELLED)
            now = expiry + dt.timedelta(hours=1)
        print(json.dumps(answer), file=answers, flush=True)


class _Cpu:
    """The processor time this side has used, its own and its PostgreSQL backend's (from
    the backend's ``/proc/<pid>/schedstat``, in nanoseconds): less moved by other work on a
    shared machine than the wall clock. Off where the backend's file cannot be read (another
    machine, another user)."""

    def __init__(self) -> None:
        from django.db import connection

        with connection.cursor() as cur:
            cur.execute("SELECT pg_backend_pid()")
            self.path = Path(f"/proc/{cur.fetchone()[0]}/schedstat")
        try:
            self.path.read_text()
            self.on = True
        except OSError:
            self.on = False

    def seconds(self) -> float:
        server = int(self.path.read_text().split()[0]) / 1e9 if self.on else 0.0
        return time.process_time() + server


class _Side:
    def __init__(self, url: str, tmp: Path, partitions: int) -> None:
        # Each side's processes run with their layout's setting, as a deployment's do.
        env = {**os.environ, "DATABASE_URL": url, "REFEREE_CLOCK_FILE": str(tmp / "clock"),
               "REFEREE_LOG_PARTITIONS": str(partitions),
               "REFEREE_OUTAGE_SECONDS": str(10**9), "CELERY_TASK_ALWAYS_EAGER": "1"}
        self.process = subprocess.Popen([sys.executable, __file__, "serve"], env=env, cwd=ROOT, text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def step(self, line: str) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            sys.exit(f"the {line!r} step failed (its side's traceback is above)")
        return json.loads(answer)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _spread(values: list[float]) -> str:
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


def main() -> None:
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("bench/partitions.py needs PostgreSQL: run it through scripts/with_servers.sh")
    print(f"migrating the two layouts, then {ROUNDS} rounds ... (load average {_load()})",
          file=sys.stderr, flush=True)
    names = _databases()
    order_ratios, storm_ratios, cpu_ratios, storm_cpu_ratios = [], [], [], []
    with tempfile.TemporaryDirectory() as plain_tmp, tempfile.TemporaryDirectory() as part_tmp:
        sides = {0: _Side(_database_url(names[0]), Path(plain_tmp), 0),
                 PARTITIONS: _Side(_database_url(names[PARTITIONS]), Path(part_tmp), PARTITIONS)}
        for n in range(ROUNDS):
            latencies: dict[int, list[float]] = {0: [], PARTITIONS: []}
            cpus: dict[int, list[dict[str, Any]]] = {0: [], PARTITIONS: []}
            for k in range(ORDER_STEPS):  # the sides take turns, each going first as often
                for layout in ((0, PARTITIONS) if (n + k) % 2 == 0 else (PARTITIONS, 0)):
                    answer = sides[layout].step(f"orders {ORDERS}")
                    latencies[layout] += answer["latencies"]
                    cpus[layout].append(answer)
            storms = {}
            for layout in ((PARTITIONS, 0) if n % 2 == 0 else (0, PARTITIONS)):
                storms[layout] = sides[layout].step(f"storm {GAMES}")
                assert storms[layout]["expired"] == GAMES, (layout, storms[layout])  # each deadline ran once
            if all(step.get("cpu") is not None for step in cpus[0] + cpus[PARTITIONS]):
                per_order = {layout: statistics.mean(step["cpu"] for step in cpus[layout]) for layout in cpus}
                cpu_ratios.append(per_order[PARTITIONS] / per_order[0])
                storm_cpu_ratios.append(storms[PARTITIONS]["cpu"] / storms[0]["cpu"])
            p50 = {layout: statistics.median(values) * 1000 for layout, values in latencies.items()}
            order_ratios.append(p50[PARTITIONS] / p50[0])
            storm_ratios.append(storms[PARTITIONS]["seconds"] / storms[0]["seconds"])
            print(f"round {n + 1}: order p50 {p50[0]:.2f} ms plain, {p50[PARTITIONS]:.2f} ms partitioned; "
                  f"storm {storms[0]['seconds']:.2f} s plain, {storms[PARTITIONS]['seconds']:.2f} s partitioned "
                  f"(load average {_load()})",
                  file=sys.stderr, flush=True)
        for side in sides.values():
            side.close()
    print(f"log partitioned by game ({PARTITIONS} partitions) / plain tables, min / median / max of "
          f"{ROUNDS} interleaved rounds (goal <= 1.1; load average {_load()}):")
    print(f"  order latency (p50 of {ORDER_STEPS * ORDERS * 2} orders a round): {_spread(order_ratios)}")
    print(f"  {GAMES} deadlines running out at once, one sweep: {_spread(storm_ratios)}")
    if cpu_ratios:
        print(f"  processor time, the side's and its backend's: per order {_spread(cpu_ratios)}, "
              f"per storm {_spread(storm_cpu_ratios)}")
    from bench import results

    results.record("partitions.order_latency", order_ratios)
    results.record("partitions.deadline_storm", storm_ratios)
    import psycopg

    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as conn:
        for name in names.values():
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


if __name__ == "__main__":
    if sys.argv[1:] == ["serve"]:
        _serve(Path(os.environ["REFEREE_CLOCK_FILE"]))
    else:
        main()
