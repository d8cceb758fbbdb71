"""A Parties tournament: N example bots (``clients.parties_bot``), each a separate process
talking HTTP to a real server, play one game to its end; then the log is verified as a
moderator (``POST /api/games/{id}/verify/``) and the ranking printed with its trophies.

Without a server URL it starts its own on a free loopback port (``runserver``) with a
Celery worker for the ticks, both on this process's database and broker, and stops them
afterwards. Everything is bounded: bots that have not finished by ``timeout`` are killed.
Only loopback addresses are accepted."""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clients.referee_client import RefereeAPIError, RefereeClient

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
TROPHY = {1: "🥇", 2: "🥈", 3: "🥉"}
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    return ORDINAL.get(n, f"{n}th")


@dataclass
class Options:
    bots: int = 8
    settings: dict[str, Any] = field(default_factory=dict)
    policies: tuple[str, ...] = ()
    timeout: float = 300.0
    name: str = "Parties tournament"
    seed: int = 1


@dataclass
class Outcome:
    game: str
    status: str
    ticks: int
    end_reason: str | None
    verified: bool | None
    verify_detail: str
    ranking: list[list[int]]
    standings: list[dict[str, Any]]
    bot_exit_codes: list[int | None]
    summary: str = ""

    def as_json(self) -> dict[str, Any]:
        return self.__dict__.copy()


def check_loopback(url: str) -> None:
    host = urllib.parse.urlsplit(url).hostname or ""
    if host not in LOOPBACK:
        raise ValueError(f"the tournament talks to loopback servers only, not {host!r}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_up(url: str, proc: subprocess.Popen[bytes], log: Path, seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited:\n{log.read_text()[-3000:]}")
        try:
            urllib.request.urlopen(url + "/health/", timeout=2)  # noqa: S310 - a loopback URL we built
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server did not answer within {seconds:.0f} s:\n{log.read_text()[-3000:]}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def database_url() -> str:
    """This process's database as a URL, for the server and worker it starts."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    if "sqlite" in db["ENGINE"]:
        return f"sqlite:///{db['NAME']}"
    auth = db.get("USER") or ""
    if db.get("PASSWORD"):
        auth += ":" + urllib.parse.quote(str(db["PASSWORD"]), safe="")
    return f"postgres://{auth}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


def unapplied_migrations() -> list[str]:
    from django.db import DEFAULT_DB_ALIAS, connections
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
    return [f"{m.app_label}.{m.name}" for m, _ in executor.migration_plan(executor.loader.graph.leaf_nodes())]


@contextmanager
def own_server(root: Path, workdir: Path, broker: str | None) -> Iterator[str]:
    """``runserver`` on a free loopback port and a Celery worker (ticks are timers: a worker
    must run them), on this process's database and broker; both stopped on the way out."""
    from django.conf import settings

    missing = unapplied_migrations()
    if missing:
        raise RuntimeError(f"the database lacks {len(missing)} migration(s) ({missing[0]} ...): run manage.py migrate")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings"),
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": broker or str(settings.CELERY_BROKER_URL),
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("REFEREE_CLOCK_FILE", None)  # a tournament runs on the real clock
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server_log, worker_log = workdir / "server.log", workdir / "worker.log"
    with server_log.open("wb") as slog, worker_log.open("wb") as wlog:
        server = subprocess.Popen(  # noqa: S603 - our own interpreter and manage.py
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
            cwd=root, env=env, stdout=slog, stderr=subprocess.STDOUT,
        )
        worker = subprocess.Popen(  # noqa: S603
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "--loglevel", "info",
             "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=root, env=env, stdout=wlog, stderr=subprocess.STDOUT,
        )
        try:
            wait_until_up(url, server, server_log)
            yield url
        finally:
            stop(server)
            stop(worker)


def moderator_token(client_for: Callable[[], RefereeClient]) -> str:
    """A fresh staff account of this process's database, signed in through the API."""
    from django.contrib.auth import get_user_model

    username, password = f"tournament-mod-{secrets.token_hex(4)}", secrets.token_urlsafe(18)
    get_user_model().objects.create_user(username=username, password=password, is_staff=True)
    client = client_for()
    client.login(username, password)
    return str(client.token)


