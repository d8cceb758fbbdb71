"""A sweep runs a batch of games together: their positions in one round trip, their writes
in one more, whatever the batch's size; a game that fails leaves the others to run, and a
batch whose write fails is run again game by game. Every log verifies afterwards."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from referee import due_jobs, metrics, scheduling, services, sweeper
from referee.models import DueWork, Event, Game
from referee.store import sql as store_sql
from tests.factories import started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture(autouse=True)
def no_outage(settings):
    settings.REFEREE_OUTAGE_SECONDS = 10**9  # the clock's jumps here are not an outage


def _forget_every_game() -> None:
    from referee import core

    core._PINNED.clear()
    core.POSITIONS.clear()


def _due_games(n: int) -> tuple[list[Game], dt.datetime]:
    games = [started_game(settings={"target": 1000})[0] for _ in range(n)]
    due_at = max(DueWork.objects.get(game=g, kind="deadline", status="pending").due_at for g in games)
    scheduling.sweep(now=due_at - dt.timedelta(hours=7))  # the heartbeat; nothing is due yet
    return games, due_at + dt.timedelta(minutes=1)


def _deadlines_counted() -> float:
    """This process's count of deadlines run (``referee_due_work_ran``)."""
    return sum(s.value for family in metrics.DUE_WORK_RAN.collect() for s in family.samples
               if s.name.endswith("_total") and s.labels == {"kind": "deadline", "outcome": "done"})


def _round_trips(queries: list[dict[str, Any]]) -> int:
    """Statements sent together (``store_sql.run_together``) share one round trip."""
    return len({q.get("together", n) for n, q in enumerate(queries)})


def _ran_once_and_verifies(game: Game) -> None:
    deadline = DueWork.objects.get(game=game, key="turn:0:deadline", kind="deadline")
    assert deadline.status == "done", game.pk
    orders = Event.objects.filter(game=game, kind="command", actor_kind="referee").values_list("type", flat=True)
    assert list(orders) == ["Setup", "Hold"], game.pk
    assert DueWork.objects.get(game=game, kind="notify", key__startswith="turn:1", status="done")
    assert services.referee_get().verify(str(game.pk)).ok, game.pk


def test_a_sweep_of_five_games_and_of_twenty_costs_the_same_round_trips(settings):
    settings.REFEREE_SWEEP_BATCH = 20

    def sweep_of(n: int) -> tuple[int, int]:
        games, now = _due_games(n)
        _forget_every_game()
        with CaptureQueriesContext(connection) as queries:
            scheduling.sweep(now=now)
        for game in games:
            _ran_once_and_verifies(game)
        return _round_trips(queries.captured_queries), len(queries.captured_queries)

    (few, few_statements), (more, more_statements) = sweep_of(5), sweep_of(20)
    assert few == more, (few, more)
    assert more_statements > few_statements  # each game still has its own statements, sent together


def test_a_game_whose_decision_raises_is_left_pending_while_the_others_in_its_batch_run(monkeypatch, caplog):
    games, now = _due_games(4)
    broken = str(games[1].pk)
    expire = due_jobs._expire

    def failing(unit: Any, row: DueWork, at: dt.datetime) -> str:
        if str(unit.game.pk) == broken:
            raise RuntimeError("a bug in a ruleset")
        return expire(unit, row, at)

    monkeypatch.setattr(due_jobs, "_expire", failing)
    counted = _deadlines_counted()
    with caplog.at_level(logging.ERROR, logger="referee.sweeper"):
        scheduling.sweep(now=now)
    assert _deadlines_counted() - counted == len(games) - 1  # the batch that failed counted none
    assert DueWork.objects.get(game_id=broken, key="turn:0:deadline", kind="deadline").status == "pending"
    assert not Event.objects.filter(game_id=broken, actor_kind="referee", type="Hold").exists()
    assert services.referee_get().verify(broken).ok
    for game in games[:1] + games[2:]:
        _ran_once_and_verifies(game)
    monkeypatch.setattr(due_jobs, "_expire", expire)
    scheduling.sweep(now=now)  # fixed: the next sweep runs it, once
    _ran_once_and_verifies(games[1])


def test_a_game_run_alone_whose_write_fails_counts_none_of_its_rows(monkeypatch, caplog):
    games, now = _due_games(3)
    broken = str(games[1].pk)
    monkeypatch.setattr(sweeper, "run_batch", lambda *args: None)  # as a batch rolled back: game by game
    finish = due_jobs._Unit.finish

    def failing(unit: Any) -> None:
        if str(unit.game.pk) == broken:
            raise RuntimeError("the write failed")
        finish(unit)

    monkeypatch.setattr(due_jobs._Unit, "finish", failing)
    counted = _deadlines_counted()
    with caplog.at_level(logging.ERROR, logger="referee.sweeper"):
        scheduling.sweep(now=now)
    assert DueWork.objects.get(game_id=broken, key="turn:0:deadline", kind="deadline").status == "pending"
    assert _deadlines_counted() - counted == len(games) - 1


def test_a_batch_whose_write_finds_a_log_moved_on_is_run_again_game_by_game(monkeypatch, caplog):
    games, now = _due_games(4)
    together = store_sql.run_together
    spoilt: list[int] = []

    def moved_on(statements: Any, **kwargs: Any) -> Any:
        statements = list(statements)
        if not spoilt and statements and statements[0][0].startswith("WITH first"):
            # One game's predecessor is no longer the record its held appends chained to.
            text, params = statements[2]
            statements[2] = (text, {**params, "ev20": "0" * 64})
            spoilt.append(1)
        return together(statements, **kwargs)

    monkeypatch.setattr(store_sql, "run_together", moved_on)
    counted = _deadlines_counted()
    with caplog.at_level(logging.WARNING, logger="referee.sweep_batch"):
        scheduling.sweep(now=now)
    assert spoilt, "the batch's write was never sent"
    assert any("game by game" in r.getMessage() for r in caplog.records)
    for game in games:
        _ran_once_and_verifies(game)
    assert _deadlines_counted() - counted == len(games)  # the batch rolled back counts none of its own
    assert scheduling.sweep(now=now) == 0  # nothing is left to run twice


def test_a_sweep_batch_nudges_the_notices_worker_once_not_once_a_game(monkeypatch, django_capture_on_commit_callbacks):
    from celery import current_app

    from notices.record import SEND_DUE
    from referee import nudges

    games, now = _due_games(5)
    monkeypatch.setattr(current_app.conf, "task_always_eager", False)
    sent: list[str] = []
    monkeypatch.setattr(nudges, "send_later", lambda task, args, eta=None: sent.append(task))
    with django_capture_on_commit_callbacks(execute=True):
        scheduling.sweep(now=now)
    for game in games:
        _ran_once_and_verifies(game)
    assert sent.count(SEND_DUE) == 1, sent
