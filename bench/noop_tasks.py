"""Loaded into the scheduling benchmark's Celery workers with ``-I bench.noop_tasks``.

* ``bench.noop``: a task that does nothing, registered on the referee's own app, so it
  travels the same broker, queue, serializer and worker loop as ``referee.run_due_work``.
* Signal hooks that report to Redis (the broker's database, under ``bench:*`` keys):
  when a worker is ready, when a task whose id starts with ``bench-`` finishes (with its
  run time inside the worker), which worker starts each ``sweep_due_work`` and what it did
  if it returns, and any task failure.
  The referee's own nudges (ids that are not ``bench-``) cost one string test here.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from celery.signals import task_failure, task_postrun, task_prerun, worker_ready

from config.celery import app

READY_KEY = "bench:ready"  # a worker's pid, once it consumes
DONE_KEY = "bench:done"  # {"id", "seconds"} per finished bench-* task
SWEEPING_KEY = "bench:sweeping"  # the pid of the worker, each time a sweep_due_work starts
SWEEPS_KEY = "bench:sweeps"  # {"pid", "ran", "seconds"} per sweep_due_work that returns
FAILURES_KEY = "bench:failures"  # "task: exception" per failed task
SWEEP_TASK = "referee.sweep_due_work"
PREFIX = "bench-"

_started: dict[str, float] = {}
_client: Any = None


def _redis() -> Any:
    global _client
    if _client is None:
        import redis

        _client = redis.Redis.from_url(os.environ["CELERY_BROKER_URL"])
    return _client


@app.task(name="bench.noop")
def noop() -> None:
    return None


@worker_ready.connect
def _ready(**_: Any) -> None:
    _redis().rpush(READY_KEY, os.getpid())


@task_prerun.connect
def _prerun(task_id: str = "", task: Any = None, **_: Any) -> None:
    if task.name == SWEEP_TASK:
        _redis().rpush(SWEEPING_KEY, os.getpid())
    if task_id.startswith(PREFIX) or task.name == SWEEP_TASK:
        _started[task_id] = time.perf_counter()


@task_postrun.connect
def _postrun(task_id: str = "", task: Any = None, retval: Any = None, **_: Any) -> None:
    started = _started.pop(task_id, None)
    if started is None:
        return
    seconds = time.perf_counter() - started
    if task.name == SWEEP_TASK:
        ran = retval if isinstance(retval, int) else repr(retval)
        _redis().rpush(SWEEPS_KEY, json.dumps({"pid": os.getpid(), "ran": ran, "seconds": seconds}))
    else:
        _redis().rpush(DONE_KEY, json.dumps({"id": task_id, "seconds": seconds}))


@task_failure.connect
def _failure(sender: Any = None, task_id: str = "", exception: BaseException | None = None, **_: Any) -> None:
    name = getattr(sender, "name", "?")
    _redis().rpush(FAILURES_KEY, f"{name}[{task_id}]: {type(exception).__name__}: {exception}"[:500])
