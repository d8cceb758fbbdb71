"""A local HTTP server standing in for a chat service or a bot's server: it keeps what it
receives, answers with the status it is told to, and can hang or be down."""

from __future__ import annotations

import http.server
import threading
import time
from dataclasses import dataclass, field


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    status: int = 200
    hang: threading.Event | None = None  # while set-and-unreleased, requests wait
    delay: float = 0.0  # seconds every answer takes (a slow endpoint)
    received: list[Received] = field(default_factory=list)
    server: http.server.ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> Receiver:
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 -- http.server's name
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                if receiver.hang is not None:
                    receiver.hang.wait(30)
                if receiver.delay:
                    time.sleep(receiver.delay)
                receiver.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(receiver.status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
