"""Real Celery workers on a real Redis: the database decides what is due, and the log
ends the same whether a job is delivered once, twice, after a crash, or not at all."""

from __future__ import annotations

import datetime as dt
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

from config.celery import app
from referee import services
from referee.clock import set_fake_now
from referee.models import DueWork, Event
from referee.tasks import run_due_work, sweep_due_work
from tests.factories import GameFactory, SeatFactory

pytestmark = [pytest.mark.postgres, pytest.mark.redis]
ROOT = Path(__file__).resolve().parents[2]
T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Worker:
    def __init__(self, broker: str, clock_file: Path | None) -> None:
        """A worker on ``broker``; on the injected clock of ``clock_file``, or the real one."""
        db = settings.DATABASES["default"]
        env = {
            **{k: v for k, v in os.environ.items() if k != "REFEREE_CLOCK_FILE"},
            "DJANGO_SETTINGS_MODULE": "tests.settings",
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "CELERY_BROKER_URL": broker,
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "REFEREE_OUTAGE_SECONDS": str(10**9),
        }
        if clock_file is not None:
            env["REFEREE_CLOCK_FILE"] = str(clock_file)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "--loglevel", "info",
             "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )

    def output(self) -> str:
        self.stop()
        return self.proc.stdout.read() if self.proc.stdout else ""

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def broker(committed, tmp_path, monkeypatch):
    """Point this process's Celery at a broker and build workers on it; clean up after."""
    clock_file = tmp_path / "clock"
    set_fake_now(clock_file, T0)
    monkeypatch.setenv("REFEREE_CLOCK_FILE", str(clock_file))
    workers: list[Worker] = []
    saved = (app.conf.task_always_eager, app.conf.broker_url)

    class Broker:
        url = os.environ["REDIS_URL"]

        def use(self, url: str) -> None:
            self.url = url
            app.conf.broker_url = url
            _reset_producer_pool()

        def worker(self) -> Worker:
            w = Worker(self.url, clock_file)
            workers.append(w)
            return w

        def set_now(self, instant: dt.datetime) -> None:
            set_fake_now(clock_file, instant)

    b = Broker()
    app.conf.task_always_eager = False
    b.use(b.url)
    try:
        yield b
    finally:
        for w in workers:
            w.stop()
        app.conf.task_always_eager, app.conf.broker_url = saved
        _reset_producer_pool()


def _reset_producer_pool() -> None:
    """Celery caches its broker connections; forget them so the next send uses the new URL.
    (Closing them instead leaves kombu's global producer registry holding closed pools.)"""
    app._pool = None
    app.amqp._producer_pool = None


def wait_for(predicate, timeout: float = 40.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError("timed out waiting for the worker")


def new_game(**kwargs):
    game = GameFactory(**kwargs)
    seats = [SeatFactory(game=game) for _ in range(2)]
    return game, seats


def test_the_worker_starts_the_turn_after_commit_and_only_once(broker):
    broker.worker()
    game, _ = new_game()
    services.game_start(game=game)  # commits; on_commit nudges a worker for turn 0's start
    started = Event.objects.filter(game=game, type="TurnStarted")
    wait_for(lambda: started.count() == 1)
    for _ in range(2):  # duplicate and late deliveries
        run_due_work.delay(str(game.pk), "turn:0:start")
    run_due_work.delay(str(game.pk), "turn:99:start")  # nothing of the kind is due
    sweep_due_work.delay()
    wait_for(lambda: DueWork.objects.filter(game=game, key="turn:0:deadline", kind="notify", status="done").exists())
    time.sleep(2)
    assert started.count() == 1
    assert Event.objects.filter(game=game, type="StartTurn").count() == 1


def test_expiry_through_the_broker_makes_exactly_one_auto_turn(broker):
    broker.worker()
    game, _ = new_game()
    services.game_start(game=game)
    wait_for(lambda: Event.objects.filter(game=game, type="TurnStarted").exists())
    broker.set_now(T0 + dt.timedelta(hours=37))
    for _ in range(3):
        sweep_due_work.delay()
    run_due_work.delay(str(game.pk), "turn:0:deadline")
    wait_for(lambda: Event.objects.filter(game=game, type="TurnStarted").count() == 2)
    time.sleep(2)
    assert Event.objects.filter(game=game, type="DeadlineExpired").count() == 1
    assert Event.objects.filter(game=game, kind="command", type="Hold", actor_kind="referee").count() == 1


def test_a_worker_killed_mid_task_leaves_no_half_phase_and_the_work_is_redone(broker):
    game, _ = new_game(settings={"target": 20, "start_cost": 200_000_000})
    services.game_start(game=game)  # the nudge waits in Redis until a worker comes
    first = broker.worker()
    time.sleep(4)  # it has taken the job and is busy in the phase
    assert not Event.objects.filter(game=game, type="TurnStarted").exists()
    first.kill()
    row = DueWork.objects.get(game=game, key="turn:0:start")
    assert row.status == "pending"
    broker.worker()
    sweep_due_work.delay()
    wait_for(lambda: Event.objects.filter(game=game, type="TurnStarted").exists(), timeout=60)
    time.sleep(1)
    assert Event.objects.filter(game=game, type="TurnStarted").count() == 1
    assert services.referee_get().verify(str(game.pk)).ok


def test_with_redis_down_nothing_is_lost_and_the_sweeper_catches_up(broker, tmp_path):
    port = free_port()
    redis = ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no",
             "--dir", str(tmp_path)]
    server = subprocess.Popen(redis, stdout=subprocess.DEVNULL)
    try:
        broker.use(f"redis://127.0.0.1:{port}/0")
        wait_for(lambda: subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True).returncode == 0)
        server.terminate()
        server.wait(timeout=10)
        game, _ = new_game()
        services.game_start(game=game)  # the nudge cannot be sent: logged, not fatal
        assert DueWork.objects.get(game=game, key="turn:0:start").status == "pending"
        server = subprocess.Popen(redis, stdout=subprocess.DEVNULL)
        wait_for(lambda: subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True).returncode == 0)
        broker.use(f"redis://127.0.0.1:{port}/0")
        broker.worker()
        sweep_due_work.delay()
        wait_for(lambda: Event.objects.filter(game=game, type="TurnStarted").exists())
        sweep_due_work.delay()
        time.sleep(2)
        assert Event.objects.filter(game=game, type="TurnStarted").count() == 1
    finally:
        server.terminate()
        server.wait(timeout=10)