def run_bots(root: Path, url: str, game: str, tokens: list[str], options: Options, workdir: Path,
             say: Callable[[str], None]) -> list[int | None]:
    procs = []
    for n, token in enumerate(tokens, start=1):
        args = [sys.executable, "-m", "clients.parties_bot", game, "--url", url, "--join", "--name", f"Bot {n}",
                "--seed", str(options.seed * 100 + n), "--quiet"]
        if options.policies:
            args += ["--ally-policy", options.policies[(n - 1) % len(options.policies)]]
        log = (workdir / f"bot{n}.log").open("wb")
        env = {**os.environ, "REFEREE_TOKEN": token, "PYTHONUNBUFFERED": "1"}
        procs.append((subprocess.Popen(args, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT), log))  # noqa: S603
    say(f"{len(procs)} bot processes started")
    end = time.monotonic() + options.timeout
    try:
        for proc, _ in procs:
            left = max(0.1, end - time.monotonic())
            try:
                proc.wait(timeout=left)
            except subprocess.TimeoutExpired:
                say("time is up: stopping the bots")
                break
    finally:
        for proc, log in procs:
            stop(proc)
            log.close()
    return [proc.returncode for proc, _ in procs]


def play(url: str, options: Options, *, root: Path, workdir: Path, say: Callable[[str], None],
         client_for: Callable[[str | None], RefereeClient] | None = None,
         mod_token: str | None = None) -> Outcome:
    check_loopback(url)
    make = client_for or (lambda token: RefereeClient(url, token=token))
    tag = secrets.token_hex(3)
    clients = []
    for n in range(1, options.bots + 1):
        c = make(None)
        c.signup(f"parties-{tag}-bot{n}", secrets.token_urlsafe(18))
        clients.append(c)
    tick_seconds = int(options.settings.get("tick_seconds", 10))
    game = clients[0].create_game(f"{options.name} {tag}", "parties", seats=options.bots,
                                  settings=options.settings, turn_limit_seconds=tick_seconds)
    gid = str(game["id"])
    say(f"game {gid}: {options.bots} bots, settings {json.dumps(options.settings, sort_keys=True)}")
    codes = run_bots(root, url, gid, [str(c.token) for c in clients], options, workdir, say)
    summary = clients[0].game(gid)
    position = clients[0].state(gid)["position"]
    verified, detail = None, "not verified"
    try:
        token = mod_token or moderator_token(lambda: make(None))
        report = make(token)._write("POST", f"/games/{gid}/verify/")
        verified = bool(report.get("ok"))
        detail = f"{report.get('records', '?')} records, {len(report.get('problems') or [])} problem(s)"
    except (RefereeAPIError, OSError) as exc:
        detail = f"could not verify: {exc}"
    result = summary.get("result") or {}
    return Outcome(
        game=gid, status=summary["status"], ticks=int(position.get("tick") or 0),
        end_reason=position.get("end_reason"), verified=verified, verify_detail=detail,
        ranking=[list(p) for p in result.get("ranking") or []],
        standings=standings(position, result, {int(s["number"]): s["name"] for s in summary.get("seats") or []}),
        bot_exit_codes=codes, summary=str(result.get("summary") or ""),
    )


def standings(position: dict[str, Any], result: dict[str, Any], names: dict[int, str]) -> list[dict[str, Any]]:
    bots = {int(b["seat"]): b for b in position.get("bots") or []}
    rows = []
    for place, seats in enumerate(result.get("ranking") or [], start=1):
        for seat in seats:
            bot = bots.get(int(seat), {})
            rows.append({"place": place, "seat": int(seat), "name": names.get(int(seat), f"seat {seat}"),
                         "score": bot.get("score"), "strength": bot.get("strength"),
                         "trophy": TROPHY.get(place, "")})
    return rows


def report_lines(outcome: Outcome) -> list[str]:
    verdict = {True: "ok", False: "FAILED", None: "not checked"}[outcome.verified]
    lines = [
        f"Game {outcome.game}: {outcome.status} after {outcome.ticks} tick(s)"
        + (f" ({outcome.end_reason})" if outcome.end_reason else ""),
        f"Log verification: {verdict} ({outcome.verify_detail})",
        "Ranking (score, strength breaking ties):",
    ]
    for row in outcome.standings:
        lines.append(f"  {row['trophy'] or '  '} {ordinal(row['place']):>4}  {row['name']} (seat {row['seat']})  "
                     f"score {row['score']}  strength {row['strength']}")
    return lines


def workspace() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="parties-tournament-")
