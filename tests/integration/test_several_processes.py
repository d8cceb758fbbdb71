"""Several web processes and workers on one PostgreSQL: two web processes (gunicorn with a
uvicorn worker each, as docker-compose.yml serves) and three Celery workers, on the test
database and Redis, with a game of every ruleset played at once over HTTP with tokens,
each order through one process and read back through the other.

What must hold: every log verifies; no due work runs twice (the workers' sweeps race for
the same games, and the web processes nudge them as well); and each process's own caches
(positions, viewers' numberings, the live fan-out's tail, the long-poll's grants) give what
a fresh computation gives when the other process wrote the game last."""

from __future__ import annotations

import datetime as dt
import json
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from bench.streams import AsgiServer
from config.celery import app
from games.base import Viewer
from referee import core, services
from referee.clock import set_fake_now
from referee.instance import referee_get
from referee.models import DueWork, Event, Game
from referee.tasks import sweep_due_work
from tests.factories import ModeratorFactory, UserFactory
from tests.integration.test_celery_worker import Worker, _reset_producer_pool
from tests.integration.test_streams import database_url
from tests.record_games import GAMES

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

#: Real seconds of play on the real clock (ticks and rounds come due as they would), then
#: ``JUMPS`` times every process's clock a day and more ahead, every ``JUMP_EVERY`` seconds
#: (the deadlines of Worms' and LGGWG's silent seats come due, and the workers race for them).
PLAY_SECONDS = 12
JUMPS = 4
JUMP_EVERY = 4
AHEAD = dt.timedelta(hours=25)
#: A seat that never plays in these rulesets: the referee plays it at its deadlines.
SILENT = {"worms": 2, "lggwg": 2}
#: Quick turns: a Parties tick of 2 s, a Wormlord round of a minute, an LGGWG turn of a minute.
TURN_LIMITS = {"worms": 24 * 3600, "wormlord": 60, "parties": 2, "lggwg": 60}
MORE = {"parties": {"max_ticks": 40}}


@pytest.mark.django_db  # pytest-django sets the test database up only for a module with one
def test_every_shipped_ruleset_is_played():
    assert set(GAMES) == set(TURN_LIMITS) == {"worms", "wormlord", "parties", "lggwg"}


class Http:
    """One web process, as a player with a token sees it."""

    def __init__(self, server: AsgiServer) -> None:
        self.url = server.url

    def call(self, method: str, path: str, token: str, body: Any = None, timeout: float = 30) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")


class Table:
    """A game of one ruleset and its players' tokens."""

    def __init__(self, ruleset: str) -> None:
        settings, seats, policy = GAMES[ruleset]
        users = [UserFactory() for _ in range(seats)]
        game = services.game_create(name=f"several {ruleset}", ruleset=ruleset, created_by=users[0],
                                    settings={**settings, **MORE.get(ruleset, {})}, seats=seats,
                                    deadline_policy=policy, turn_limit_seconds=TURN_LIMITS[ruleset])
        for user in users:
            services.seat_add(game=game, user=user, name=user.username)
        services.game_start(game=game)
        self.id = str(game.pk)
        self.ruleset = ruleset
        self.tokens = {n: Token.objects.get_or_create(user=u)[0].key for n, u in enumerate(users, start=1)}
        self.rules = referee_get().ruleset_for(referee_get().store.get_game(self.id))
        self.accepted = 0
        self.refused: list[Any] = []
        self.checked = 0
        self.rng = random.Random(ruleset)

    def finished(self) -> bool:
        return Game.objects.filter(pk=self.id, status=Game.Status.FINISHED).exists()

    def orders(self) -> Iterator[tuple[int, str, dict[str, Any]]]:
        """An order worth trying now for a seat the game waits for, chosen from the log."""
        state, _ = referee_get().current(self.id)
        acting = sorted(self.rules.to_act(state))
        for seat in acting:  # (the silent seat too: a deadline bot does not write shopping lists)
            for command in self.rules.demo_orders(state, seat):  # Worms' shopping lists
                body = {k: v for k, v in self.rules.command_to_data(command).items() if k not in ("actor", "at_ms")}
                yield seat, type(command).__name__, body
        acting = [seat for seat in acting if seat != SILENT.get(self.ruleset)]
        if self.ruleset == "worms" and acting:
            yield acting[0], "EndTurn", {}
        elif self.ruleset == "parties":
            for seat in acting:
                yield seat, "Move", {"direction": self.rng.choice(["N", "E", "S", "W", "stay"])}
        elif self.ruleset == "lggwg":
            for seat in acting:
                yield seat, "SubmitOrders", {"orders": []}
        elif self.ruleset == "wormlord":
            from games.wormlord import bot
            from tests.unit.games.wormlord.wormlord_helpers import RandomDice

            now_ms = int(referee_get().clock().timestamp() * 1000)
            for seat in range(1, len(self.tokens) + 1):
                command = bot.choose(state, seat, RandomDice(self.rng), now_ms)
                if command is not None:
                    body = {k: v for k, v in self.rules.command_to_data(command).items() if k not in ("actor", "at_ms")}
                    yield seat, type(command).__name__, body


