"""The log's tail read in the statement that locks the game (``referee/store/tail.py``): an
order decides from the log's real head whatever the process had cached, and a tail that a
unit of work read but did not use is not left for the next one."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from referee import core, positions, services
from referee.errors import GameNotActive
from referee.instance import referee_get
from referee.models import Game
from referee.store.base import NewRecord, RecordKind
from tests.factories import acting_seat, started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def _notice(game_id: str) -> None:
    """A record appended behind this process's cache, as another process would."""
    store = referee_get().store
    store.append(game_id, store.last_seq(game_id) + 1, [
        NewRecord(kind=RecordKind.NOTICE, type="Elsewhere", payload={}, actor_kind="referee")],
        dt.datetime.now(dt.UTC))


def _hold(game: Game, seats: list, user=None) -> core.Appended:
    return services.command_handle(game_id=str(game.pk), user=user or acting_seat(game, seats).user,
                                   command_type="Hold", payload={})


def test_an_order_after_another_process_appended_decides_from_the_new_head_with_no_read_of_its_own(monkeypatch):
    lost: list[int] = []
    monkeypatch.setattr(core, "jittered_sleep", lost.append)  # a referee backs off after each lost race
    game, seats = started_game(settings={"target": 1000})
    gid = str(game.pk)
    user = acting_seat(game, seats).user  # this process caches the head
    _notice(gid)  # a notice changes no turn
    last = referee_get().store.last_seq(gid)
    with CaptureQueriesContext(connection) as queries:
        outcome = _hold(game, seats, user)
    assert outcome.records[0].seq == last + 1
    assert lost == []
    reads = [q["sql"] for q in queries.captured_queries
             if "referee_event" in q["sql"] and "INSERT" not in q["sql"] and "referee_log_tail" not in q["sql"]]
    assert reads == []
    assert outcome.state == referee_get().replay(gid)


def test_a_cached_head_that_is_not_the_logs_is_read_afresh():
    game, seats = started_game(settings={"target": 1000})
    gid = str(game.pk)
    referee_get().current(gid)
    key = (referee_get().store.cache_scope(), gid)
    version = referee_get().ruleset_for(referee_get().store.get_game(gid)).version
    cached = positions.POSITIONS.get(key, version)
    assert cached is not None
    positions.POSITIONS.put(key, version, dataclasses.replace(cached, last_hash="0" * 64))  # a rolled-back head
    outcome = _hold(game, seats)
    assert outcome.state == referee_get().replay(gid)
    assert outcome.records[0].seq == cached.last_seq + 1


def test_a_first_order_in_a_process_folds_the_snapshot_and_records_read_with_the_lock():
    game, seats = started_game(settings={"target": 1000})
    gid = str(game.pk)
    for _ in range(30):  # past a snapshot
        _hold(game, seats)
        services.game_run_pending(game_id=gid)
    assert referee_get().store.latest_snapshot(gid) is not None
    user = acting_seat(game, seats).user
    core.POSITIONS.clear()
    with CaptureQueriesContext(connection) as queries:
        outcome = _hold(game, seats, user)
    assert outcome.state == referee_get().replay(gid)
    reads = [q["sql"] for q in queries.captured_queries if "INSERT" not in q["sql"]
             and ("referee_snapshot" in q["sql"] or "referee_event" in q["sql"])]
    assert reads == []


def test_a_tail_read_with_the_lock_and_not_used_does_not_outlive_its_unit():
    game, seats = started_game(settings={"target": 1000})
    Game.objects.filter(pk=game.pk).update(paused_at=dt.datetime.now(dt.UTC))
    with pytest.raises(GameNotActive):
        _hold(game, seats)
    assert positions._READ_ALONG.tails == {}
