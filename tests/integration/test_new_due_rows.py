"""A due row that due_work_sync makes (``due_sync._create``) is the row Django's constructor
would make from the same columns: every column set, the game cached, not yet saved."""

from __future__ import annotations

import datetime as dt
import uuid

from django.db.models.signals import post_init, pre_init

from referee.due_sync import _create
from referee.models import DueWork, Game

NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


def _columns(row: DueWork) -> dict[str, object]:
    return {name: value for name, value in vars(row).items() if name != "_state"}


def test_a_new_due_row_is_the_row_the_constructor_makes():
    game = Game(id=uuid.uuid4(), name="x", turn_limit_seconds=3600)
    cases = [
        (("turn:1:deadline", DueWork.Kind.DEADLINE, (1, 2), NOW + dt.timedelta(hours=1), NOW), {}),
        (("turn:1:deadline", DueWork.Kind.REMIND, [2], None, NOW), {"remaining": dt.timedelta(minutes=5)}),
    ]
    for (key, kind, seats, due_at, now), extra in cases:
        made = _create(game, key, kind, seats, due_at, now, **extra)
        built = DueWork(game=game, key=key, kind=kind, seats=list(seats), due_at=due_at, created_at=now, **extra)
        assert _columns(made) == _columns(built)
        assert set(_columns(made)) == {f.attname for f in DueWork._meta.concrete_fields}
        assert (made._state.adding, made._state.db) == (built._state.adding, built._state.db)
        assert made._state.adding
        assert made.game is game and made.pk is None
        assert made.seats is not seats


def test_nothing_listens_to_a_due_rows_construction():
    """``_create`` skips the constructor, and with it ``pre_init`` and ``post_init``: a
    receiver connected to DueWork would have to be called there."""
    assert not pre_init.has_listeners(DueWork)
    assert not post_init.has_listeners(DueWork)
