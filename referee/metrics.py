"""What an operator watches, as Prometheus metrics: orders, due work and how late it ran,
jobs retried, live readers, verification, notice deliveries.

Every process that serves or works (several web workers, Celery's worker processes) writes
its numbers to files of its own in one directory (``PROMETHEUS_MULTIPROC_DIR``: ``var/metrics``
under the embedded default, a volume the web and worker containers share in production), and
the web endpoint (``referee.metrics_endpoint``) adds them up at each scrape. Files are named
by host and process id, so containers (each with its own pid 1, 7 ...) never share one.

The hooks below are the only way the rest of the code touches a metric: each is one call
that costs a few microseconds and never raises into the path it measures.
"""

from __future__ import annotations

import bisect
import contextlib
import datetime as dt
import glob
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from prometheus_client import Counter, Gauge, Histogram, values


def directory() -> Path:
    """Where every process writes its numbers (the settings export it to the environment,
    where prometheus_client looks for it)."""
    found = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not found:
        from django.conf import settings

        found = str(settings.PROMETHEUS_MULTIPROC_DIR)
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = found
    path = Path(found)
    path.mkdir(parents=True, exist_ok=True)
    return path


_HOST = socket.gethostname().replace("_", "-") or "host"


def process_identity(pid: int | None = None) -> str:
    """This process's part of the file names: host and pid (``_`` separates the parts of a
    name, so it must not occur in them)."""
    return f"{_HOST}-{os.getpid() if pid is None else pid}"


def forget_process(pid: int) -> None:
    """A process has stopped: its readers no longer count (counters and histograms stay,
    as what it did still happened)."""
    for path in glob.glob(str(directory() / f"gauge_live*_{process_identity(pid)}.db")):
        os.remove(path)


def forget_host() -> None:
    """This host is starting afresh (a container restarted): live gauges left by its old
    processes are stale."""
    for path in glob.glob(str(directory() / f"gauge_live*_{_HOST}-*.db")):
        os.remove(path)


directory()
# Chosen before any metric exists: the values live in this process's files of the directory.
values.ValueClass = values.MultiProcessValue(process_identifier=process_identity)

# --- orders ------------------------------------------------------------------------------------

ORDERS_ACCEPTED = Counter("referee_orders_accepted", "Orders accepted, by ruleset", ["ruleset"])
ORDERS_REFUSED = Counter("referee_orders_refused", "Orders refused by the rules, by ruleset and the clause "
                         "that refused them", ["ruleset", "rule"])
ORDER_SECONDS = Histogram("referee_order_seconds", "Time to place one order (accepted or refused), by ruleset",
                          ["ruleset"], buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))

# --- due work ----------------------------------------------------------------------------------

DUE_WORK_RAN = Counter("referee_due_work_ran", "Due work run, by kind (deadline, at, now, notify, remind) "
                       "and outcome (done, refused)", ["kind", "outcome"])
DUE_WORK_LATENESS = Histogram(
    "referee_due_work_lateness_seconds", "How long after it was due each piece of due work ran, by kind",
    ["kind"], buckets=(0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600, 6 * 3600, 24 * 3600))
JOBS_RETRIED = Counter("referee_jobs_retried", "Jobs run again: a task retried or redelivered, a game's due "
                       "work left to the next sweep after a failure", ["job", "reason"])
JOBS_FAILED = Counter("referee_jobs_failed", "Celery tasks that raised", ["job"])

# --- live readers, audit, notices --------------------------------------------------------------

LIVE_READERS = Gauge("referee_live_readers", "Readers waiting now: event streams and long-polls",
                     ["kind"], multiprocess_mode="livesum")
VERIFICATION_FAILURES = Counter("referee_verification_failures", "Problems verification found in a game's log, "
                                "by check (chain, hash, sequence, readjudication, snapshot)", ["check"])
GAMES_FROZEN = Counter("referee_games_frozen", "Games frozen because verification failed")
NOTICE_DELIVERIES_FAILED = Counter("referee_notice_deliveries_failed",
                                   "Notices (webhooks, e-mail ...) that could not be delivered, by channel",
                                   ["channel"])

STREAM = "stream"
LONG_POLL = "longpoll"


def order_placed(*, ruleset: str, started: float, refused_by: str | None = None, replayed: bool = False) -> None:
    """An order was answered: accepted (a retried key's answer is not a second order) or
    refused by the clause ``refused_by``; ``started`` is its ``time.perf_counter()``."""
    ORDER_SECONDS.labels(ruleset).observe(time.perf_counter() - started)
    if refused_by is not None:
        ORDERS_REFUSED.labels(ruleset, refused_by[:80]).inc()
    elif not replayed:
        ORDERS_ACCEPTED.labels(ruleset).inc()


