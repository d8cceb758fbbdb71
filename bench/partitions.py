"""The log partitioned by hash of game (16 partitions) against plain tables. Prints ratios;
asserts no timings (only that every game's deadline ran once on both layouts).

    scripts/with_servers.sh .venv/bin/python bench/partitions.py      (part of make bench)

Two databases on the same server, migrated alike but for ``REFEREE_LOG_PARTITIONS`` (0 and
16). Each round runs the same work on each, in its own process, the layouts taking turns
to go first: GAMES started Pig games, ORDERS Pig orders (a roll then a hold, through the
service) on each of a few of them, timed one by one (the median), then every game's
deadline running out at once, worked off by one in-process sweep (the storm's time). The
figures are partitioned / plain per round: min / median / max (goal ≤ 1.1).
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

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
GAMES = int(os.environ.get("BENCH_PARTITION_GAMES", "300"))  # games whose deadlines run out at once
ORDER_GAMES = 4  # games the orders are placed in
ORDERS = int(os.environ.get("BENCH_PARTITION_ORDERS", "60"))  # roll + hold pairs per game
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


def _measure(clock_file: Path) -> dict[str, Any]:
    """One layout's round, in this process (the database is DATABASE_URL's)."""
    import django

    django.setup()
    from referee import scheduling, services
    from referee.clock import set_fake_now
    from referee.models import Event
    from tests.factories import acting_seat, started_game

    set_fake_now(clock_file, T0)
    games = [started_game(settings={"target": 1000}) for _ in range(GAMES)]
    referee = services.referee_get()
    latencies = []
    for game, seats in games[:ORDER_GAMES]:
        for _ in range(ORDERS * 2):
            state, _ = referee.current(str(game.pk))
            seat = acting_seat(game, seats)
            started = time.perf_counter()
            services.command_handle(game_id=str(game.pk), user=seat.user,
                                    command_type="Hold" if state.turn_total >= 6 else "Roll", payload={})
            latencies.append(time.perf_counter() - started)
            services.game_run_pending(game_id=str(game.pk))
    expiry = T0 + dt.timedelta(hours=37)
    set_fake_now(clock_file, expiry)
    started = time.perf_counter()
    scheduling.sweep(now=expiry)
    storm = time.perf_counter() - started
    ids = [g.pk for g, _ in games]
    expired = Event.objects.filter(game_id__in=ids, type="DeadlineExpired").values("game_id").distinct().count()
    return {"order_ms": statistics.median(latencies) * 1000, "storm_s": storm, "expired": expired,
            "orders": len(latencies)}


def _round(url: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DATABASE_URL": url, "REFEREE_CLOCK_FILE": str(Path(tmp) / "clock"),
               "REFEREE_OUTAGE_SECONDS": str(10**9), "CELERY_TASK_ALWAYS_EAGER": "1"}
        out = subprocess.run([sys.executable, __file__, "measure"], env=env, check=True, cwd=ROOT,
                             capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def _spread(values: list[float]) -> str:
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


def main() -> None:
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("bench/partitions.py needs PostgreSQL: run it through scripts/with_servers.sh")
    print(f"migrating the two layouts, then {ROUNDS} rounds of {GAMES} games ...", file=sys.stderr, flush=True)
    names = _databases()
    order_ratios, storm_ratios = [], []
    figures: dict[int, list[dict[str, Any]]] = {0: [], PARTITIONS: []}
    for n in range(ROUNDS):
        layouts = [0, PARTITIONS] if n % 2 == 0 else [PARTITIONS, 0]
        got = {layout: _round(_database_url(names[layout])) for layout in layouts}
        for layout, figure in got.items():
            assert figure["expired"] == GAMES, (layout, figure)  # every game's deadline ran, once
            figures[layout].append(figure)
        order_ratios.append(got[PARTITIONS]["order_ms"] / got[0]["order_ms"])
        storm_ratios.append(got[PARTITIONS]["storm_s"] / got[0]["storm_s"])
        print(f"round {n + 1}: order {got[0]['order_ms']:.2f} ms plain, {got[PARTITIONS]['order_ms']:.2f} ms "
              f"partitioned; storm {got[0]['storm_s']:.2f} s plain, {got[PARTITIONS]['storm_s']:.2f} s partitioned",
              file=sys.stderr, flush=True)
    print(f"log partitioned by game ({PARTITIONS} partitions) / plain tables, min / median / max of "
          f"{ROUNDS} interleaved rounds (goal <= 1.1):")
    print(f"  order latency (p50 of {figures[0][0]['orders']} orders): {_spread(order_ratios)}")
    print(f"  {GAMES} deadlines running out at once, one sweep: {_spread(storm_ratios)}")
    from bench import results

    results.record("partitions.order_latency", order_ratios)
    results.record("partitions.deadline_storm", storm_ratios)
    import psycopg

    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as conn:
        for name in names.values():
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


if __name__ == "__main__":
    if sys.argv[1:] == ["measure"]:
        print(json.dumps(_measure(Path(os.environ["REFEREE_CLOCK_FILE"]))))
    else:
        main()
