"""A real Celery worker on a real Redis broker runs the turn-start phase after commit,
and a job delivered again changes nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

from referee import services
from referee.celery import app
from referee.models import Event
from referee.tasks import run_due_work
from tests.factories import GameFactory, SeatFactory

pytestmark = [pytest.mark.postgres, pytest.mark.redis]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def worker(committed):
    db = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_BROKER_URL": os.environ["REDIS_URL"],
        "CELERY_TASK_ALWAYS_EAGER": "0",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "referee", "worker", "--pool", "solo", "--loglevel", "info",
         "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    saved = (app.conf.task_always_eager, app.conf.broker_url)
    app.conf.task_always_eager = False
    app.conf.broker_url = os.environ["REDIS_URL"]
    try:
        yield proc
    finally:
        app.conf.task_always_eager, app.conf.broker_url = saved
        proc.terminate()
        proc.wait(timeout=20)


def wait_for(predicate, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError("timed out waiting for the worker")


def test_the_worker_starts_the_turn_after_commit_and_only_once(worker):
    game = GameFactory()
    for _ in range(2):
        SeatFactory(game=game)
    services.game_start(game=game)  # commits; on_commit hands turn 0's start to the broker
    started = Event.objects.filter(game=game, type="TurnStarted")
    wait_for(lambda: started.count() == 1)
    for _ in range(2):  # duplicate deliveries
        run_due_work.delay(str(game.pk), "turn:0:start")
    marker = Event.objects.filter(game=game).count()
    run_due_work.delay(str(game.pk), "turn:99:start")  # nothing due: the worker must shrug
    time.sleep(3)
    assert started.count() == 1
    assert Event.objects.filter(game=game).count() == marker
    assert worker.poll() is None
