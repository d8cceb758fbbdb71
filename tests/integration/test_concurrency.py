"""Two OS processes appending to one game at once, on real PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest
from django.conf import settings

from referee import services
from referee.models import Event
from tests.factories import started_game

pytestmark = [pytest.mark.postgres]
ROOT = Path(__file__).resolve().parents[2]


def worker(*args: object) -> subprocess.Popen:
    db = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "tests.integration.race_worker", *map(str, args)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def last_json(proc: subprocess.Popen) -> dict:
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.django_db
def test_the_database_refuses_a_second_record_at_the_same_seq():
    """The last line of defence under the store's own checks: unique (game, seq)."""
    from django.db import IntegrityError, transaction

    game, _ = started_game()
    row = Event.objects.filter(game=game).order_by("seq").first()
    clone = {f.attname: getattr(row, f.attname) for f in Event._meta.concrete_fields if f.attname != "id"}
    with pytest.raises(IntegrityError), transaction.atomic():
        Event.objects.create(**{**clone, "idempotency_key": None})


def _someone_waits_on_a_lock() -> bool:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()")
        return cur.fetchone()[0] > 0


class GameLockHolder:
    """A connection of its own, outside Django's, that takes a game's row lock (as an order
    or a job of another process does), writes under it, and commits only once a thread of
    the test is waiting for that lock."""

    def __init__(self, conn: psycopg.Connection) -> None:
        self.conn = conn

    def lock(self, game_id: object) -> None:
        self.conn.execute("SELECT 1 FROM referee_game WHERE id = %s FOR NO KEY UPDATE", [game_id])

    def execute(self, sql: str, params: list[object]) -> None:
        self.conn.execute(sql, params)

    def commit_once_waited_for(self, waiter: Callable[[], None], who: str) -> None:
        """Run ``waiter`` in a thread (with its own Django connection, closed after it),
        commit as soon as it waits for the lock, and let it finish."""
        from django.db import connection

        def run() -> None:
            try:
                waiter()
            finally:
                connection.close()

        waiting = threading.Thread(target=run)
        waiting.start()
        for _ in range(600):
            if _someone_waits_on_a_lock():
                break
            time.sleep(0.05)
        else:
            pytest.fail(f"{who} never waited for the game's lock")
        self.conn.commit()
        waiting.join(timeout=60)


@pytest.fixture
def lock_holder() -> Iterator[GameLockHolder]:
    db = settings.DATABASES["default"]
    conn = psycopg.connect(host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"])
    try:
        yield GameLockHolder(conn)
    finally:
        conn.close()


def test_exactly_one_writer_wins_a_seq_and_the_loser_retries_after_it(committed, tmp_path):
    game, seats = started_game()
    seq = Event.objects.filter(game=game).count() + 1
    release = tmp_path / "release"
    holder = worker("hold", game.pk, seq, release)
    assert holder.stdout.readline().strip() == "appended"
    rival = worker("notes", game.pk, seats[0].user.pk, 1, 0)
    # Release only once the rival is really blocked on the holder's uncommitted row (a
    # fixed sleep raced a slow process start on a busy machine).
    deadline = time.monotonic() + 60
    while not _someone_waits_on_a_lock():
        assert rival.poll() is None, "the rival should be waiting on the holder's uncommitted row"
        assert time.monotonic() < deadline, "the rival never reached the holder's row"
        time.sleep(0.05)
    release.touch()
    assert last_json(holder) == {"seq": seq}
    result = last_json(rival)
    assert result["lost"] == 1
    assert result["seqs"] == [seq + 1]
    rows = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", "type"))
    assert [s for s, _ in rows] == list(range(1, len(rows) + 1))
    assert rows[seq - 1][1] == "Holder" and rows[seq][1] == "WriteNote"
    assert services.referee_get().verify(str(game.pk)).ok


def test_two_busy_writers_leave_no_gap_and_no_duplicate(committed):
    game, seats = started_game()
    start_at = time.time() + 2.0
    procs = [worker("notes", game.pk, seat.user.pk, 25, start_at) for seat in seats]
    results = [last_json(p) for p in procs]
    seqs = sorted(s for r in results for s in r["seqs"])
    assert len(seqs) == len(set(seqs)) == 50
    rows = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert rows == list(range(1, len(rows) + 1))
    notes = Event.objects.filter(game=game, type="NoteWritten").count()
    assert notes == 50
    assert services.referee_get().verify(str(game.pk)).ok


def test_an_order_that_waited_for_the_game_lock_knows_the_due_rows_its_holder_committed(committed, lock_holder):
    """An order's lock brings the game's pending due rows along in the same statement; they
    are read once the lock is held, so a row that the lock's previous holder made while the
    order waited is among them (the statement's own snapshot, taken before the wait, would
    miss it, and the order's sync would then work from stale rows)."""
    from django.db import transaction

    game, seats = started_game()
    known: set[str] = set()

    def order() -> None:
        with transaction.atomic():
            _number, locked = services._locked_seat(str(game.pk), seats[0].user)
            known.update(row.key for row in locked._pending_due)

    lock_holder.lock(game.pk)
    lock_holder.execute("INSERT INTO referee_duework (game_id, key, kind, seats, due_at, status, created_at, result) "
                        "VALUES (%s, 'made:meanwhile', 'now', '[]', now(), 'pending', now(), '')", [game.pk])
    lock_holder.commit_once_waited_for(order, "the order")
    assert "made:meanwhile" in known


def test_a_deadline_job_that_waited_for_the_game_lock_knows_the_vacation_its_holder_declared(committed, lock_holder):
    """A deadline job's lock brings the game's due row, vacations and recipients along in
    one statement, read once the lock is held: a vacation declared (under the game's lock)
    while the job waited is one the job knows of."""
    import datetime as dt

    from django.db import transaction

    from referee import scheduling
    from referee.models import DueWork

    game, seats = started_game()
    row = DueWork.objects.get(game=game, kind="deadline", status="pending")
    now = row.due_at + dt.timedelta(minutes=1)
    away: list[int] = []

    def job() -> None:
        with transaction.atomic():
            locked, found = scheduling._locked_game_and_row(str(game.pk), row.key, "deadline", now)
            assert found is not None and found.pk == row.pk
            away.extend(v.seat for v in locked._vacations_from[1])

    lock_holder.lock(game.pk)
    lock_holder.execute("INSERT INTO referee_vacation (game_id, seat_id, starts_at, ends_at, reason) "
                        "VALUES (%s, %s, %s, %s, '')",
                        [game.pk, seats[0].pk, now - dt.timedelta(hours=1), now + dt.timedelta(days=3)])
    lock_holder.commit_once_waited_for(job, "the job")
    assert away == [seats[0].number]
