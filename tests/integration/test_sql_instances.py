"""Model instances built from the store's plain SQL rows (``referee.store.sql.instances``)
are what the ORM builds from the same row: the same attributes, loaded from the database."""

from __future__ import annotations

import datetime as dt
import uuid

from django.db import connection

from referee.models import DueWork, Game
from referee.store import sql


def _as_orm_builds(model, row):
    names = [f.attname for f in model._meta.concrete_fields]
    values = [sql.loads(v) if f.get_internal_type() == "JSONField" and v is not None else v
              for f, v in zip(model._meta.concrete_fields, row, strict=True)]
    return model.from_db(connection.alias, names, values)


def test_an_instance_from_a_row_is_the_one_the_orm_builds():
    now = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    rows = {
        Game: [(uuid.uuid4(), "g", "pig", "1", '{"target": 100}', "seed", "hash", "active", "", 2, False, False, True,
                3600, "hold", "pause", None, 5, now)],
        DueWork: [(7, uuid.uuid4(), "turn:1:deadline", "deadline", "[1]", now, None, "pending", now, None, "")],
    }
    for model, model_rows in rows.items():
        assert len(model_rows[0]) == len(model._meta.concrete_fields), model
        built = sql.instances(model, model_rows)[0]
        expected = _as_orm_builds(model, model_rows[0])
        assert {k: v for k, v in built.__dict__.items() if k != "_state"} == {
            k: v for k, v in expected.__dict__.items() if k != "_state"}
        assert (built._state.adding, built._state.db) == (False, connection.alias)
        assert built.pk == expected.pk
