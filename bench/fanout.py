"""Readers on the game being played, against the production shape (docker-compose.yml): an
order's p50 with 500 server-sent-event streams and 100 long-polls open on the very game the
orders go to, beside the same orders with no reader open, interleaved over ``BENCH_ROUNDS``
rounds (default and minimum 3), on the same servers either way. Prints the figures and the
web and live processes' CPU; asserts no timings, only that every order was answered 201 and
that every reader received exactly the records its viewer may see, each once and in order
(a third of the readers are the seat that writes the private notes, a third the other seat,
a third the public).

The shape is production's: orders go to ``web`` (gunicorn, ``BENCH_WEB_WORKERS`` uvicorn
workers, 3), the streams and long-polls to ``live`` (a second gunicorn of
``BENCH_LIVE_WORKERS`` workers, 2, at ``nice`` ``BENCH_LIVE_NICE``, 10: compose gives it an
eighth of web's CPU share, about the same weight), on the same database, with Redis between them. The client sends each
request where the proxy (``deploy/nginx/referee.conf``) would. ``BENCH_LIVE_WORKERS=0``
puts the readers on ``web`` itself (one server for everything). The readers run in a
child process, so that parsing their bytes does not compete with the timed orders for this
interpreter.

    scripts/with_servers.sh .venv/bin/python bench/fanout.py
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.streams import AsgiServer, Orders, SseStream, _setup_database, open_streams  # noqa: E402

STREAMS = int(os.environ.get("BENCH_STREAMS", "500"))
POLLS = int(os.environ.get("BENCH_POLLS", "100"))
ORDERS = int(os.environ.get("BENCH_ORDERS", "40"))
ROUNDS = max(3, int(os.environ.get("BENCH_ROUNDS", "3")))
WORKERS = int(os.environ.get("BENCH_WEB_WORKERS", "3"))  # docker-compose.yml's web
#: The readers' server (docker-compose.yml's live): its workers (0: the readers on web) and
#: its niceness.
LIVE_WORKERS = int(os.environ.get("BENCH_LIVE_WORKERS", "2"))
LIVE_NICE = int(os.environ.get("BENCH_LIVE_NICE", "10"))
#: The readers' own process stands for clients on other machines: its niceness.
CLIENT_NICE = int(os.environ.get("BENCH_CLIENT_NICE", "0"))


class LongPoll:
    """One client long-polling ``/events/?after=..&wait=..`` in a loop, keeping every record."""

    def __init__(self, port: int, game_id: str, after: int, headers: dict[str, str]) -> None:
        self.port, self.game_id, self.after, self.headers = port, game_id, after, headers
        self.records: list[dict[str, Any]] = []
        self.answers = 0
        self.changed = asyncio.Event()

    async def get(self) -> tuple[int, dict[str, Any]]:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=2**22)
        try:
            lines = [f"GET /api/games/{self.game_id}/events/?after={self.after}&wait=25&limit=500 HTTP/1.1",
                     f"Host: 127.0.0.1:{self.port}", "Connection: close"]
            lines += [f"{k}: {v}" for k, v in self.headers.items()]
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
            await writer.drain()
            raw = await reader.read()
        finally:
            writer.close()
        head, _, body = raw.partition(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        if b"transfer-encoding: chunked" in head.lower():
            body = _unchunk(body)
        return status, json.loads(body or b"{}")

    async def run(self) -> None:
        while True:
            status, page = await self.get()
            if status != 200:
                raise AssertionError(f"a long-poll answered {status}: {page}")
            self.answers += 1
            self.records.extend(page["events"])
            self.after = page["next_after"]
            self.changed.set()

    async def until(self, count: int, timeout: float) -> bool:
        end = time.monotonic() + timeout
        while len(self.records) < count:
            left = end - time.monotonic()
            if left <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return len(self.records) >= count
        return True


def _unchunk(body: bytes) -> bytes:
    out = b""
    while body:
        size_line, _, body = body.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out, body = out + body[:size], body[size + 2:]
    return out


def own_cpu_seconds(pid: int) -> float:
    """User + system CPU of the process ``pid`` itself."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of the gunicorn workers (the children of ``pid``)."""
    ticks = os.sysconf("SC_CLK_TCK")
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    total = 0
    for child in children:
        try:
            fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / ticks


