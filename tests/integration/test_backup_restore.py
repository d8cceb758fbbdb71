"""A backup is proven by restoring it: a database with games of every ruleset, in progress
and finished, is dumped with pg_dump, restored with pg_restore into a fresh database, every
game's log verifies there, and play goes on: the next order is taken and the next deadline
(or round clock, or tick) runs as if nothing had happened (docs/operations.md)."""

from __future__ import annotations

import datetime as dt
import glob
import os
import subprocess
import uuid

import pytest
from django.core.management import call_command
from django.db import connection

from games.base import Actor
from referee import clock as clock_file
from referee import scheduling, services
from referee.core import POSITIONS, Referee
from referee.models import Event, Game, SchedulerHeartbeat
from referee.store.django_store import DjangoEventStore
from tests.factories import UserFactory
from tests.fakes import FakeClock
from tests.record_games import GAMES, play_out, start

pytestmark = [pytest.mark.postgres]
BIN = sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1]


def _pg_env() -> tuple[list[str], dict[str, str]]:
    db = connection.settings_dict
    env = {**os.environ, "PGPASSWORD": db.get("PASSWORD") or ""}
    return ["-h", db["HOST"] or "localhost", "-p", str(db["PORT"] or 5432), "-U", db["USER"]], env


def _in_progress(ruleset: str) -> Game:
    settings, seats, policy = GAMES[ruleset]
    game = services.game_create(name=f"{ruleset} in progress", ruleset=ruleset, settings=settings,
                                seats=seats, deadline_policy=policy)
    for n in range(seats):
        services.seat_add(game=game, user=UserFactory(), name=f"p{n + 1}")
    services.game_start(game=game)
    services.game_run_pending(game_id=str(game.pk))
    return game


@pytest.mark.django_db  # pytest-django sets the test database up only for a module that asks
def test_the_module_has_a_database():
    assert connection.settings_dict["NAME"].startswith("test_")


def test_a_restored_backup_verifies_and_plays_on(committed, tmp_path, monkeypatch):
    registry = services.referee_get().registry
    clock = FakeClock()
    finished = []
    for ruleset in GAMES:
        referee = Referee(DjangoEventStore(), registry, clock, backoff=lambda attempt: None)
        game_id = start(referee, ruleset, str(uuid.uuid4()))
        play_out(referee, game_id, clock)
        finished.append(game_id)
    running = {ruleset: _in_progress(ruleset) for ruleset in GAMES}
    records_before = {str(g.pk): Event.objects.filter(game=g).count() for g in running.values()}

    args, env = _pg_env()
    original = connection.settings_dict["NAME"]
    dump = tmp_path / "referee.dump"
    subprocess.run([f"{BIN}/pg_dump", *args, "-Fc", "-f", str(dump), original], env=env, check=True)
    restored = f"{original}_restored_{uuid.uuid4().hex[:8]}"
    subprocess.run([f"{BIN}/createdb", *args, restored], env=env, check=True)
    subprocess.run([f"{BIN}/pg_restore", *args, "--exit-on-error", "-d", restored, str(dump)], env=env, check=True)

    connection.close()
    connection.settings_dict["NAME"] = restored
    POSITIONS.clear()  # nothing may come from the old database's positions in this process
    try:
        assert connection.cursor().execute("SELECT current_database()").fetchone()[0] == restored
        ids = [*finished, *(str(g.pk) for g in running.values())]
        assert set(ids) <= {str(pk) for pk in Game.objects.values_list("pk", flat=True)}
        for game_id in ids:
            call_command("verify_log", game_id, "--no-freeze")
        assert all(Game.objects.get(pk=g).status == "finished" for g in finished)

        # the next order: Worms' first shopping list, by its player, through the services
        worms = Game.objects.get(pk=running["worms"].pk)
        seat = worms.seats.order_by("number").first()
        rules = registry.get(worms.ruleset, worms.ruleset_version)
        state, _ = services.referee_get().current(str(worms.pk))
        order = rules.demo_orders(state, seat.number)[0]
        payload = {k: v for k, v in rules.command_to_data(order).items() if k not in ("actor", "at_ms")}
        services.command_handle(game_id=str(worms.pk), user=seat.user, command_type=type(order).__name__,
                                payload=payload)
        # the next deadline, round clock or tick: the sweeper runs what the restored rows say is due
        later = dt.datetime.now(dt.UTC) + dt.timedelta(days=30)
        monkeypatch.setenv("REFEREE_CLOCK_FILE", str(tmp_path / "clock"))
        clock_file.set_fake_now(tmp_path / "clock", later)
        # the scheduler kept running until a moment ago: what is due now is due work, not an
        # outage's (a sweeper of an earlier test may have left its heartbeat in the dump;
        # deadlines that fall in an outage are moved on, never played: test_scheduling.py)
        SchedulerHeartbeat.objects.update(last_run_at=later - dt.timedelta(seconds=1))
        ran = scheduling.sweep(now=later)
        assert ran >= len(running) - 1
        for ruleset, game in running.items():
            grew = Event.objects.filter(game_id=game.pk).count() - records_before[str(game.pk)]
            assert grew > 0, f"{ruleset}: nothing happened after the restore"
            call_command("verify_log", str(game.pk), "--no-freeze")
        with pytest.raises(Exception, match="over"):
            services.referee_get().handle(finished[0], command_type="Surrender", payload={}, actor=Actor.player(1))
    finally:
        connection.close()
        connection.settings_dict["NAME"] = original
        POSITIONS.clear()
        subprocess.run([f"{BIN}/dropdb", *args, restored], env=env, check=False)
