"""Nudges to the broker, sent by one thread per process after the transaction commits.

A nudge is the fast path only: the database knows what is due and the sweeper runs it
whatever happens to a message. So an order's answer, or a job, need not wait for the
broker's round trip: the message goes into this process's outbox and a sender thread hands
it to Celery a moment later. A process that dies with messages in its outbox loses only the
fast path for them; the next sweep runs their rows.
"""

from __future__ import annotations

import datetime as dt
import logging
import queue
import threading
from collections.abc import Sequence

log = logging.getLogger(__name__)

_outbox: queue.Queue[tuple[str, tuple[str, ...], dt.datetime | None]] = queue.Queue()
_sender: threading.Thread | None = None
_lock = threading.Lock()


def send_later(task: str, args: Sequence[str], eta: dt.datetime | None = None) -> None:
    """Queue ``task(*args)`` for the broker (with an ETA if given); never raises, never waits."""
    global _sender
    _outbox.put((task, tuple(args), eta))
    if _sender is None or not _sender.is_alive():  # first use, or a forked child (threads do not survive fork)
        with _lock:
            if _sender is None or not _sender.is_alive():
                _sender = threading.Thread(target=_send_forever, name="referee-nudges", daemon=True)
                _sender.start()


def _send_forever() -> None:
    from referee.celery import app

    while True:
        task, args, eta = _outbox.get()
        try:
            app.send_task(task, args, eta=eta)
        except Exception:  # the broker is only the fast path
            log.warning("could not enqueue %s%s; the sweeper will run it", task, args)
        finally:
            _outbox.task_done()


def wait_sent(timeout: float = 5.0) -> bool:
    """Tests and scripts: wait until every queued nudge has been handed to the broker or
    given up on (True), or ``timeout`` passes (False)."""
    import time

    end = time.monotonic() + timeout
    while _outbox.unfinished_tasks:
        if time.monotonic() > end:
            return False
        time.sleep(0.001)
    return True
