"""Idle live streams against the production shape (gunicorn with uvicorn workers): how long
an order takes with no streams open, and with 500 server-sent-event streams open. Prints
the figures; asserts no timings (only that every order was answered and every stream got
its records).

    scripts/with_servers.sh .venv/bin/python bench/streams.py

The pieces (``AsgiServer``, ``SseStream``, ``Orders``) are shared with
``tests/integration/test_streams.py``.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

T = TypeVar("T")
STREAMS = 500
ORDERS = 40  # per measurement


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class AsgiServer:
    """``gunicorn config.asgi:application -k config.asgi.Worker`` on a free loopback port,
    on the database of ``database_url``, as docker-compose.yml runs it."""

    def __init__(self, database_url: str, var_dir: Path, *, workers: int = 2, extra_env: dict[str, str] | None = None,
                 log: Path | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.settings",
            "DATABASE_URL": database_url,
            "CELERY_TASK_ALWAYS_EAGER": "1",
            "REFEREE_VAR_DIR": str(var_dir),
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "streams-test-not-a-secret-" + "x" * 30,
            **(extra_env or {}),
        }
        if os.environ.get("REDIS_URL") and "CACHE_URL" not in env:
            env["CACHE_URL"] = os.environ["REDIS_URL"]
        self.log_path = log or var_dir / "server.log"
        var_dir.mkdir(parents=True, exist_ok=True)
        self._log = self.log_path.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.asgi:application", "-k", "config.asgi.Worker",
             "--workers", str(workers), "--bind", f"127.0.0.1:{self.port}", "--graceful-timeout", "3",
             "--timeout", "60"],
            cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited:\n{self.log_path.read_text()}")
            try:
                urllib.request.urlopen(self.url + "/health/", timeout=2)
                break
            except OSError as exc:
                if getattr(exc, "code", None) == 503:  # up, but something it reports on is down
                    break
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"the server did not answer:\n{self.log_path.read_text()}") from None
                time.sleep(0.2)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        self._log.close()

    def __enter__(self) -> AsgiServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class SseStream:
    """One ``text/event-stream`` read over a raw HTTP/1.1 connection (chunked encoding)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, status: int,
                 headers: dict[str, str]) -> None:
        self.reader, self.writer, self.status, self.headers = reader, writer, status, headers
        self.records: list[dict[str, Any]] = []
        self.comments: list[str] = []
        self.body = b""
        self._buffer = b""
        self.changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, port: int, path: str, headers: dict[str, str] | None = None) -> SseStream:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**22)
        lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Accept: text/event-stream"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await writer.drain()
        status_line = (await reader.readline()).decode()
        status = int(status_line.split()[1])
        got: dict[str, str] = {}
        while (line := (await reader.readline()).decode().strip()):
            name, _, value = line.partition(":")
            got[name.strip().lower()] = value.strip()
        return cls(reader, writer, status, got)

    async def read_body(self) -> bytes:
        """For a refusal: the whole (non-streaming) body."""
        length = int(self.headers.get("content-length", "0"))
        self.body = await self.reader.readexactly(length) if length else await self._chunk()
        return self.body

    async def _chunk(self) -> bytes:
        size_line = await self.reader.readline()
        if not size_line:
            raise ConnectionError("the server closed the stream")
        size = int(size_line.strip().split(b";")[0], 16)
        data = await self.reader.readexactly(size) if size else b""
        await self.reader.readexactly(2)
        if size == 0:
            raise ConnectionError("the stream ended")
        return data

    async def pump(self) -> None:
        """Read until the connection ends, parsing events as they come."""
        try:
            while True:
                self._buffer += await self._chunk()
                while b"\n\n" in self._buffer:
                    block, self._buffer = self._buffer.split(b"\n\n", 1)
                    self._parse(block.decode())
                self.changed.set()
        except (ConnectionError, asyncio.IncompleteReadError, OSError, ValueError):
            self.changed.set()
        finally:
            self.writer.close()

    def _parse(self, block: str) -> None:
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if line.startswith(":"):
                self.comments.append(line[1:].strip())
            elif line:
                name, _, value = line.partition(":")
                fields[name] = value.removeprefix(" ")
        if "data" in fields:
            record = json.loads(fields["data"])
            assert str(record["seq"]) == fields.get("id"), fields
            assert fields.get("event") == "record", fields
            self.records.append(record)

    async def until(self, predicate: Callable[[SseStream], bool], timeout: float) -> bool:
        end = time.monotonic() + timeout
        while not predicate(self):
            left = end - time.monotonic()
            if left <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return predicate(self)
        return True

    def close(self) -> None:
        self.writer.close()


