"""The scheduling bench's sizes, environment, workers and set-up (bench/scheduling.py):
started Pig games through the real services and in bulk, their logs and due work checked,
and the real Celery workers the parts run on. See bench/README.md."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# --- sizes (the whole run takes 3 to 6 minutes on two cores, depending on other load) -----------
GAMES = int(os.environ.get("BENCH_GAMES", "10000"))  # games whose deadlines all expire at once
ACTIVE = min(1_000, GAMES // 2)  # part 3: games with orders (half) and expiring deadlines (half)
ACTIVE_SECONDS = float(os.environ.get("BENCH_ACTIVE_SECONDS", "20"))  # part 3's duration
ROUND_TRIPS = max(200, int(os.environ.get("BENCH_ROUND_TRIPS", "200")))  # 2a: round trips per kind
RESERVED = ROUND_TRIPS  # more games like them, whose deadlines part 2 runs one at a time
IN_PROCESS = 100  # and more, whose deadline jobs part 2 runs in this process (where the time goes)
SERVICE_GAMES = 50  # of all games, made through the real services; the rest in bulk (see README)
BULK_CHUNK = 1_000  # games per bulk transaction
WORKERS = 2  # worker processes, one task at a time each (--pool solo)
SWEEPS = 4  # sweep_due_work tasks enqueued (each runs up to 10,000 rows)
WARMUP = 20
BURST = ROUND_TRIPS  # 2b: tasks sent at once per kind
VERIFY_SAMPLE = 100  # games whose whole log is verified (hash chain + re-adjudication)
POLL = 0.25  # seconds between progress queries during part 1
IDLE_POLL = 0.002  # seconds between queue checks while waiting for the workers to be idle
PHASE_TIMEOUT = 900.0  # give up on a phase after this long (a stuck worker, a lost row)

T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
HOUR = dt.timedelta(hours=1)
TURN_LIMIT = 36  # hours; the pig deadline of turn 0 is at T0 + 36 h, its reminder at T0 + 30 h
REMIND_AT = 31 * HOUR  # when the reminders are sent (set-up); the deadlines run at T0 + 37 h
PIG_SETTINGS = {"target": 100}
NOOP, RUN, SWEEP = "bench.noop", "referee.run_due_work", "referee.sweep_due_work"


def setup_environment(tmp: Path) -> None:
    """Everything the workers must share with this process goes into os.environ first."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")) or not os.environ.get("REDIS_URL"):
        sys.exit("bench/scheduling.py needs PostgreSQL and Redis: run it as "
                 "`scripts/with_servers.sh .venv/bin/python bench/scheduling.py`.")
    os.environ.update({
        "REFEREE_CLOCK_FILE": str(tmp / "clock"),
        "CELERY_BROKER_URL": os.environ["REDIS_URL"],
        "CELERY_TASK_ALWAYS_EAGER": "1",  # this process, during set-up only; the workers get 0
        "REFEREE_OUTAGE_SECONDS": str(10**9),  # clock jumps of hours are not an outage here
        "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend",
        "LOG_LEVEL": "WARNING",
    })
    from referee.clock import set_fake_now

    set_fake_now(tmp / "clock", T0)
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)
    from referee.models import DueWork

    # make bench runs the other scripts first in the same database: their games' work is
    # not this storm's (their deadlines would fall due when the clock jumps)
    DueWork.objects.filter(status=DueWork.Status.PENDING).update(
        status=DueWork.Status.CANCELLED, result="left by another bench script")


def set_now(instant: dt.datetime) -> None:
    from referee.clock import set_fake_now

    set_fake_now(os.environ["REFEREE_CLOCK_FILE"], instant)


# --- workers -----------------------------------------------------------------------------------


