"""The table of every figure the bench scripts of this run recorded
(bench/results.py): every row a ratio to its peer measured in the same run, min / median /
max over the rounds, beside the goal. Prints; asserts nothing."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import results  # noqa: E402
from bench.es_support import Table  # noqa: E402

ROWS = (
    # label, our figure, the peer's figure (or a note), the goal
    ("single append, raw autocommit INSERT time / store's", "append1.store", "append1.peer", ">= 0.6"),
    ("batch of 100, raw autocommit COPY time / store's", "append100.store_copy", "append100.peer_copy", ">= 0.8"),
    ("replay, raw read of its 4 columns + json.loads time / replay's", "replay.store", "replay.peer", ">= 0.5"),
    ("  Pig's fold alone, the same raw read / fold", "replay.fold", "-", ""),
    ("replay time, 100k events / 10k events", "replay.time_100k_10k", "replay.raw_time_100k_10k", "<= 11"),
    ("replay peak memory, 100k events less 1k events (MiB)", "replay.peak_mib_100k_less_1k", "-", "<= 16"),
    ("latest state, 10,000-event game / 10-event game", "latest.big_small", "latest.peer_big_small", "<= 1.2"),
    ("  the same, first read in a process (no cached position)", "latest.big_small_cold", "", "<= 1.5"),
    ("latest state of a 10-event game / eventsourcing get (cache on)", "latest.small_vs_peer", "1", "<= 1.0"),
    ("one order through the API (p50) / bare DRF POST", "order.api_vs_bare", "-", "<= 1.5"),
    ("SQL statements per order (walk; end turn), service", "statements.service", "statements.bare", "<= 8"),
    ("  Pig roll; hold, the whole API request, token included", "statements.api", "statements.bare", "<= 8"),
    ("order latency at turn 200 / at turn 10", "order.late_vs_early", "-", "<= 1.1"),
    ("order latency at 10,000 records / at 100, never analysed, one connection", "order.big_log_vs_small", "-",
     "<= 1.1"),
    ("10,000 deadlines expiring at once, 2 workers (s)", "deadlines.seconds_10k", "-", "<= 12"),
    ("  and the turn starts and notices they make due (s)", "deadlines.everything_10k", "-", ""),
    ("deadline job round trip / no-op task (medians)", "deadlines.job_vs_noop", "-", "<= 3"),
    ("  task by task, each job / the no-op before it", "deadlines.job_vs_noop_task_by_task", "-", "<= 3"),
    ("SQL statements per deadline job (expiry, turn start, notice)", "statements.deadline_job", "-", "<= 6"),
    ("1,000 active games: orders/s from one process", "active.orders_per_s", "-", ""),
    ("1,000 active games: deadline expiries/s meanwhile", "active.expiries_per_s", "-", ""),
    ("order p50, 500 streams + 100 long-polls on its game / none", "fanout.order_p50_ratio", "-", "<= 2"),
    ("deadlines/s, games with a webhook answering after 10 s / without", "notices.hooked_deadline_ratio", "-",
     "about 1"),
    ("order latency, log in 16 hash partitions of game / plain tables", "partitions.order_latency", "-", "<= 1.1"),
    ("deadline storm time, 16 partitions / plain tables", "partitions.deadline_storm", "-", "<= 1.1"),
)


def cell(data: dict, name: str) -> str:
    if name in ("", "-", "1"):
        return name
    if name not in data:
        return "(not run)"
    values = data[name]["values"]
    if name.startswith("statements."):
        return "; ".join(str(int(v)) for v in values) + (" (bare POST)" if name == "statements.bare" else "")
    if name.startswith(("deadlines.seconds", "deadlines.everything")):
        games = data[name].get("games")
        return results.spread(values, "{:.1f}") + (f" (from {games:,})" if games and games != 10_000 else "")
    if name.startswith("replay.peak_mib"):
        return results.spread(values, "{:.1f}")
    if name.startswith("active."):
        return results.spread(values, "{:,.0f}")
    return results.spread(values)


def main() -> None:
    data = results.load()
    if not data:
        sys.exit(f"no figures in {results.path()}: run `make bench`")
    t = Table()
    t.section("measured in this run (min / median / max of the rounds)", "referee", "peer or baseline", "goal")
    for label, ours, peer, goal in ROWS:
        t.row(label, cell(data, ours), cell(data, peer), goal)
    print()
    t.print()
    bad = data.get("exactly_once.bad", {}).get("values", [0])[0]
    print(f"\ngames without exactly one expiry after the storm: {int(bad)}")


if __name__ == "__main__":
    main()