class Loop:
    """An asyncio loop in a thread, so the streams stay open while this thread places orders."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.tasks: set[asyncio.Task[Any]] = set()  # the loop keeps only weak references to them

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 120) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def spawn(self, coro: Awaitable[Any]) -> None:
        def start() -> None:
            task = self.loop.create_task(coro)  # type: ignore[arg-type]
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

        self.loop.call_soon_threadsafe(start)

    def close(self) -> None:
        async def cancel_all() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        try:
            self.run(cancel_all(), timeout=30)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=10)
            self.loop.close()


async def open_streams(port: int, path: str, n: int, headers: dict[str, str] | None = None,
                       batch: int = 50) -> list[SseStream]:
    """``n`` streams of ``path``, opened ``batch`` at a time, each pumping in a task."""
    streams: list[SseStream] = []
    for start in range(0, n, batch):
        opened = await asyncio.gather(*(SseStream.open(port, path, headers) for _ in range(min(batch, n - start))))
        for s in opened:
            s.task = asyncio.get_running_loop().create_task(s.pump())  # held, or the loop may drop it
        streams.extend(opened)
    return streams


async def every(streams: list[SseStream], predicate: Callable[[SseStream], bool], timeout: float) -> bool:
    """True once ``predicate`` holds for every stream (False if one times out first)."""
    return all(await asyncio.gather(*(s.until(predicate, timeout) for s in streams)))


class Orders:
    """Orders, each on a new loopback connection (the server closes idle keep-alives), timed
    from connecting to the last byte of the answer."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def place(self, game_id: str, order: dict[str, Any]) -> tuple[int, dict[str, Any], float]:
        started = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request("POST", f"/api/games/{game_id}/commands/", json.dumps(order), self.headers)
            response = conn.getresponse()
            body = response.read()
        finally:
            conn.close()
        took = time.perf_counter() - started
        return response.status, json.loads(body or b"{}"), took

    def many(self, game_id: str, n: int, tag: str) -> list[float]:
        """``n`` private notes; every one must be answered 201."""
        took = []
        for i in range(n):
            status, body, seconds = self.place(game_id, {"type": "WriteNote", "payload": {"text": f"{tag} {i}"}})
            if status != 201:
                raise AssertionError(f"order {i} answered {status}: {body}")
            took.append(seconds)
        return took

    def close(self) -> None:
        """Nothing is kept open between orders."""


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


# --- the benchmark ----------------------------------------------------------------------------

def _setup_database() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit("bench/streams.py needs PostgreSQL: run it as "
                 "`scripts/with_servers.sh .venv/bin/python bench/streams.py`.")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)
    return url


def main() -> None:
    database_url = _setup_database()
    from rest_framework.authtoken.models import Token

    from tests.factories import started_game

    game, seats = started_game()
    watched, _ = started_game()
    token = Token.objects.create(user=seats[0].user).key
    var = Path(os.environ.get("REFEREE_VAR_DIR", "/tmp")) / "bench-streams"
    with AsgiServer(database_url, var, workers=2) as server:
        loop = Loop()
        orders = Orders(server.port, token)
        try:
            orders.many(str(game.pk), 20, "warm-up")
            before = orders.many(str(game.pk), ORDERS, "before")
            opened_at = time.perf_counter()
            streams = loop.run(open_streams(server.port, f"/api/games/{watched.pk}/stream/", STREAMS))
            first = loop.run(every(streams, lambda s: bool(s.records), 60))
            opened = time.perf_counter() - opened_at
            during = orders.many(str(game.pk), ORDERS, "during")
            assert all(s.status == 200 for s in streams) and first, "a stream got nothing"
        finally:
            orders.close()
            loop.close()
    b, d = median_ms(before), median_ms(during)
    print(f"orders, median of {ORDERS}: {b:.1f} ms without streams, {d:.1f} ms with {STREAMS} idle streams "
          f"open (ratio {d / b:.2f}; p90 {statistics.quantiles(during, n=10)[-1] * 1000:.1f} ms)")
    print(f"{STREAMS} streams opened and got their first records in {opened:.1f} s; gunicorn, 2 uvicorn workers")


if __name__ == "__main__":
    main()