class Workers:
    """WORKERS real `celery worker` processes, as tests/integration/test_celery_worker.py
    starts them, plus ``-I bench.noop_tasks``. Output goes to a log file each."""

    def __init__(self, tmp: Path, redis: Any) -> None:
        env = {**os.environ, "CELERY_TASK_ALWAYS_EAGER": "0"}
        self.logs = [tmp / f"worker{i}.log" for i in range(WORKERS)]
        self.procs = []
        for i, log in enumerate(self.logs):
            with log.open("w") as out:
                self.procs.append(subprocess.Popen(
                    [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo",
                     "--loglevel", "warning", "--without-gossip", "--without-mingle", "--without-heartbeat",
                     "-I", "bench.noop_tasks", "-n", f"bench{i}@%h"],
                    cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                ))
        self.pids = []
        for _ in range(WORKERS):
            item = redis.blpop("bench:ready", timeout=120)
            if item is None:
                self.stop()
                sys.exit("the Celery workers did not come up:\n" + self.tail())
            self.pids.append(int(item[1]))

    def problems(self) -> list[str]:
        words = ("Traceback", "ERROR", "CRITICAL", "deadlock")
        return [line for log in self.logs for line in log.read_text().splitlines() if any(w in line for w in words)]

    def tail(self) -> str:
        return "\n".join("\n".join(log.read_text().splitlines()[-20:]) for log in self.logs)

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)

    def kill(self) -> None:
        """SIGKILL, as a crash would: a warm shutdown would wait for the running sweeps, which
        go on until nothing is due. The row each was on rolls back; the checks then show it."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
        for proc in self.procs:
            proc.wait(timeout=10)


def queue_idle(redis: Any) -> bool:
    """Nothing waiting in the default queue and nothing taken but unacknowledged (acks_late)."""
    return redis.llen("celery") == 0 and redis.hlen("unacked") == 0


def queue_idle_of(redis: Any) -> Callable[[], bool]:
    return lambda: queue_idle(redis)


def wait_until(predicate: Callable[[], bool], what: str, timeout: float = PHASE_TIMEOUT) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(IDLE_POLL)


# --- set-up: started games, their logs and their due work ----------------------------------------


def service_games(n: int) -> list[str]:
    """Games made as a player would make them: game_create, two seat_add, game_start. In this
    process the tasks run eagerly, so the turn-start job and the turn-start notice have run
    when game_start returns, exactly as a worker would run them after its commit. Then the
    clock moves to T0 + 31 h and the sweeper (in this process) sends the reminders, 6 hours
    before the deadlines, as it would have done on time."""
    from django.contrib.auth import get_user_model

    from referee import scheduling, services

    user_model = get_user_model()
    ids = []
    for i in range(n):
        game = services.game_create(name=f"Service game {i}", ruleset="pig", settings=PIG_SETTINGS,
                                    turn_limit_seconds=TURN_LIMIT * 3600)
        for s in (1, 2):
            user = user_model.objects.create(username=f"svc{i}-{s}", email=f"svc{i}-{s}@example.org")
            services.seat_add(game=game, user=user, name=f"Svc {i}-{s}")
        services.game_start(game=game)
        ids.append(str(game.pk))
    set_now(T0 + REMIND_AT)
    ran = scheduling.sweep()
    if ran != n:
        raise AssertionError(f"expected one reminder per game, {n}; the sweep ran {ran} rows")
    return ids


def bulk_games(n: int, template_game: str) -> list[str]:
    """``n`` more games in the same state, written in bulk. Each game's log is produced by the
    real Referee (its own seed, dice, hash chain, idempotency keys and clock) on the in-memory
    store, then copied row for row. Its due work is what ``due_work_sync`` and the sweeper
    leave after the same steps (reminder sent): the template game's rows, with the seats the
    game's own position names."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from games.base import SeatInfo
    from games.dice import seed_commitment
    from referee.core import Referee
    from referee.models import DueWork, Event, Game, Seat
    from referee.rulesets import get_registry
    from referee.store.memory import InMemoryEventStore

    registry = get_registry()
    rules = registry.get("pig")
    user_model = get_user_model()
    template = list(DueWork.objects.filter(game_id=template_game).order_by("id"))
    ids: list[str] = []
    for first in range(0, n, BULK_CHUNK):
        store = InMemoryEventStore()
        referee = Referee(store, registry, lambda: T0)
        games, users, seats, events, works = [], [], [], [], []
        for i in range(first, min(first + BULK_CHUNK, n)):
            info = referee.create_game(ruleset="pig", settings=PIG_SETTINGS)
            names = (f"Bulk {i}-1", f"Bulk {i}-2")
            referee.start_game(info.id, [SeatInfo(1, names[0]), SeatInfo(2, names[1])])
            referee.run_due(info.id, "turn:0:start")
            info = store.get_game(info.id)
            games.append(Game(
                id=info.id, name=f"Bulk game {i}", ruleset=info.ruleset, ruleset_version=info.ruleset_version,
                settings=info.settings, seed=info.seed, seed_hash=seed_commitment(info.seed), status=info.status,
                max_seats=rules.max_seats, turn_limit_seconds=TURN_LIMIT * 3600, deadline_policy=rules.deadline_policies[0],
            ))
            for s, name in enumerate(names, start=1):
                users.append(user_model(username=f"bulk{i}-{s}", email=f"bulk{i}-{s}@example.org", password=""))
                seats.append((info.id, s, name))
            events += [
                Event(game_id=info.id, seq=r.seq, kind=str(r.kind), type=r.type, schema_version=r.schema_version,
                      payload=r.payload, audience_kind=r.audience_kind, audience_seat=r.audience_seat,
                      audience_seats=list(r.audience_seats), record_version=r.record_version,
                      actor_kind=r.actor_kind, actor_seat=r.actor_seat, idempotency_key=r.idempotency_key,
                      cause_seq=r.cause_seq, draws=list(r.draws), created_at=r.created_at,
                      prev_hash=r.prev_hash, hash=r.hash)
                for r in store.read(info.id)
            ]
            state, _ = referee.current(info.id)
            due = {w.key: w for w in rules.scheduled_work(state)}
            works += [
                DueWork(game_id=info.id, key=t.key, kind=t.kind, due_at=t.due_at, remaining=t.remaining,
                        status=t.status, created_at=t.created_at, done_at=t.done_at, result=t.result,
                        seats=list(due[t.key].seats) if t.key in due else list(t.seats))
                for t in template
            ]
            ids.append(info.id)
        with transaction.atomic():
            Game.objects.bulk_create(games, batch_size=1000)
            users = user_model.objects.bulk_create(users, batch_size=1000)
            Seat.objects.bulk_create([Seat(game_id=g, number=s, name=name, user=u)
                                      for (g, s, name), u in zip(seats, users, strict=True)], batch_size=1000)
            Event.objects.bulk_create(events, batch_size=1000)
            DueWork.objects.bulk_create(works, batch_size=1000)
    return ids