def fresh_view(game_id: str, seat: int, seq: int) -> dict[str, Any]:
    """The seat's position at ``seq`` as a process that has never seen the game computes it
    (this process's positions forgotten first; the web processes are not this one)."""
    core.POSITIONS.clear()
    return referee_get().view(game_id, Viewer.for_seat(seat), seq)


def play(table: Table, writer: Http, reader: Http, problems: list[str], until: float) -> None:
    """Orders through ``writer``, each read back through ``reader`` (a long-poll from before
    the order, the state against a fresh computation, the feed against the writer's), the
    two processes swapping after each order. The long-poll follows a full read of the feed by
    the same token within a second, so it is answered from the reader's grants and its
    fan-out's tail."""
    from django.db import connection

    try:
        while time.monotonic() < until and not table.finished():
            sent = False
            for seat, kind, payload in table.orders():
                token = table.tokens[seat]
                status, page = reader.call("GET", f"/api/games/{table.id}/events/?limit=500", token)
                assert status == 200, page
                before = page["next_after"]
                status, answer = writer.call("POST", f"/api/games/{table.id}/commands/", token,
                                             {"type": kind, "payload": payload})
                if status != 201:
                    table.refused.append((kind, payload, status, answer))
                    continue  # the game moved on (a tick, a deadline) between the choice and the order
                sent = True
                table.accepted += 1
                # The long-poll through the other process hears of the order (the fan-out's tail there).
                status, polled = reader.call("GET", f"/api/games/{table.id}/events/?after={before}&wait=10", token)
                if status != 200 or not polled["events"]:
                    problems.append(f"{table.ruleset}: a long-poll through the other process missed the order "
                                    f"({status} {polled})")
                # Its state is at least as late as the order, and is the state a fresh
                # computation gives at the seq it says (the seat's numbering, as the answer's).
                status, state = reader.call("GET", f"/api/games/{table.id}/state/", token)
                assert status == 200, state
                if state["seq"] < answer["seq"]:
                    problems.append(f"{table.ruleset}: the other process's state is at {state['seq']}, "
                                    f"before the order ({answer['seq']})")
                expected = fresh_view(table.id, seat, state["seq"])
                if state["position"] != json.loads(json.dumps(expected["position"])):
                    problems.append(f"{table.ruleset}: the other process's state at {state['seq']} is not the log's")
                # Its feed holds the order, numbered as the writer numbers it.
                status, page = reader.call("GET", f"/api/games/{table.id}/events/?limit=500", token)
                assert status == 200, page
                if page["next_after"] < answer["seq"]:
                    problems.append(f"{table.ruleset}: the other process's feed ends at {page['next_after']}, "
                                    f"before the order ({answer['seq']})")
                status, again = writer.call("GET", f"/api/games/{table.id}/events/?limit=500", token)
                shared = min(len(page["events"]), len(again["events"]))
                if page["events"][:shared] != again["events"][:shared]:
                    problems.append(f"{table.ruleset}: the two processes number the feed differently")
                table.checked += 1
                writer, reader = reader, writer
                break
            if not sent:
                time.sleep(0.3)
    except Exception as exc:  # a thread's failure is the test's
        problems.append(f"{table.ruleset}: {type(exc).__name__}: {exc}")
    finally:
        connection.close()


class AheadClock:
    """The clock of every process (``REFEREE_CLOCK_FILE``): the real one while the file is
    missing; once ``ahead`` is called, the real time plus the offset, kept written by a
    thread; ``freeze`` stops it where it is."""

    def __init__(self, path: Any) -> None:
        self.path = path
        self.offset: dt.timedelta | None = None
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def now(self) -> dt.datetime:
        return dt.datetime.now(dt.UTC) + (self.offset or dt.timedelta())

    def ahead(self, offset: dt.timedelta) -> None:
        self.offset = (self.offset or dt.timedelta()) + offset
        set_fake_now(self.path, self.now())
        if self.thread.ident is None:  # started once; it writes the clock until frozen
            self.thread.start()

    def _run(self) -> None:
        while not self.stopped.wait(0.1):
            set_fake_now(self.path, self.now())

    def freeze(self) -> dt.datetime:
        self.stopped.set()
        if self.thread.is_alive():
            self.thread.join()
        instant = self.now()
        set_fake_now(self.path, instant)
        return instant


