"""Nudges on a real Redis broker: each arrives as the Celery task a worker runs (its name,
arguments and ETA), all of a process's nudges go through one producer on one connection,
and a process whose broker setting changes (or a forked child) sends through a new one."""

from __future__ import annotations

import datetime as dt
import os

import pytest
from kombu import Queue

from config.celery import app
from referee import nudges
from referee.due_sync import RUN_DUE_WORK

pytestmark = [pytest.mark.redis]


def _database(number: int) -> str:
    """A Redis database of the tests' server that no worker of another test reads."""
    return os.environ["REDIS_URL"].rsplit("/", 1)[0] + f"/{number}"


@pytest.fixture
def broker(monkeypatch):
    saved = (app.conf.task_always_eager, app.conf.broker_url)
    app.conf.task_always_eager = False
    monkeypatch.setattr(nudges, "_sender", None)
    for number in (13, 14):
        _drain(_database(number))
    try:
        yield
    finally:
        if nudges._sender is not None:
            nudges._sender.close()
        app.conf.task_always_eager, app.conf.broker_url = saved


def _drain(url: str) -> list[tuple[str, list[object], str | None]]:
    """The task messages waiting in the default queue: each one's task, arguments and ETA."""
    got = []
    with app.connection_for_read(url) as conn:
        queue = Queue(app.conf.task_default_queue).bind(conn.default_channel)
        while (message := queue.get(no_ack=True)) is not None:
            args, kwargs, _ = message.decode()
            assert kwargs == {}
            got.append((message.headers["task"], args, message.headers["eta"]))
    return got


def test_nudges_arrive_as_celery_tasks_through_one_producer(broker):
    app.conf.broker_url = _database(13)
    eta = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
    nudges._deliver([(RUN_DUE_WORK, ("g1", "turn:1:start", "now"), None),
                     (RUN_DUE_WORK, ("g2", "turn:1:deadline", "deadline"), eta)])
    sender = nudges._sender
    nudges._deliver([(RUN_DUE_WORK, ("g3", "turn:2:start", "now"), None)])
    assert nudges._sender is sender
    assert _drain(_database(13)) == [
        (RUN_DUE_WORK, ["g1", "turn:1:start", "now"], None),
        (RUN_DUE_WORK, ["g2", "turn:1:deadline", "deadline"], eta.isoformat()),
        (RUN_DUE_WORK, ["g3", "turn:2:start", "now"], None),
    ]


def test_after_the_broker_setting_changes_the_next_nudge_goes_to_the_new_broker(broker):
    app.conf.broker_url = _database(13)
    nudges._deliver([(RUN_DUE_WORK, ("g1", "turn:1:start", "now"), None)])
    app.conf.broker_url = _database(14)
    nudges._deliver([(RUN_DUE_WORK, ("g2", "turn:1:start", "now"), None)])
    assert _drain(_database(13)) == [(RUN_DUE_WORK, ["g1", "turn:1:start", "now"], None)]
    assert _drain(_database(14)) == [(RUN_DUE_WORK, ["g2", "turn:1:start", "now"], None)]


def test_a_forked_child_sends_through_a_producer_of_its_own_and_the_parent_sends_on_through_its(broker):
    app.conf.broker_url = _database(13)
    nudges._deliver([(RUN_DUE_WORK, ("parent", "turn:1:start", "now"), None)])
    parents = nudges._sender
    pid = os.fork()
    if pid == 0:  # the child: a worker process forked after its parent had sent
        try:
            nudges._deliver([(RUN_DUE_WORK, ("child", "turn:1:start", "now"), None)])
            os._exit(0 if nudges._sender is not parents and nudges._sender.pid == os.getpid() else 1)
        finally:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    nudges._deliver([(RUN_DUE_WORK, ("parent", "turn:2:start", "now"), None)])
    assert nudges._sender is parents
    assert _drain(_database(13)) == [
        (RUN_DUE_WORK, ["parent", "turn:1:start", "now"], None),
        (RUN_DUE_WORK, ["child", "turn:1:start", "now"], None),
        (RUN_DUE_WORK, ["parent", "turn:2:start", "now"], None),
    ]


def test_a_nudge_after_the_broker_dropped_the_connection_still_arrives(broker):
    import redis

    app.conf.broker_url = _database(13)
    nudges._deliver([(RUN_DUE_WORK, ("g1", "turn:1:start", "now"), None)])
    redis.Redis.from_url(_database(13)).client_kill_filter(_type="normal", skipme=True)
    nudges._deliver([(RUN_DUE_WORK, ("g2", "turn:1:start", "now"), None)])
    assert _drain(_database(13)) == [
        (RUN_DUE_WORK, ["g1", "turn:1:start", "now"], None),
        (RUN_DUE_WORK, ["g2", "turn:1:start", "now"], None),
    ]
