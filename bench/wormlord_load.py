"""Wormlord under load through the real server: 4, then 8, scripted clients (each a bot
over HTTP, clients/wormlord_bot.py) place knots as fast as the knot interval allows for
whole rounds of the time-limit variant (60 s), while every client listens to its own
server-sent-event stream. Prints, for each table, the time from an accepted knot (the
referee's own stamp, ``KnotPlaced.at_ms``) until every other client's stream delivered it:
p50/p99 per round, then the p99's min/median/max over the rounds. Asserts only correctness:
every accepted order is in the log exactly once (and nothing else from the players), every
stream saw every knot with no gap in its numbering (a record's events share its seq; a
knot a stream got twice is counted and printed: a race in the generic feed), and verify
passes.

    scripts/with_servers.sh .venv/bin/python bench/wormlord_load.py     (or: make bench-wormlord)

The server is ``gunicorn config.asgi:application`` with uvicorn workers
(``bench.streams.AsgiServer``) on a free loopback port, on the PostgreSQL that
``scripts/with_servers.sh`` starts, with one real Celery worker on its Redis for the round
clock (``Work(when="at")`` goes to the worker with an ETA). Loopback only; bounded:
``BENCH_WORMLORD_ROUNDS`` rounds a table (default 2), each client at most
``BENCH_WORMLORD_MAX_REQUESTS`` requests (default 2000), the whole table at most
``BENCH_WORMLORD_MAX_SECONDS`` (default 300). The 8 clients play the team variant (§7.1):
4 colours, two clients each, sharing one string and one knot interval.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-a-secret-" + "x" * 30)
os.environ.setdefault("LOG_LEVEL", "WARNING")

from bench.streams import AsgiServer  # noqa: E402
from clients.referee_client import RefereeAPIError, RefereeClient  # noqa: E402
from clients.wormlord_bot import WormlordBot  # noqa: E402

ROUNDS = int(os.environ.get("BENCH_WORMLORD_ROUNDS", "2"))
MAX_REQUESTS = int(os.environ.get("BENCH_WORMLORD_MAX_REQUESTS", "2000"))
MAX_SECONDS = float(os.environ.get("BENCH_WORMLORD_MAX_SECONDS", "300"))
KNOT_MS = int(os.environ.get("BENCH_WORMLORD_KNOT_MS", "1000"))
SETTINGS = {"time_limit": True, "round_seconds": 60, "knot_interval_ms": KNOT_MS, "untie_ms": 500,
            "countdown_ms": 3000, "break_ms": 3000}


def now_ms() -> int:
    return int(time.time() * 1000)


class Stream(threading.Thread):
    """One client's ``GET /stream/``: every record with the moment it arrived (ms)."""

    def __init__(self, port: int, game: str, token: str) -> None:
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.conn.request("GET", f"/api/games/{game}/stream/", headers={
            "Authorization": f"Token {token}", "Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        if self.response.status != 200:
            raise RuntimeError(f"stream answered {self.response.status}: {self.response.read()[:300]!r}")
        self.records: list[tuple[int, dict[str, Any]]] = []  # (arrived ms, record)
        self.closing = False

    def run(self) -> None:
        data: list[str] = []
        try:
            while not self.closing:
                line = self.response.readline()
                if not line:
                    break
                text = line.decode().rstrip("\n")
                if text.startswith("data:"):
                    data.append(text[5:].lstrip())
                elif text == "" and data:
                    self.records.append((now_ms(), json.loads("\n".join(data))))
                    data = []
        except Exception:  # noqa: BLE001 - closed by ``close`` at the end of the table (http.client then fails oddly)
            if not self.closing:
                raise

    def close(self) -> None:
        self.closing = True
        try:
            if self.conn.sock is not None:
                self.conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.conn.close()


class Counted:
    """A transport wrapper that counts requests and stops a client at its bound."""

    def __init__(self, inner: Any, limit: int) -> None:
        self.inner, self.limit, self.count = inner, limit, 0

    def __call__(self, method: str, path: str, body: Any, headers: dict[str, str]) -> tuple[int, Any]:
        self.count += 1
        if self.count > self.limit:
            raise RuntimeError(f"more than {self.limit} requests")
        return self.inner(method, path, body, headers)


def play(bot: WormlordBot, last_round: int, deadline: float) -> None:
    """The bot's own loop (``WormlordBot.run``), stopping once ``last_round`` is over."""
    def done(p: dict[str, Any]) -> bool:
        rnd = p.get("round") or 0
        return rnd > last_round or (rnd == last_round and p.get("phase") == "break")

    bot.run(max_seconds=max(1.0, deadline - time.monotonic()), max_orders=MAX_REQUESTS, stop=done)


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def table(server: AsgiServer, tokens: list[str], mod_token: str, n: int) -> list[dict[str, float]]:
    from clients.referee_client import UrllibTransport

    teams = n > 4
    clients = [RefereeClient(server.url, token=t, transport=Counted(UrllibTransport(server.url), MAX_REQUESTS))
               for t in tokens[:n]]
    game = clients[0].create_game(f"Load {n}", "wormlord", seats=n, settings={**SETTINGS, "teams": teams})["id"]
    # the last seat starts the game; each stream opens as its seat (it replays from the start,
    # and the first knot comes a countdown and a knot interval later)
    seats = [client.join(game, f"Bot {i + 1}")["seat"] for i, client in enumerate(clients)]
    streams = [Stream(server.port, game, token) for token in tokens[:n]]
    for s in streams:
        s.start()
    bots = [WormlordBot(c, game, s, seed=s) for c, s in zip(clients, seats, strict=True)]
    deadline = time.monotonic() + MAX_SECONDS
    threads = [threading.Thread(target=play, args=(b, ROUNDS, deadline), daemon=True) for b in bots]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=MAX_SECONDS + 30)
    took = time.monotonic() - started
    time.sleep(1.0)  # the last records reach every stream
    for s in streams:
        s.close()

    mod = RefereeClient(server.url, token=mod_token)
    log = mod.log(game)
    verify = mod._call("POST", f"/games/{game}/verify/")
    assert verify["ok"], verify

    # nothing lost or doubled: the players' orders in the log are exactly the accepted ones
    logged = Counter((r["actor"]["seat"], r["type"], json.dumps(_order_payload(r), sort_keys=True)) for r in log
                     if r["kind"] == "command" and r["actor"]["kind"] == "player")
    accepted = Counter((b.seat, p.type, json.dumps(p.payload, sort_keys=True)) for b in bots for p in b.placed)
    assert logged == accepted, f"log and accepted orders differ: {(logged - accepted) + (accepted - logged)}"
    knots = [r for r in log if r["type"] == "KnotPlaced"]
    assert len(knots) == sum(1 for b in bots for p in b.placed if p.type in ("Conquer", "Liberate"))

    # every stream: numbered 1, 2, 3 ... without gaps or repeats; every knot exactly once
    colour_of = {seat: c for seat, c in zip(seats, _colours(n, teams), strict=True)}
    lateness: dict[int, list[float]] = {}
    round_of = _rounds(log)
    doubled = 0
    for i, s in enumerate(streams):
        # a record's events share its seq: numbers never go back, and none is skipped
        numbers = [r["seq"] for _, r in s.records]
        assert numbers == sorted(numbers) and sorted(set(numbers)) == list(range(1, max(numbers, default=0) + 1)), \
            f"stream {i}: gaps or going back: {numbers}"
        seen = Counter(_knot_key(r) for _, r in s.records if r["type"] == "KnotPlaced")
        assert len(seen) == len(knots), f"stream {i}: saw {len(seen)} of {len(knots)} knots"
        # Known generic-layer race (referee/core.py ``Referee.feed``): a record appended while
        # a feed is read can be sent again under the next number. Counted, not hidden.
        doubled += sum(v - 1 for v in seen.values())
    for k in knots:
        key = _knot_key(k)
        actor_colour = k["payload"]["colour"]
        arrivals = [next(t for t, r in s.records if r["type"] == "KnotPlaced" and _knot_key(r) == key)
                    for s, seat in zip(streams, seats, strict=True) if colour_of[seat] != actor_colour]
        lateness.setdefault(round_of(k["seq"]), []).append(max(arrivals) - k["payload"]["at_ms"])

    refused = Counter(rule for b in bots for _, rule, _ in b.refused)
    requests = sum(c.transport.count for c in clients)  # type: ignore[attr-defined]
    print(f"\n{n} clients{' (4 teams of 2)' if teams else ''}: {len(knots)} knots, "
          f"{sum(len(b.placed) for b in bots)} orders accepted, {sum(refused.values())} refused "
          f"({', '.join(f'{k}: {v}' for k, v in sorted(refused.items(), key=str))}), {requests} requests, "
          f"{took:.0f} s; log {len(log)} records, verify ok")
    if doubled:
        print(f"  WARNING: {doubled} knot(s) reached a stream twice under two numbers (the feed race in "
              "referee/core.py Referee.feed; the log itself holds each once)")
    rows = []
    for rnd in sorted(lateness):
        late = lateness[rnd]
        rows.append({"p50": statistics.median(late), "p99": pct(late, 99), "max": max(late)})
        print(f"  round {rnd}: {len(late)} knots, accepted -> every other client's stream: "
              f"p50 {rows[-1]['p50']:.0f} ms, p99 {rows[-1]['p99']:.0f} ms, max {rows[-1]['max']:.0f} ms")
    return rows


def _order_payload(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in (record.get("payload") or {}).items() if k not in ("actor", "at_ms")}


def _knot_key(record: dict[str, Any]) -> tuple[Any, ...]:
    p = record["payload"]
    return p["square"], p["colour"], p["at_ms"]


def _colours(n: int, teams: bool) -> list[str]:
    colours = ["pink", "blue", "yellow", "brown"]
    return [colours[i // 2] for i in range(n)] if teams else colours[:n]


def _rounds(log: list[dict[str, Any]]) -> Any:
    starts = [(r["seq"], r["payload"]["round"]) for r in log if r["type"] == "RoundStarted"]

    def round_of(seq: int) -> int:
        return max((rnd for s, rnd in starts if s < seq), default=0)

    return round_of


def main() -> None:
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")) or not os.environ.get(
            "REDIS_URL"):
        sys.exit("bench/wormlord_load.py needs PostgreSQL and Redis: "
                 "scripts/with_servers.sh .venv/bin/python bench/wormlord_load.py")
    os.environ.pop("REFEREE_CLOCK_FILE", None)
    redis = os.environ["REDIS_URL"]
    env = {"CELERY_BROKER_URL": redis, "CELERY_TASK_ALWAYS_EAGER": "0", "CACHE_URL": redis,
           "REFEREE_THROTTLE_USER": "100000/min", "REFEREE_THROTTLE_ANON": "100000/min"}
    os.environ.update(env)
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)
    from rest_framework.authtoken.models import Token

    from tests.factories import ModeratorFactory, UserFactory

    stamp = int(time.time())
    tokens = [Token.objects.get_or_create(user=UserFactory(username=f"wl-load-{stamp}-{i}"))[0].key for i in range(8)]
    mod_token = Token.objects.get_or_create(user=ModeratorFactory(username=f"wl-mod-{stamp}"))[0].key
    var = Path(os.environ.get("REFEREE_VAR_DIR", f"/tmp/wl-load-{os.getpid()}"))
    worker_env = {**os.environ, **env}
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "--loglevel", "warning",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"wl-load-{os.getpid()}@%h"],
        cwd=ROOT, env=worker_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    results: dict[int, list[dict[str, float]]] = {}
    try:
        with AsgiServer(os.environ["DATABASE_URL"], var / "wl-server", extra_env=env) as server:
            for n in (4, 8):
                results[n] = table(server, tokens, mod_token, n)
    except RefereeAPIError as exc:
        sys.exit(f"the server refused: {exc}")
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
    print(f"\nAccepted knot -> seen by every other client (server-sent events), {ROUNDS} rounds a table, "
          f"knot interval {KNOT_MS} ms, load {os.getloadavg()[0]:.1f}")
    print(f"{'clients':8} {'p99 ms min/median/max over rounds':>36} {'p50 ms median':>15}")
    for n, rows in results.items():
        p99 = [r["p99"] for r in rows]
        p50 = [r["p50"] for r in rows]
        print(f"{n:<8} {min(p99):14.0f}/{statistics.median(p99):6.0f}/{max(p99):6.0f}   {statistics.median(p50):13.0f}")
    print("nothing lost or doubled: every accepted order in the log once, every knot on every stream; verify ok")


if __name__ == "__main__":
    main()
