"""bench/event_store.py, part 2b: how a replay grows with the log. Replays of 1k, 10k and
100k-event Pig games: their time (100k / 10k, interleaved with the same raw read as part 2
at both sizes) and their peak Python memory (``tracemalloc``, above what was allocated
before the replay). Prints figures; asserts no timings."""

from __future__ import annotations

import gc
import statistics
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.es_support import Table, event_records, pig_events, raw_replay, timed

SIZES = (1_000, 10_000, 100_000)
#: Replays of the shorter games per round (their median is the round's figure); the 100k game
#: is replayed once a round, in the middle of them.
SHORT_REPEATS = 5
MIB = 1024 * 1024


@dataclass
class Scaling:
    ratios: dict[str, list[float]] = field(default_factory=dict)
    ms: dict[int, list[float]] = field(default_factory=dict)
    peak: dict[int, list[float]] = field(default_factory=dict)

    def add_to(self, t: Table) -> None:
        from bench.results import spread

        small, mid, big = SIZES
        t.section("2b. replay as the log grows", "", "")
        for n in SIZES:
            t.row(f"Referee.replay of {n:,} events: ms; peak Python MiB (tracemalloc)",
                  spread(self.ms[n], "{:.0f}"), spread(self.peak[n], "{:.1f}"))
        t.row(f"time {big:,} / {mid:,} events (linear: 10)", "", spread(self.ratios["replay.time_100k_10k"]))
        t.row(f"  raw fetch + json.loads, {big:,} / {mid:,} events", "",
              spread(self.ratios["replay.raw_time_100k_10k"]))
        t.row(f"peak memory, {big:,} events less {small:,} events (MiB)", "",
              spread(self.ratios["replay.peak_mib_100k_less_1k"], "{:.1f}"))


def _build(store: Any, rules: Any, new_game: Callable[[], str], n: int) -> str:
    from referee.core import utc_now

    gid = new_game()
    records = event_records(rules, pig_events(rules, n, seed=11))
    prev = None
    for i in range(0, n, 1_000):
        prev = store.append(gid, i + 1, records[i:i + 1_000], utc_now(), prev_hash=prev)[-1].hash
    return gid


def _peak(fn: Callable[[], Any]) -> float:
    """Peak Python memory while ``fn`` runs, above what was allocated when it started."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        fn()
        return (tracemalloc.get_traced_memory()[1] - base) / MIB
    finally:
        tracemalloc.stop()


def replay_scaling(referee: Any, store: Any, raw: Any, rules: Any, new_game: Callable[[], str],
                   rounds: int) -> Scaling:
    games = {n: _build(store, rules, new_game, n) for n in SIZES}
    for gid in games.values():
        referee.replay(gid)  # warm-up
    out = Scaling()
    _, mid, big = SIZES
    for _ in range(rounds):
        # A replay of 10k events lasts a few tens of milliseconds, so a single one is at the
        # mercy of whatever else the machine does in that instant: each round takes the median
        # of SHORT_REPEATS replays of each size below 100k, read around the 100k one, and the
        # raw reads get exactly the same treatment.
        samples: dict[Any, list[float]] = {}

        def sample(n: int, gid: str, samples: dict[Any, list[float]] = samples) -> None:
            samples.setdefault(n, []).append(timed(lambda: referee.replay(gid))[0])
            if n != SIZES[0]:
                samples.setdefault(("raw", n), []).append(timed(lambda: raw_replay(raw, gid))[0])

        for i in range(SHORT_REPEATS):
            for n, gid in games.items():
                if n != big or i == SHORT_REPEATS // 2:
                    sample(n, gid)
        times = {key: statistics.median(values) for key, values in samples.items()}
        for n in SIZES:
            out.ms.setdefault(n, []).append(times[n] * 1000)
        out.ratios.setdefault("replay.time_100k_10k", []).append(times[big] / times[mid])
        out.ratios.setdefault("replay.raw_time_100k_10k", []).append(times["raw", big] / times["raw", mid])
        for n, gid in games.items():
            out.peak.setdefault(n, []).append(_peak(lambda gid=gid: referee.replay(gid)))
        out.ratios.setdefault("replay.peak_mib_100k_less_1k", []).append(out.peak[big][-1] - out.peak[SIZES[0]][-1])
    return out
