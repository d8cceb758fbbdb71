"""Many games whose deadlines run out in the same second: the sweeper claims them a batch
at a time and each game's deadline runs exactly once, its turn passed and its log still
verifying. Run on the plain and on the partitioned log (the sweep's claim then reads every
partition of the due work)."""

from __future__ import annotations

import datetime as dt

import pytest

from referee import scheduling, services
from referee.models import DueWork, Event
from tests.factories import started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
GAMES = 30


@pytest.fixture
def now(tmp_path, monkeypatch, settings):
    path = tmp_path / "clock"
    monkeypatch.setenv("REFEREE_CLOCK_FILE", str(path))
    settings.REFEREE_OUTAGE_SECONDS = 10**9
    from referee.clock import set_fake_now

    set_fake_now(path, T0)
    return lambda instant: set_fake_now(path, instant)


def test_every_deadline_of_a_storm_runs_once_and_every_log_verifies(now):
    games = [started_game()[0] for _ in range(GAMES)]
    expiry = T0 + dt.timedelta(hours=37)
    now(expiry)
    ran = scheduling.sweep(now=expiry, batch=4)
    assert ran >= GAMES
    assert scheduling.sweep(now=expiry, batch=4) == 0  # nothing is left to run twice
    referee = services.referee_get()
    for game in games:
        deadlines = DueWork.objects.filter(game=game, key="turn:0:deadline", kind="deadline")
        assert [row.status for row in deadlines] == ["done"], game.pk
        orders = Event.objects.filter(game=game, kind="command", actor_kind="referee").values_list("type", flat=True)
        assert list(orders) == ["Setup", "Hold"], game.pk
        assert not DueWork.objects.filter(game=game, status="pending", due_at__lte=expiry).exists()
        assert referee.verify(str(game.pk)).ok, game.pk