def main() -> None:
    database_url = _setup_database()
    from rest_framework.authtoken.models import Token

    from games.base import PUBLIC, Viewer
    from referee import selectors
    from tests.factories import started_game

    game, seats = started_game()
    game_id = str(game.pk)
    tokens = [Token.objects.create(user=s.user).key for s in seats]
    # Who reads: the seat whose notes are private to it, the other seat, the public.
    kinds = [({"Authorization": f"Token {tokens[0]}"}, Viewer.for_seat(seats[0].number)),
             ({"Authorization": f"Token {tokens[1]}"}, Viewer.for_seat(seats[1].number)),
             ({}, PUBLIC)]
    var = Path(os.environ.get("REFEREE_VAR_DIR", "/tmp")) / "bench-fanout"
    load_at_start = os.getloadavg()
    rows: list[tuple[float, float, float, float, float, float]] = []
    loads: list[float] = []
    clients: list[float] = []
    with contextlib.ExitStack() as servers:
        server = servers.enter_context(AsgiServer(database_url, var, workers=WORKERS))
        live = servers.enter_context(AsgiServer(database_url, var / "live", workers=LIVE_WORKERS, nice=LIVE_NICE)) \
            if LIVE_WORKERS else server
        orders = Orders(server.port, tokens[0])
        orders.many(game_id, 20, "warm-up")
        for round_ in range(ROUNDS):
            sides = ("none", "readers") if round_ % 2 == 0 else ("readers", "none")
            took: dict[str, tuple[float, float, float, float, float]] = {}
            for side in sides:
                if side == "none":
                    cpu = cpu_seconds(server.proc.pid)
                    started = time.perf_counter()
                    times = orders.many(game_id, ORDERS, f"round {round_} alone")
                    took[side] = (statistics.median(times), cpu_seconds(server.proc.pid) - cpu,
                                  time.perf_counter() - started, 0.0, 0.0)
                else:
                    took[side] = with_readers(server, live, orders, game_id, kinds, round_, selectors)
            none, readers = took["none"], took["readers"]
            rows.append((none[0], readers[0], readers[0] / none[0], readers[1] / readers[2], none[1] / none[2],
                         readers[3] / readers[2]))
            loads.append(os.getloadavg()[0])
            live_cpu = f", live CPU {readers[3] / readers[2]:.0%}" if live is not server else ""
            live_cpu += f", the readers' client CPU {readers[4] / readers[2]:.0%}"
            clients.append(readers[4] / readers[2])
            print(f"round {round_ + 1}: order p50 {none[0] * 1000:.1f} ms with no reader, "
                  f"{readers[0] * 1000:.1f} ms with {STREAMS} streams and {POLLS} long-polls on the game "
                  f"(x{readers[0] / none[0]:.2f}); web CPU {readers[1] / readers[2]:.0%} vs {none[1] / none[2]:.0%}"
                  f"{live_cpu}; load {loads[-1]:.1f}", flush=True)
    ratios = [r[2] for r in rows]
    print()
    print(f"load average {load_at_start[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end; "
          f"(after each round {spread(loads, '{:.1f}')}); {os.cpu_count()} cores; web: gunicorn with {WORKERS} uvicorn "
          f"workers; {f'the readers on live: {LIVE_WORKERS} workers at nice {LIVE_NICE}' if LIVE_WORKERS else 'the readers on web'}"
          f"; {ROUNDS} interleaved rounds of "
          f"{ORDERS} orders per side, min / median / max")
    print(f"order p50, no reader open:             {spread([r[0] * 1000 for r in rows], '{:.1f}')} ms")
    print(f"order p50, {STREAMS} streams + {POLLS} long-polls: {spread([r[1] * 1000 for r in rows], '{:.1f}')} ms")
    print(f"ratio (goal <= 2):                     {spread(ratios)}")
    print(f"web processes' CPU while ordering:     {spread([r[3] * 100 for r in rows], '{:.0f}')} % with readers, "
          f"{spread([r[4] * 100 for r in rows], '{:.0f}')} % without")
    if LIVE_WORKERS:
        print(f"live processes' CPU while ordering:    {spread([r[5] * 100 for r in rows], '{:.0f}')} %")
    print(f"the readers' client (nice {CLIENT_NICE}):      {spread([c * 100 for c in clients], '{:.0f}')} % CPU")
    print("every reader received every record its viewer may see, exactly once and in order")
    from bench import results

    results.record("fanout.order_p50_ratio", ratios, streams=STREAMS, polls=POLLS)


def spread(values: list[float], fmt: str = "{:.2f}") -> str:
    from bench.results import spread as of

    return of(values, fmt)


