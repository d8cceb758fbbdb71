"""A sweep's batch of games run together: a constant number of statements, however many.

The sweeper has claimed the batch's games (their row locks) and read their due rows,
vacations and recipients in one statement (``referee.sweeper``). Here, in a savepoint of
the batch's transaction: every game's position in one round trip (``Positions.latest_of``),
every game's due rows run in Python with its appends held (``referee.store.held``), then
every game's write (its held records after the predecessor it chained to, its due rows,
its notices: ``DueRows.write``) in one more (``store_sql.run_together``): each game's
statement is the prepared one it sends alone, naming its one game, and all of them go in
one pipeline, so the batch costs the same number of round trips for 1 game or 50. Should anything fail (a game's decision raising, a record that no
longer fits its log, a conflict), the savepoint is rolled back and the caller runs the
batch game by game, each in a savepoint of its own, as before: no game is lost or doubled,
and the due-work metrics count the batch's rows once, when its savepoint is released
(``metrics.DueWorkTally``), not as each runs.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from referee import metrics
from referee.due_jobs import _run_rows, _Unit
from referee.instance import referee_get
from referee.models import DueWork, Game
from referee.store import sql as store_sql

log = logging.getLogger(__name__)


def run_batch(games: Sequence[Game], rows: dict[Any, list[DueWork]], now: dt.datetime) -> int | None:
    """Run the claimed games' due rows with one read of their positions and one write for
    all of them. How many rows ran, or None if the batch was rolled back (the caller then
    runs it game by game)."""
    referee = referee_get()
    store = referee.store
    tally = metrics.DueWorkTally()
    units = [_Unit.of(game, referee, tally) for game in games]
    playing = [(str(u.game.pk), u.rules) for u in units if u.playing and rows.get(u.game.pk)]
    saved = transaction.savepoint()
    ran, sent = 0, []
    try:
        positions = referee.positions.latest_of(playing) if playing else {}
        writes = []
        for unit in units:
            game_id = str(unit.game.pk)
            unit.position = positions.get(game_id)
            with store.holding(game_id):
                ran += _run_rows(unit, unit.rows.adopt(rows.get(unit.game.pk, [])), now)
                write = unit.write()
            sent.append(unit)
            if write is not None:
                writes.append(write)
        if writes:
            written = store_sql.run_together([(w.sql, w.params) for w in writes])
            for write, its in zip(writes, written, strict=True):
                write.done(its)
    except Exception:
        transaction.savepoint_rollback(saved)
        log.warning("a sweep batch of %s games failed as a whole; running it game by game", len(games),
                    exc_info=True)
        return None
    transaction.savepoint_commit(saved)
    tally.record()
    for unit in sent:
        unit.send()
    return ran