def shape(game_id: str) -> tuple[Any, ...]:
    """What must agree between a service-made and a bulk game: the kinds, types, actors and
    keys of its log, and its due rows (everything but the ids and the seat to move)."""
    from referee.models import DueWork, Event

    log = tuple(Event.objects.filter(game_id=game_id).order_by("seq").values_list(
        "seq", "kind", "type", "actor_kind", "idempotency_key", "cause_seq", "created_at"))
    work = tuple(DueWork.objects.filter(game_id=game_id).order_by("key", "kind").values_list(
        "key", "kind", "status", "due_at", "remaining", "created_at", "done_at", "result"))
    return log, work


def check_setup(service_ids: Sequence[str], bulk_ids: Sequence[str]) -> int:
    """Bulk games look like service games, verify, and are a fixpoint of due_work_sync."""
    from django.db import transaction

    from referee import scheduling, services
    from referee.models import DueWork, Game

    referee = services.referee_get()
    reference = shape(service_ids[0])
    sample = list(service_ids[:VERIFY_SAMPLE // 2]) + list(bulk_ids[::max(1, len(bulk_ids) // (VERIFY_SAMPLE // 2))])
    for gid in sample:
        if shape(gid) != reference:
            raise AssertionError(f"game {gid} differs from the service-made game {service_ids[0]}")
        report = referee.verify(gid)
        if not report.ok:
            raise AssertionError(f"game {gid} fails verification: {report.first_problem}")
        with transaction.atomic():
            before = list(DueWork.objects.filter(game_id=gid).order_by("id").values_list("key", "status", "seats"))
            due_now = scheduling.due_work_sync(game=Game.objects.get(pk=gid))
            after = list(DueWork.objects.filter(game_id=gid).order_by("id").values_list("key", "status", "seats"))
            transaction.set_rollback(True)
        if due_now or before != after:
            raise AssertionError(f"due_work_sync would change game {gid}: {before} -> {after}")
    return len(sample)
