"""Orders through the API against a real PostgreSQL. Prints figures; asserts no timings.

    scripts/with_servers.sh .venv/bin/python bench/orders.py      (part of make bench)

1. one order through the API (p50) beside a bare DRF POST that writes one row, on the same
   in-process server (Django's test client: the same middleware, token authentication and
   transaction handling, no sockets), in ROUNDS interleaved rounds;
2. the same orders in a game at turn 200 beside a game at turn 10 (the log and the due-work
   history grow; an order must not slow down);
3. SQL statements per order, counted with CaptureQueriesContext: a Worms walk and end of
   turn through the service (what tests/integration/test_statement_counts.py asserts), and
   a Pig roll and hold through the whole API request, beside the bare POST.

See bench/README.md.
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import harness  # noqa: E402

harness.django_environment()

PAIRS = int(15 * harness.SCALE)  # roll + hold pairs timed per game and round
BARE = int(30 * harness.SCALE)  # bare POSTs per round
EARLY, LATE = 10, 200  # turns


def setup() -> None:
    harness.postgres_url("bench/orders.py")
    harness.start_django()


def main() -> None:
    setup()
    print(f"measuring {harness.ROUNDS} rounds ...", file=sys.stderr, flush=True)
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from bench import results
    from bench.bare import create_table
    from bench.event_store import Table
    from referee import services
    from referee.core import POSITIONS
    from referee.models import DueWork

    create_table()
    users, clients = harness.players(f"bench{os.getpid()}")

    def new_game(turns: int) -> tuple[str, dict[int, Client]]:
        gid, seats = harness.pig_game(users, clients)
        for _ in range(turns):
            seat = acting(gid)
            services.command_handle(game_id=gid, user=users[list(seats).index(seat)], command_type="Hold", payload={})
            services.game_run_pending(game_id=gid)
        return gid, seats

    def acting(gid: str) -> int:
        state, _ = services.referee_get().current(gid)
        return state.order[state.to_move]

    def order(gid: str, seats: dict[int, Client], kind: str, seat: int | None = None) -> tuple[float, int]:
        return harness.post_order(seats[acting(gid) if seat is None else seat], gid, kind)

    def play(gid: str, seats: dict[int, Client], pairs: int) -> list[float]:
        times = []
        for _ in range(pairs):
            times.append(order(gid, seats, "Roll")[0])
            services.game_run_pending(game_id=gid)  # a rolled 1 ends the turn: the next one starts
            times.append(order(gid, seats, "Hold")[0])
            services.game_run_pending(game_id=gid)
        return times

    def bare(n: int) -> list[float]:
        return harness.bare_posts(clients[0], n)

    late_gid, late_seats = new_game(LATE)
    history = DueWork.objects.filter(game_id=late_gid).exclude(status="pending").count()
    bare(10)  # warm-up
    play(late_gid, late_seats, 3)
    ratios: dict[str, list[float]] = {}
    p50: dict[str, list[float]] = {}
    for _ in range(harness.ROUNDS):
        early_gid, early_seats = new_game(EARLY)
        POSITIONS.clear()  # a web process that has not seen these games yet
        b = statistics.median(bare(BARE))
        e = statistics.median(play(early_gid, early_seats, PAIRS))
        late = statistics.median(play(late_gid, late_seats, PAIRS))
        ratios.setdefault("order.api_vs_bare", []).append(e / b)
        ratios.setdefault("order.late_vs_early", []).append(late / e)
        for k, v in (("bare", b), ("early", e), ("late", late)):
            p50.setdefault(k, []).append(v * 1000)

    # statements: the service (Worms walk, end of turn) and whole API requests (Pig)
    from django.db import transaction

    from tests.integration.test_statement_counts import _turn, _worms_game

    counts: dict[str, Any] = {}
    with transaction.atomic():  # the Worms game is made with the test factories; throw it away
        gid, seats = _worms_game()
        turns = [_turn(gid, seats) for _ in range(3)]
        counts["service"] = (max(w for w, _ in turns), max(e for _, e in turns))
        transaction.set_rollback(True)
    api: dict[str, int] = {}
    gid, seats = new_game(2)
    for kind in ("Roll", "Hold"):
        seat = acting(gid)
        with CaptureQueriesContext(connection) as q:
            order(gid, seats, kind, seat)
        api[kind] = len(q.captured_queries)
        services.game_run_pending(game_id=gid)
    with CaptureQueriesContext(connection) as q:
        bare(1)
    api["bare"] = len(q.captured_queries)

    spread = results.spread
    print(f"load average {os.getloadavg()[0]:.1f}; {harness.ROUNDS} interleaved rounds, min / median / max; "
          "token authentication, Django's test client (no sockets)")
    t = Table()
    t.section("1. one order through the API", "p50 ms (median)", "ratio")
    t.row("a bare DRF POST writing one row", f"{statistics.median(p50['bare']):.2f}", "1")
    t.row(f"Pig roll / hold at turn {EARLY} (POST /api/games/<id>/commands/)", f"{statistics.median(p50['early']):.2f}",
          spread(ratios["order.api_vs_bare"]))
    t.section("2. an order late in a game", "p50 ms (median)", "ratio")
    t.row(f"the same orders at turn {LATE}+ ({history} finished due-work rows behind)",
          f"{statistics.median(p50['late']):.2f}", spread(ratios["order.late_vs_early"]))
    t.section("3. SQL statements per order (CaptureQueriesContext)", "statements", "")
    t.row("Worms walk; end of turn, through services.command_handle (in a savepoint)",
          f"{counts['service'][0]}; {counts['service'][1]}", "")
    t.row("Pig roll; hold, the whole API request", f"{api['Roll']}; {api['Hold']}", "")
    t.row("the bare DRF POST", f"{api['bare']}", "")
    t.print()
    for name, values in ratios.items():
        results.record(name, values)
    results.record("statements.service", list(counts["service"]))
    results.record("statements.api", [api["Roll"], api["Hold"]])
    results.record("statements.bare", [api["bare"]])


if __name__ == "__main__":
    main()