@pytest.fixture
def cluster(committed, tmp_path, monkeypatch) -> Iterator[dict[str, Any]]:
    import os

    clock = AheadClock(tmp_path / "clock")
    monkeypatch.setenv("REFEREE_CLOCK_FILE", str(clock.path))
    broker = os.environ["REDIS_URL"]
    saved = (app.conf.task_always_eager, app.conf.broker_url)
    app.conf.task_always_eager, app.conf.broker_url = False, broker
    _reset_producer_pool()
    processes: list[Any] = []
    try:
        env = {"CELERY_TASK_ALWAYS_EAGER": "0", "CELERY_BROKER_URL": broker, "REFEREE_OUTAGE_SECONDS": str(10**9)}
        workers = [Worker(broker, clock.path) for _ in range(3)]  # they start while the web processes do
        processes += workers
        servers = [AsgiServer(database_url(), tmp_path / f"web{n}", workers=1, extra_env=env) for n in range(2)]
        processes += servers
        _wait_for_workers(len(workers))
        yield {"web": [Http(s) for s in servers], "workers": workers, "clock": clock}
    finally:
        clock.freeze()
        for process in processes:
            process.stop()
        app.conf.task_always_eager, app.conf.broker_url = saved
        _reset_producer_pool()


def _wait_for_workers(count: int) -> None:
    """Until every worker answers (a worker takes seconds to start on a busy machine, and a
    game's first jobs would wait for it)."""
    end = time.monotonic() + 90
    while len(app.control.ping(timeout=1.0) or []) < count:
        assert time.monotonic() < end, "the workers did not start"


def _sweeps(workers: list[Worker]) -> None:
    """A sweep for each worker at once: they race for the same games."""
    for _ in workers:
        sweep_due_work.delay()


def test_two_web_processes_and_three_workers_play_every_ruleset_at_once(cluster):
    a, b = cluster["web"]
    clock: AheadClock = cluster["clock"]
    tables = [Table(ruleset) for ruleset in GAMES]
    problems: list[str] = []
    started = time.monotonic()
    until = started + PLAY_SECONDS + JUMPS * JUMP_EVERY
    players = [threading.Thread(target=play, args=(t, (a, b)[i % 2], (b, a)[i % 2], problems, until))
               for i, t in enumerate(tables)]
    for thread in players:
        thread.start()
    jumps = [started + PLAY_SECONDS + n * JUMP_EVERY for n in range(JUMPS)]
    while any(thread.is_alive() for thread in players):
        time.sleep(1)
        if jumps and time.monotonic() > jumps[0]:
            jumps.pop(0)
            clock.ahead(AHEAD)
        _sweeps(cluster["workers"])
    for thread in players:
        thread.join()
    assert not problems, "\n".join(problems)
    for table in tables:
        assert table.accepted >= 2 and table.checked == table.accepted, "\n".join(map(str, (
            table.ruleset, table.accepted, table.refused[-3:],
            list(Event.objects.filter(game_id=table.id).values_list("type", flat=True))[-12:],
            *DueWork.objects.filter(game_id=table.id).values_list("key", "kind", "status", "due_at", "result"))))

    # The clock stops; what is due by then runs, and nothing due is left.
    now = clock.freeze()
    end = time.monotonic() + 60
    while DueWork.objects.filter(game_id__in=[t.id for t in tables], status=DueWork.Status.PENDING,
                                 due_at__lte=now).exists():
        assert time.monotonic() < end, "the workers did not run the due work"
        _sweeps(cluster["workers"])
        time.sleep(0.5)

    moderator = ModeratorFactory()
    token = Token.objects.get_or_create(user=moderator)[0].key
    deadlines = 0
    for n, table in enumerate(tables):
        status, verified = (a, b)[n % 2].call("POST", f"/api/games/{table.id}/verify/", token)
        assert status == 200 and verified["ok"], (table.ruleset, verified)
        assert referee_get().verify(table.id).ok
        # No due work ran twice: each row that ran has one record of its key in the log, and
        # no key has a record without a row that ran.
        ran = {}
        for row in DueWork.objects.filter(game_id=table.id, status=DueWork.Status.DONE):
            if row.kind in (DueWork.Kind.NOW, DueWork.Kind.AT, DueWork.Kind.DEADLINE) and (
                    row.result.startswith(("ran", "referee played"))):
                ran[row.key] = row
                deadlines += row.kind == DueWork.Kind.DEADLINE
        keyed = list(Event.objects.filter(game_id=table.id, kind="command", idempotency_key__in=list(ran))
                     .values_list("idempotency_key", flat=True))
        assert sorted(keyed) == sorted(ran), (table.ruleset, sorted(keyed), sorted(ran))
    assert deadlines >= JUMPS, f"{deadlines} deadlines came due: the test did not test what it says"
    logs = "".join(worker.output() for worker in cluster["workers"])
    assert "left for the next sweep" not in logs and "Traceback" not in logs, logs[-4000:]
