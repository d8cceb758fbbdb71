"""Timers to the second: a round clock (``Work(when="at")``) is handed to a real worker
with its ETA when it is set, so it ends on time without waiting for a sweep; the sweeper
stays the safety net. Lateness itself is measured by ``bench/timers.py`` (no timings
are asserted here)."""

from __future__ import annotations

import pytest

from config.celery import app
from referee import services
from referee.models import DueWork, Event, Game
from tests.factories import GameFactory, SeatFactory
from tests.integration.test_celery_worker import Worker, _reset_producer_pool, wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture
def real_time_worker(committed, monkeypatch):
    """A worker and this process on the real clock, tasks through Redis, no sweeper."""
    import os

    monkeypatch.delenv("REFEREE_CLOCK_FILE", raising=False)
    saved = (app.conf.task_always_eager, app.conf.broker_url)
    app.conf.task_always_eager, app.conf.broker_url = False, os.environ["REDIS_URL"]
    _reset_producer_pool()
    worker = Worker(os.environ["REDIS_URL"], None)
    try:
        yield worker
    finally:
        worker.stop()
        app.conf.task_always_eager, app.conf.broker_url = saved
        _reset_producer_pool()


@pytest.mark.django_db
def test_a_round_timer_is_a_pending_at_row_due_when_the_round_ends():
    """(Also makes pytest-django create the test database for the committed tests here.)"""
    from referee import scheduling

    game = GameFactory(ruleset="countdown", settings={"rounds": 1, "round_ms": 5000}, turn_limit_seconds=60)
    SeatFactory(game=game)
    services.game_start(game=game)
    services.game_run_pending(game_id=str(game.pk))  # on_commit does not fire inside the test's transaction
    row = DueWork.objects.get(game=game, kind=DueWork.Kind.AT)
    ends = Event.objects.get(game=game, type="RoundStarted").payload["ends_at_ms"]
    assert (row.key, row.status) == ("round:1:end", "pending")
    assert int(row.due_at.timestamp() * 1000) == ends
    assert scheduling.timer_horizon().total_seconds() >= 5


def test_a_round_clock_ends_through_its_eta_without_a_sweep(real_time_worker):
    game = GameFactory(ruleset="countdown", settings={"rounds": 2, "round_ms": 1500}, turn_limit_seconds=60)
    SeatFactory(game=game)
    services.game_start(game=game)
    ended = Event.objects.filter(game=game, type="RoundEnded")
    wait_for(lambda: ended.count() == 2, timeout=60)
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    ends = DueWork.objects.filter(game=game, kind=DueWork.Kind.AT).order_by("key")
    assert [(r.key, r.status, r.result) for r in ends] == [
        ("round:1:end", "done", "ran"), ("round:2:end", "done", "ran")]
    # each end was stamped by the referee's clock at or after its time, never before
    assert not [e.payload["late_ms"] for e in ended if e.payload["late_ms"] < 0]
    assert services.referee_get().verify(str(game.pk)).ok


def test_a_timer_the_broker_never_delivered_is_ended_by_the_sweeper(committed, monkeypatch):
    import datetime as dt

    from referee import clock, scheduling

    game = GameFactory(ruleset="countdown", settings={"rounds": 1, "round_ms": 1000}, turn_limit_seconds=60)
    SeatFactory(game=game)
    services.game_start(game=game)  # eager: the round starts at once; its end is left to the sweeper
    row = DueWork.objects.get(game=game, kind=DueWork.Kind.AT)
    assert row.status == "pending"
    monkeypatch.setattr(clock, "now", lambda: row.due_at + dt.timedelta(milliseconds=10))
    scheduling.sweep()
    row.refresh_from_db()
    assert (row.status, row.result) == ("done", "ran")
    assert Event.objects.filter(game=game, type="RoundEnded").count() == 1
