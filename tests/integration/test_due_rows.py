"""A unit of work's due rows (referee/due_rows.py): later reads in the unit see what it did,
and one statement writes it all, exactly as the rows stand."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from referee.due_rows import DueRows
from referee.models import DueWork
from tests.factories import started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
NOW = dt.datetime(2026, 12, 1, 12, 0, 0, 123456, tzinfo=dt.UTC)


def _row(game, key: str, kind: str, **fields) -> DueWork:
    return DueWork(game=game, key=key, kind=kind, seats=[1, 2], created_at=NOW, **fields)


def test_a_unit_sees_its_own_changes_before_they_are_written():
    game, _ = started_game()
    rows = DueRows(game)
    pending = [r for r in rows.select([]) if r.kind == DueWork.Kind.DEADLINE]
    assert len(pending) == 1
    rows.close(pending[0], DueWork.Status.DONE, NOW, "ran")
    made = _row(game, "later", DueWork.Kind.NOW, due_at=NOW)
    rows.add([made])
    again = rows.select(["later"])
    assert pending[0] not in again and made in again
    assert DueWork.objects.get(pk=pending[0].pk).status == DueWork.Status.PENDING  # not written yet


def test_one_statement_writes_the_units_changes_and_new_rows_as_they_stand():
    game, _ = started_game()
    rows = DueRows(game)
    deadline = next(r for r in rows.select([]) if r.kind == DueWork.Kind.DEADLINE)
    rows.close(deadline, DueWork.Status.CANCELLED, NOW, "no longer due: " + "x" * 300)
    ran = _row(game, "k", DueWork.Kind.NOW, due_at=NOW)
    rows.add([ran, _row(game, "k", DueWork.Kind.DEADLINE, due_at=None, remaining=dt.timedelta(hours=35, microseconds=7))])
    rows.close(ran, DueWork.Status.DONE, NOW, "ran")
    with CaptureQueriesContext(connection) as queries:
        rows.flush()
    assert len(queries) == 1
    stored = {(r.key, r.kind): r for r in DueWork.objects.filter(game=game)}
    cancelled = stored[(deadline.key, DueWork.Kind.DEADLINE)]
    assert (cancelled.status, cancelled.done_at, cancelled.result) == ("cancelled", NOW, ("no longer due: " + "x" * 300)[:200])
    done = stored[("k", DueWork.Kind.NOW)]
    assert (done.status, done.due_at, done.done_at, done.result, done.seats) == ("done", NOW, NOW, "ran", [1, 2])
    paused = stored[("k", DueWork.Kind.DEADLINE)]
    assert (paused.status, paused.due_at, paused.remaining, paused.done_at) == (
        "pending", None, dt.timedelta(hours=35, microseconds=7), None)
    assert ran.pk == done.pk
    with CaptureQueriesContext(connection) as queries:
        rows.flush()
    assert len(queries) == 0  # nothing left to write
