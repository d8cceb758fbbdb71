"""Scheduling benchmark: real Celery workers on Redis against a real PostgreSQL. Prints
figures; asserts no timings (only correctness: exactly one expiry per game).

    scripts/with_servers.sh .venv/bin/python bench/scheduling.py

1. 10,000 started Pig games whose deadlines all run out at the same instant (the injected
   clock moves past them), worked off by 2 worker processes that sweep concurrently
   (batches of games claimed with SELECT ... FOR NO KEY UPDATE SKIP LOCKED): time until
   every game has its one DeadlineExpired notice and its one referee Hold, and until the
   turn starts and notices those made due have run too; the exactly-once check;
2. the overhead of a job over a no-op task on the same broker (bench/scheduling_jobs.py):
   round trips of ``bench.noop`` (bench/noop_tasks.py), of ``run_due_work`` for a key
   already done and of a real deadline job, interleaved task by task; bursts of the first
   two; then the same real job in this process, split into its statements and the rest,
   beside a trivial statement's round trip;
3. 1,000 active games with orders and deadlines interleaved: this process places orders
   as a web process would while the workers sweep a steady stream of expiring deadlines.

Part 2 runs first, on idle workers; then the storm, then part 3. See bench/README.md for
what each figure measures. ``BENCH_GAMES`` sets the storm's size (``make bench`` uses
2,000 and scales the time to 10,000 in the summary; ``make bench-scheduling`` 10,000).
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.event_store import Table  # noqa: E402  (also sets the Django defaults below)
from bench.scheduling_jobs import (  # noqa: E402
    burst,
    fresh_connection,
    in_process_jobs,
    ms,
    pct,
    pg_sessions,
    round_trip,
)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-a-secret")

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


# --- part 1: the deadline storm -------------------------------------------------------------------


def claim_plan(now: dt.datetime) -> tuple[float, int]:
    """EXPLAIN ANALYZE of the sweeper's claim (the query in ``scheduling.sweep``: a batch of
    games among those with the oldest due rows) with every deadline due, rolled back: its
    execution time (ms) and the due rows it reads to lock one batch."""
    import re

    from django.db import transaction

    from referee.models import DueWork, Game
    from referee.scheduling import sweep_batch

    batch = sweep_batch()
    candidates = (DueWork.objects.filter(status=DueWork.Status.PENDING, due_at__lte=now)
                  .order_by("due_at", "id").values("game_id")[:batch * 4])
    claim = Game.objects.select_for_update(no_key=True, skip_locked=True).filter(pk__in=candidates).order_by()[:batch]
    times, rows = [], 0
    for _ in range(5):
        with transaction.atomic():
            plan = claim.explain(analyze=True)
            transaction.set_rollback(True)
        times.append(float(re.search(r"Execution Time: ([\d.]+) ms", plan).group(1)))
        scanned = re.search(r"Scan .*actual time=[\d.]+\.\.[\d.]+ rows=(\d+)", plan)
        rows = int(scanned.group(1)) if scanned else -1
    return statistics.median(times), rows


def progress(now: dt.datetime) -> dict[str, int]:
    """Pending rows that are due, by kind (on the sweeper's own index, so polling stays cheap)."""
    from django.db.models import Count

    from referee.models import DueWork

    rows = (DueWork.objects.filter(status=DueWork.Status.PENDING, due_at__lte=now)
            .values_list("kind").annotate(n=Count("id")).order_by())
    counts = dict.fromkeys(DueWork.Kind.values, 0)
    counts.update(dict(rows))
    return counts


def storm(redis: Any, now: dt.datetime) -> dict[str, Any]:
    """Move the clock to ``now`` (every storm deadline is then due), enqueue SWEEPS sweeps and
    time how long until no deadline is left pending, and until nothing at all is due (the
    turn-1 starts and their notices, which the sweeps run under the same game lock)."""
    from config.celery import app

    set_now(now)
    out: dict[str, Any] = {}
    queued = redis.llen("celery")
    t0 = time.perf_counter()
    for _ in range(SWEEPS):
        app.send_task(SWEEP)
    end = t0 + PHASE_TIMEOUT
    while True:
        time.sleep(POLL)
        counts = progress(now)
        if counts["deadline"] == 0 and "deadlines" not in out:
            out["deadlines"] = time.perf_counter() - t0
        if not any(counts.values()):
            out["everything"] = time.perf_counter() - t0
            break
        if time.perf_counter() > end:
            raise TimeoutError(f"phase stuck at {counts} after {PHASE_TIMEOUT:.0f} s")
    out["queued"] = redis.llen("celery") - queued
    out["sweepers"] = [int(pid) for pid in redis.lrange("bench:sweeping", 0, -1)]
    wait_until(queue_idle_of(redis), "the sweeps to finish")
    return out


def active_games(redis: Any, game_ids: Sequence[str], now: dt.datetime) -> dict[str, Any]:
    """Part 3: ACTIVE games after the storm (each at turn 1, its turn started; the clock stays
    at ``now``, so no turn-1 deadline is due unless this part makes it due). Half get
    orders from this process, as from a web process: the acting seat's Hold through
    ``services.command_handle``, round-robin (a worker starts the next turn after the
    nudge). In the other half, deadlines run out in a steady stream: every 0.1 s a slice of
    their deadline rows is made due, and a sweep is sent every 0.5 s (the beat's job)."""
    from django.contrib.auth import get_user_model

    from config.celery import app
    from referee import services
    from referee.models import DueWork, Seat

    ordered, expiring = list(game_ids[:ACTIVE // 2]), list(game_ids[ACTIVE // 2:ACTIVE])
    users = {(str(s.game_id), s.number): s.user_id for s in Seat.objects.filter(game_id__in=ordered)}
    user_of = {u.pk: u for u in get_user_model().objects.filter(pk__in=set(users.values()))}
    referee = services.referee_get()
    rows = list(DueWork.objects.filter(game_id__in=expiring, kind="deadline", status="pending").values_list("id", flat=True))
    per_tick = max(1, round(len(rows) / (ACTIVE_SECONDS * 10)))
    latencies: list[float] = []
    skipped = 0
    t0 = time.perf_counter()
    next_tick, next_sweep, i = t0, t0, 0
    while time.perf_counter() - t0 < ACTIVE_SECONDS:
        clock = time.perf_counter()
        if clock >= next_tick and rows:
            due, rows = rows[:per_tick], rows[per_tick:]
            DueWork.objects.filter(pk__in=due).update(due_at=now)
            next_tick += 0.1
        if clock >= next_sweep:
            app.send_task(SWEEP)
            next_sweep += 0.5
        gid = ordered[i % len(ordered)]
        i += 1
        state, _ = referee.current(gid)
        if not state.turn_started:
            skipped += 1  # its next turn has not started yet (the worker's job is queued)
            continue
        user = user_of[users[(gid, state.order[state.to_move])]]
        t = time.perf_counter()
        services.command_handle(game_id=gid, user=user, command_type="Hold", payload={})
        latencies.append(time.perf_counter() - t)
    elapsed = time.perf_counter() - t0
    last_sweep = [time.perf_counter()]

    def drained() -> bool:
        # Beat goes on sweeping after the stream stops: rows made due after the last sweep
        # of the loop are the next sweep's.
        if time.perf_counter() - last_sweep[0] >= 0.5:
            app.send_task(SWEEP)
            last_sweep[0] = time.perf_counter()
        return not DueWork.objects.filter(game_id__in=expiring, kind="deadline", status="pending",
                                          due_at__lte=now).exists()

    wait_until(drained, "the streamed deadlines")
    expired = DueWork.objects.filter(game_id__in=expiring, kind="deadline", status="done",
                                     result__startswith="referee played").exclude(key="turn:0:deadline").count()
    return {"seconds": elapsed, "orders": len(latencies), "latencies": latencies, "skipped": skipped,
            "expired": expired, "drain": time.perf_counter() - t0}


def exactly_once() -> Counter[tuple[int, int, int]]:
    """Per game: (DeadlineExpired notices, referee Hold orders, TurnStarted events)."""
    from django.db.models import Count, Q

    from referee.models import Game

    mine = Q(name__startswith="Service game") | Q(name__startswith="Bulk game")  # not the other scripts'
    rows = Game.objects.filter(mine).annotate(
        expired=Count("events", filter=Q(events__kind="notice", events__type="DeadlineExpired")),
        holds=Count("events", filter=Q(events__kind="command", events__type="Hold", events__actor_kind="referee")),
        started=Count("events", filter=Q(events__type="TurnStarted")),
    ).values_list("expired", "holds", "started")
    return Counter(rows)


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-scheduling-"))
    try:
        run(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run(tmp: Path) -> None:
    setup_environment(tmp)
    print(f"setting up {GAMES + RESERVED + IN_PROCESS:,} games ...", file=sys.stderr, flush=True)
    import celery
    import django
    import redis as redis_lib
    from django.db import connection

    from config.celery import app
    from referee import services
    from referee.models import DueWork

    load = os.getloadavg()
    # No socket timeout: the script blocks on BLPOP for up to minutes (redis-py's own default
    # of a few seconds turned a slow worker start-up into an error).
    redis = redis_lib.Redis.from_url(os.environ["REDIS_URL"], socket_timeout=None)
    redis.delete("celery", "unacked", "unacked_index", "bench:ready", "bench:done", "bench:sweeping",
                 "bench:sweeps", "bench:failures")
    with connection.cursor() as cur:
        cur.execute("SHOW server_version")
        pg_version = cur.fetchone()[0]
        cur.execute("SHOW fsync")
        fsync = cur.fetchone()[0]

    # set-up ------------------------------------------------------------------------------------
    t = time.perf_counter()
    service_ids = service_games(SERVICE_GAMES)
    t_service = time.perf_counter() - t
    t = time.perf_counter()
    bulk_ids = bulk_games(GAMES + RESERVED + IN_PROCESS - SERVICE_GAMES, service_ids[0])
    t_bulk = time.perf_counter() - t
    t = time.perf_counter()
    checked = check_setup(service_ids, bulk_ids)
    with connection.cursor() as cur:
        cur.execute("ANALYZE")
    t_check = time.perf_counter() - t
    app.conf.task_always_eager = False  # from here on every task goes through Redis
    deadline_at = set(DueWork.objects.filter(key="turn:0:deadline", kind="deadline", status=DueWork.Status.PENDING)
                      .values_list("due_at", flat=True))
    if deadline_at != {T0 + TURN_LIMIT * HOUR}:
        raise AssertionError(f"the deadlines are not all at one instant: {deadline_at}")
    game_ids = service_ids + bulk_ids
    storm_ids, reserved, in_process = (game_ids[:GAMES], game_ids[GAMES:GAMES + RESERVED],
                                       game_ids[GAMES + RESERVED:])
    after = T0 + (TURN_LIMIT + 1) * HOUR  # one hour past every deadline

    t = time.perf_counter()
    workers = Workers(tmp, redis)
    t_workers = time.perf_counter() - t
    try:
        # part 2 first, on idle workers: no-op tasks, no-op jobs, then real deadline jobs ------------
        print("round trips and bursts ...", file=sys.stderr, flush=True)
        done_keys = [(g, "turn:0:start") for g in storm_ids]  # ran at set-up: "nothing to do"
        for i in range(WARMUP):
            round_trip(redis, NOOP, (), f"bench-warm-noop-{i}")
            round_trip(redis, RUN, done_keys[i], f"bench-warm-job-{i}")
        t_noop_burst, noop_inside = burst(redis, NOOP, [()] * BURST, "bnoop")
        t_done_burst, done_inside = burst(redis, RUN, done_keys[-BURST:], "bdone")
        connects = [fresh_connection() for _ in range(ROUND_TRIPS // 5)]
        # Round trips interleaved task by task (a no-op, a job whose key is done, a real
        # deadline job), so that a change of the machine's load falls on all three alike.
        # Nothing sweeps; each real job runs its game's turn-1 start and notice itself,
        # under the same lock (no nudges), and the queue is left idle after it.
        wait_until(queue_idle_of(redis), "the queue to drain")
        set_now(after)
        trips: dict[str, list[tuple[float, float]]] = {"noop": [], "done": [], "real": []}
        s0 = pg_sessions()
        for i, g in enumerate(reserved):
            trips["noop"].append(round_trip(redis, NOOP, (), f"bench-noop-{i}"))
            trips["done"].append(round_trip(redis, RUN, done_keys[WARMUP + i], f"bench-done-{i}"))
            trips["real"].append(round_trip(redis, RUN, (g, "turn:0:deadline"), f"bench-real-{i}"))
            wait_until(queue_idle_of(redis), "the nudges of a real job", timeout=60)
        opened = (pg_sessions() - s0) / (3 * RESERVED)
        split = in_process_jobs(in_process)

        # part 1: the storm ------------------------------------------------------------------------
        claim_ms, claim_rows = claim_plan(after)
        print(f"{GAMES:,} deadlines ...", file=sys.stderr, flush=True)
        result = storm(redis, after)
        once = exactly_once()  # before part 3 adds expiries and orders of its own
        results = Counter(DueWork.objects.filter(key="turn:0:deadline", kind="deadline", game_id__in=game_ids)
                          .values_list("result", flat=True))
        print(f"{ACTIVE:,} active games for {ACTIVE_SECONDS:.0f} s ...", file=sys.stderr, flush=True)
        active = active_games(redis, storm_ids, after)
    finally:
        workers.kill()
    failures = [f.decode() for f in redis.lrange("bench:failures", 0, -1)]
    problems = workers.problems()
    sample = game_ids[::len(game_ids) // VERIFY_SAMPLE]
    verified = sum(services.referee_get().verify(g).ok for g in sample)

    # --- the table ------------------------------------------------------------------------------
    print(f"load average (1 min) at the start {load[0]:.2f}, at the end {os.getloadavg()[0]:.2f}: other work on "
          "the machine slows every figure")
    print(f"PostgreSQL {pg_version} (fsync={fsync}) and Redis on 127.0.0.1; Python {platform.python_version()}, "
          f"Django {django.get_version()}, Celery {celery.__version__}; {os.cpu_count()} CPUs")
    print(f"{WORKERS} workers (`celery worker --pool solo`, prefetch 1, acks_late), up in {t_workers:.1f} s; "
          f"clock injected through REFEREE_CLOCK_FILE")
    tab = Table()
    total = GAMES + RESERVED + IN_PROCESS
    tab.section(f"0. set-up: {total:,} started Pig games, reminders sent", "games", "seconds", "games/s")
    tab.row("real services (game_create, 2 seat_add, game_start + jobs)", f"{SERVICE_GAMES:,}",
            f"{t_service:.1f}", f"{SERVICE_GAMES / t_service:,.0f}")
    tab.row(f"  (so {total:,} through the services would take)", "", f"{total * t_service / SERVICE_GAMES:,.0f}", "")
    tab.row("bulk: Referee on the in-memory store, rows bulk_create'd", f"{total - SERVICE_GAMES:,}",
            f"{t_bulk:.1f}", f"{(total - SERVICE_GAMES) / t_bulk:,.0f}")
    tab.row(f"check: {checked} games alike, verify() ok, due rows = due_work_sync's", "", f"{t_check:.1f}", "")

    t_deadlines, t_all = result["deadlines"], result["everything"]
    tab.section(f"1. {GAMES:,} deadlines due at once, {SWEEPS} sweep tasks", "seconds", "games/s", "ms/game/worker")
    tab.row(f"sweep's claim of a batch, {GAMES:,} due (EXPLAIN ANALYZE; {claim_rows:,} rows read)",
            f"{claim_ms / 1000:.4f}", "", ms(claim_ms / 1000))
    tab.row("all deadlines expired (DeadlineExpired + referee Hold)", f"{t_deadlines:.1f}",
            f"{GAMES / t_deadlines:,.0f}", ms(WORKERS * t_deadlines / GAMES))
    tab.row("  and the turn-1 starts and notices they made due", f"{t_all:.1f}",
            f"{GAMES / t_all:,.0f}", ms(WORKERS * t_all / GAMES))
    tab.row("  the same scaled to 10,000 games (seconds)", f"{10_000 * t_deadlines / GAMES:.1f}", "", "")
    tab.row(f"  sweeps started on worker pids {', '.join(map(str, result['sweepers']))}", "", "", "")
    tab.row("  nudges queued meanwhile (the sweeps run what the expiries make due)", f"{result['queued']:,}", "", "")
    lat = active["latencies"]
    tab.section(f"3. {ACTIVE:,} active games, {active['seconds']:.0f} s: orders here, deadlines on the workers",
                "count", "per second", "p50 / p95 ms")
    tab.row(f"orders (Hold) in {ACTIVE // 2} games, from this one process", f"{active['orders']:,}",
            f"{active['orders'] / active['seconds']:,.0f}", f"{ms(statistics.median(lat))} / {ms(pct(lat, 95))}")
    tab.row("  (turns not started yet when their game came round again)", f"{active['skipped']:,}", "", "")
    tab.row(f"deadlines expired meanwhile in {ACTIVE - ACTIVE // 2} games (streamed, swept every 0.5 s)",
            f"{active['expired']:,}", f"{active['expired'] / active['drain']:,.0f}", "")
    good = sum(n for (expired, holds, _), n in once.items() if expired == holds == 1)
    twice = sum(n for (expired, holds, _), n in once.items() if expired > 1 or holds > 1)
    none = sum(n for (expired, holds, _), n in once.items() if expired == 0 or holds == 0)
    started = Counter()
    for (_, _, turns), n in once.items():
        started[turns] += n
    tab.section(f"exactly once, all {total:,} games, after the storm", "games", "", "")
    tab.row("with exactly 1 DeadlineExpired and 1 referee Hold", f"{good:,}", "", "")
    tab.row("with 2 or more expiries or referee Holds", f"{twice:,}", "", "")
    tab.row("with none", f"{none:,}", "", "")
    tab.row(f"full verify() (hash chain, re-adjudication) ok, of {len(sample)}", f"{verified}", "", "")
    for result_text, n in results.most_common():
        tab.row(f"turn:0:deadline result: {result_text[:60]}", f"{n:,}", "", "")
    tab.row("games whose turn 1 had started after the storm", f"{started[2]:,}", "", "")

    tab.section(f"2a. round trip, one task at a time, interleaved task by task ({ROUND_TRIPS} each)", "p50 ms",
                "p95 ms", "p99 ms", "in-worker p50", "p50 vs noop")
    base = statistics.median(rt for rt, _ in trips["noop"])
    labels = {"noop": "bench.noop (does nothing)", "done": "run_due_work, key already done",
              "real": f"run_due_work, a real deadline ({RESERVED}; + its turn start and notice)"}
    for kind, label in labels.items():
        rts, inside = [rt for rt, _ in trips[kind]], [s for _, s in trips[kind]]
        tab.row(label, ms(statistics.median(rts)), ms(pct(rts, 95)), ms(pct(rts, 99)),
                ms(statistics.median(inside)), f"{statistics.median(rts) / base:.2f}x")
    ratios = [real / noop for (real, _), (noop, _) in zip(trips["real"], trips["noop"], strict=True)]
    tab.row("  the real job / the no-op just before it, task by task: p50 of the ratios", "", "", "", "",
            f"{statistics.median(ratios):.2f}x")
    tab.row(f"new PostgreSQL sessions per task while they ran: {opened:.2f}")
    tab.row("a new Django connection: connect, SELECT 1, close", ms(statistics.median(connects)),
            ms(pct(connects, 95)), "", "", "")
    jobs, inside, trivial = split["job"], split["statements"], split["trivial"]
    outside = statistics.median(rt for rt, _ in trips["real"]) - statistics.median(s for _, s in trips["real"])
    tab.row(f"the real deadline job in this process, no Celery ({IN_PROCESS} more games)", ms(statistics.median(jobs)),
            ms(pct(jobs, 95)), ms(pct(jobs, 99)), "", "")
    tab.row(f"  of which in its {split['count']} statements (BEGIN and COMMIT not counted)",
            ms(statistics.median(inside)), "", "", "", "")
    tab.row("  the rest: Python, BEGIN and COMMIT", ms(statistics.median(j - i for j, i in zip(jobs, inside, strict=True))),
            "", "", "", "")
    tab.row("one trivial statement (SELECT 1) on this process's connection", ms(statistics.median(trivial)),
            ms(pct(trivial, 95)), "", "", "")
    floor = (split["count"] + 2) * statistics.median(trivial)
    tab.row(f"  {split['count']} + 2 round trips of a trivial statement: the job's floor before any work",
            ms(floor), "", "", "", f"{(floor + outside) / base:.2f}x")
    tab.row("  the time in the worker a job may take for 3x a no-op (3 x noop - the real job's outside)",
            ms(3 * base - outside), "", "", "", "")

    tab.section(f"2b. throughput, {WORKERS} workers", "tasks/s", "ms/task/worker", "in-worker p50", "vs noop")
    tab.row(f"bench.noop, burst of {BURST}", f"{BURST / t_noop_burst:,.0f}", ms(WORKERS * t_noop_burst / BURST),
            ms(statistics.median(noop_inside)), "1.00x")
    tab.row(f"run_due_work (key done), burst of {BURST}", f"{BURST / t_done_burst:,.0f}",
            ms(WORKERS * t_done_burst / BURST), ms(statistics.median(done_inside)),
            f"{t_done_burst / t_noop_burst:.2f}x")
    tab.row(f"deadlines in part 1's sweeps ({GAMES:,})", f"{GAMES / t_deadlines:,.0f}",
            ms(WORKERS * t_deadlines / GAMES), "", f"{(t_deadlines / GAMES) / (t_noop_burst / BURST):.2f}x")
    tab.print()

    from bench import results as shared

    real = statistics.median(rt for rt, _ in trips["real"])
    shared.record("deadlines.seconds_10k", 10_000 * t_deadlines / GAMES, games=GAMES)
    shared.record("deadlines.everything_10k", 10_000 * t_all / GAMES, games=GAMES)
    shared.record("deadlines.job_vs_noop", real / base)
    shared.record("active.orders_per_s", active["orders"] / active["seconds"])
    shared.record("active.expiries_per_s", active["expired"] / active["drain"])
    shared.record("active.order_p50_ms", statistics.median(lat) * 1000)
    shared.record("exactly_once.bad", twice + none)
    print()
    print(f"task failures reported by the workers: {len(failures)}; error lines in worker logs: {len(problems)}")
    for line in (failures + problems)[:10]:
        print("  " + line)


if __name__ == "__main__":
    main()