def with_readers(server: AsgiServer, live: AsgiServer, orders: Orders, game_id: str,
                 kinds: list[tuple[dict[str, str], Any]], round_: int,
                 selectors: Any) -> tuple[float, float, float, float, float]:
    """Open the readers on the played game (in a child process: parsing 600 readers' bytes
    must not compete with the orders' timing for this interpreter), time the orders, then
    check what each reader got."""
    start = {viewer: selectors.viewer_log_position(game_id=game_id, viewer=viewer) for _, viewer in kinds}
    per_kind = [(STREAMS // len(kinds) + (i < STREAMS % len(kinds)), POLLS // len(kinds) + (i < POLLS % len(kinds)))
                for i in range(len(kinds))]
    specs = [(headers, start[viewer], n_streams, n_polls)
             for (headers, viewer), (n_streams, n_polls) in zip(kinds, per_kind, strict=True)]
    ctx = multiprocessing.get_context("spawn")
    ours, theirs = ctx.Pipe()
    child = ctx.Process(target=readers_child, args=(theirs, live.port, game_id, specs, CLIENT_NICE), daemon=True)
    child.start()
    try:
        _expect(ours, "ready", 180)
        cpu, live_cpu, client_cpu = cpu_seconds(server.proc.pid), cpu_seconds(live.proc.pid), own_cpu_seconds(child.pid)
        started = time.perf_counter()
        times = orders.many(game_id, ORDERS, f"round {round_} with readers")
        took = (statistics.median(times), cpu_seconds(server.proc.pid) - cpu, time.perf_counter() - started,
                cpu_seconds(live.proc.pid) - live_cpu if live is not server else 0.0, own_cpu_seconds(child.pid) - client_cpu)
        expected = [selectors.game_events_list(game_id=game_id, viewer=viewer, after=start[viewer])
                    for _, viewer in kinds]
        assert any(e["type"] == "NoteWritten" for e in expected[0])
        assert not any(e["type"] == "NoteWritten" for feed in expected[1:] for e in feed), "another viewer sees the notes"
        ours.send(expected)
        _expect(ours, "checked", 180)
    finally:
        child.join(30)
        if child.is_alive():
            child.kill()
    time.sleep(1.0)  # the server lets them go
    return took


def _expect(conn: Any, what: str, timeout: float) -> None:
    if not conn.poll(timeout):
        raise AssertionError(f"the readers' process did not report {what!r} in {timeout:.0f} s")
    got, detail = conn.recv()
    if got != what:
        raise AssertionError(f"the readers' process: {detail}")


def readers_child(conn: Any, port: int, game_id: str, specs: list[tuple[dict[str, str], int, int, int]],
                  nice: int) -> None:
    """In a child process: per viewer kind, its streams and long-polls from its start; reports
    "ready" once they wait, then checks each against the feed the parent sends."""
    try:
        os.nice(nice)
        asyncio.run(_readers(conn, port, game_id, specs))
    except BaseException as exc:  # the parent must hear of it, not wait
        conn.send(("failed", f"{type(exc).__name__}: {exc}"))
        raise


async def _readers(conn: Any, port: int, game_id: str, specs: list[tuple[dict[str, str], int, int, int]]) -> None:
    streams: list[list[SseStream]] = []
    polls: list[list[LongPoll]] = []
    tasks: list[asyncio.Task[None]] = []
    for headers, after, n_streams, n_polls in specs:
        opened = await open_streams(port, f"/api/games/{game_id}/stream/?after={after}", n_streams, headers)
        assert all(s.status == 200 for s in opened), "a stream was refused"
        streams.append(opened)
        polls.append([LongPoll(port, game_id, after, headers) for _ in range(n_polls)])
        tasks += [asyncio.get_running_loop().create_task(p.run()) for p in polls[-1]]
    await asyncio.sleep(2.0)  # every long-poll has sent its first request and waits
    conn.send(("ready", None))
    expected = await asyncio.get_running_loop().run_in_executor(None, conn.recv)
    try:
        for feed, kind_streams, kind_polls in zip(expected, streams, polls, strict=True):
            want = len(feed)
            for s in kind_streams:
                assert await s.until(lambda s, want=want: len(s.records) >= want, 60), "a stream fell silent"
                assert s.records == feed, f"a stream got {len(s.records)} records, not its viewer's {want}"
            for p in kind_polls:
                assert await p.until(want, 60), "a long-poll fell silent"
                assert p.records == feed, f"a long-poll got {len(p.records)} records, not its viewer's {want}"
    finally:
        for kind_streams in streams:
            for s in kind_streams:
                s.close()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    conn.send(("checked", None))


if __name__ == "__main__":
    main()