def due_work_ran(*, kind: str, due_at: dt.datetime | None, now: dt.datetime, result: str) -> None:
    """A due row ran at ``now`` (the referee's clock, injected in tests) with ``result``."""
    _ran_child(kind, _outcome(result)).inc()
    if due_at is not None:
        _lateness_child(kind).observe(max(0.0, (now - due_at).total_seconds()))


class DueWorkTally:
    """Due work run in a sweep's batch, recorded when the batch commits: each update of a
    metric takes its lock and writes its file, three a row, and a batch's rows are mostly
    alike (the same kinds, outcomes and buckets). A batch rolled back records nothing: the
    game-by-game run that follows records what it runs."""

    def __init__(self) -> None:
        self._ran: dict[tuple[str, str], int] = {}
        self._late: dict[str, list[float]] = {}

    def add(self, *, kind: str, due_at: dt.datetime | None, now: dt.datetime, result: str) -> None:
        """As ``due_work_ran``, recorded by ``record``."""
        key = (kind, _outcome(result))
        self._ran[key] = self._ran.get(key, 0) + 1
        if due_at is not None:
            self._late.setdefault(kind, []).append(max(0.0, (now - due_at).total_seconds()))

    def record(self) -> None:
        ran, late, self._ran, self._late = self._ran, self._late, {}, {}
        for (kind, outcome), count in ran.items():
            _ran_child(kind, outcome).inc(count)
        for kind, amounts in late.items():
            _observe_all(_lateness_child(kind), amounts)


def _outcome(result: str) -> str:
    return "refused" if result.startswith("refused") else "done"


# The labelled children of the due-work metrics, kept rather than looked up under the
# metric's lock for every row (a child's value notices a fork by itself).
_RAN: dict[tuple[str, str], Any] = {}
_LATENESS: dict[str, Any] = {}


def _ran_child(kind: str, outcome: str) -> Any:
    child = _RAN.get((kind, outcome))
    if child is None:
        child = _RAN[(kind, outcome)] = DUE_WORK_RAN.labels(kind, outcome)
    return child


def _lateness_child(kind: str) -> Any:
    child = _LATENESS.get(kind)
    if child is None:
        child = _LATENESS[kind] = DUE_WORK_LATENESS.labels(kind)
    return child


def _observe_all(histogram: Any, amounts: list[float]) -> None:
    """``observe`` of each amount, with one update of the sum and one of each bucket hit:
    a histogram's child counts an amount in the first bucket whose bound is not below it
    (the last bound is infinite). A child without those parts observes one by one."""
    bounds = getattr(histogram, "_upper_bounds", None)
    buckets = getattr(histogram, "_buckets", None)
    total = getattr(histogram, "_sum", None)
    if bounds is None or buckets is None or total is None or len(bounds) != len(buckets):
        for amount in amounts:
            histogram.observe(amount)
        return
    hits = [0] * len(bounds)
    for amount in amounts:
        hits[bisect.bisect_left(bounds, amount)] += 1
    total.inc(sum(amounts))
    for bucket, count in zip(buckets, hits, strict=True):
        if count:
            bucket.inc(count)


def job_retried(job: str, reason: str) -> None:
    JOBS_RETRIED.labels(job, reason).inc()


def reader_opened(kind: str) -> None:
    """A reader (``STREAM`` or ``LONG_POLL``) starts waiting; ``reader_closed`` when it stops."""
    LIVE_READERS.labels(kind).inc()


def reader_closed(kind: str) -> None:
    LIVE_READERS.labels(kind).dec()


@contextlib.contextmanager
def reading(kind: str) -> Iterator[None]:
    """Counts a waiting reader in for as long as the block runs."""
    reader_opened(kind)
    try:
        yield
    finally:
        reader_closed(kind)


def verified(*, checks: list[str], froze: bool) -> None:
    """A game was verified: ``checks`` the problems found (one entry per problem)."""
    for check in checks:
        VERIFICATION_FAILURES.labels(check).inc()
    if froze:
        GAMES_FROZEN.inc()


def notice_delivery_failed(channel: str) -> None:
    """A notice could not be delivered on ``channel`` (``webhook``, ``email`` ...)."""
    NOTICE_DELIVERIES_FAILED.labels(channel).inc()


# --- Celery (connected in config/celery.py) -------------------------------------------------------


def task_started(task: object) -> None:
    info = getattr(getattr(task, "request", None), "delivery_info", None) or {}
    if info.get("redelivered"):  # acks_late: a worker died holding it, and it runs again
        job_retried(getattr(task, "name", "task"), "redelivered")


def task_failed(task: object) -> None:
    JOBS_FAILED.labels(getattr(task, "name", str(task))).inc()
