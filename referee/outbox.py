"""A per-process outbox: messages that must not keep their caller waiting (a nudge to the
broker, a live notice to Redis), handed over by one daemon thread. Best-effort by design:
what the outbox carries has a fallback (the sweeper, the readers' poll), so a process that
dies with messages in it loses only the fast path."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Outbox(Generic[T]):
    """``put`` never waits; the thread hands what has piled up to ``deliver`` as one batch."""

    def __init__(self, name: str, deliver: Callable[[list[T]], None]) -> None:
        self.name = name
        self.deliver = deliver
        self._queue: queue.Queue[T] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def put(self, item: T) -> None:
        self._queue.put(item)
        thread = self._thread
        if thread is None or not thread.is_alive():  # first use, or a forked child (threads do not survive fork)
            with self._lock:
                if self._thread is None or not self._thread.is_alive():
                    self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                    self._thread.start()

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            while True:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            try:
                self.deliver(batch)
            finally:
                for _ in batch:
                    self._queue.task_done()

    def wait_empty(self, timeout: float = 5.0) -> bool:
        """Tests and scripts: wait until everything put has been delivered or given up on
        (True), or ``timeout`` passes (False)."""
        end = time.monotonic() + timeout
        while self._queue.unfinished_tasks:
            if time.monotonic() > end:
                return False
            time.sleep(0.001)
        return True
