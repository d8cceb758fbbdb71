"""Nudges to the broker, sent from this process's outbox after the transaction commits.

A nudge is the fast path only: the database knows what is due and the sweeper runs it
whatever happens to a message. So an order's answer, or a job, need not wait for the
broker's round trip: the message goes into the outbox (``referee.outbox``) and its thread
hands it to Celery a moment later. A process that dies with messages in its outbox loses
only the fast path for them; the next sweep runs their rows.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
from collections.abc import Sequence
from contextlib import ExitStack
from typing import Any

from referee.outbox import Outbox

log = logging.getLogger(__name__)

Nudge = tuple[str, tuple[str, ...], "dt.datetime | None"]


class _Sender:
    """What the outbox's thread (the only one that sends nudges) keeps between nudges: one
    producer on its own broker connection, the tasks whose queue it has declared, and, where
    kombu has them (5.7 on), one publish batch that each nudge is flushed through.

    ``send_task`` would otherwise take a producer from Celery's pool and give it back, and
    ask kombu for every message whether the queue is declared yet: together a third of a
    nudge's CPU, and the process that pays for it is the one that answers orders. Kombu's
    Redis transport also builds a new ``redis.Redis`` for every message it publishes (a
    third of what was left); a batch (``Producer.batch``) builds its client once, and
    ``flush`` sends what it holds at once, so a nudge still goes out when it is delivered.
    A batch does not retry a failed flush itself: ``_deliver`` tries once more on a new
    sender (a nudge delivered twice runs once). A forked child builds its own (a connection
    must not be shared across a fork), so does a process whose broker setting changed
    (tests point Celery at another broker)."""

    def __init__(self, app: Any, url: str) -> None:
        self.pid = os.getpid()
        self.url = url
        self.producer = app.amqp.Producer(app.connection_for_write(), auto_declare=False)
        self.declared: set[str] = set()
        self._stack = ExitStack()
        self.batch = self._stack.enter_context(self.producer.batch()) if hasattr(self.producer, "batch") else None

    def send(self, app: Any, task: str, args: tuple[str, ...], eta: dt.datetime | None) -> None:
        # declare=None: Celery declares the task's queue (the first time on this producer);
        # an empty list: declared already. add_to_parent: a nudge is nobody's subtask.
        # argsrepr: Celery would build the log's picture of the arguments with saferepr, a
        # seventh of a send; ours are a few short strings that repr() shows as well.
        app.send_task(task, args, eta=eta, producer=self.producer,
                      declare=[] if task in self.declared else None, add_to_parent=False,
                      argsrepr=repr(args), kwargsrepr="{}")
        if self.batch is not None:
            self.batch.flush()
        self.declared.add(task)

    def close(self) -> None:
        try:
            self._stack.close()
        except Exception:  # a batch whose flush failed refuses to flush again on its way out
            log.debug("the nudges' publish batch did not close cleanly", exc_info=True)
        try:
            self.producer.connection.release()
        except Exception:  # a connection that already failed may fail to close as well
            log.debug("could not close the nudges' broker connection", exc_info=True)


_sender: _Sender | None = None


def _sender_for(app: Any, url: str) -> _Sender:
    global _sender
    sender = _sender
    if sender is None or sender.pid != os.getpid() or sender.url != url:
        if sender is not None and sender.pid == os.getpid():
            sender.close()  # a parent's is left alone: closing its socket here would close it there
        sender = _sender = _Sender(app, url)
    return sender


def _drop_sender() -> None:
    global _sender
    if _sender is not None and _sender.pid == os.getpid():
        _sender.close()
    _sender = None


def _deliver(batch: list[Nudge]) -> None:
    from celery import current_app as app  # the project's (config.celery)

    url = app.conf.broker_url  # defined in the settings: a quick read (config/settings.py)
    for task, args, eta in dict.fromkeys(batch):  # the same nudge twice in a pile goes once
        for attempt in (1, 2):  # the second on a new connection
            try:
                _sender_for(app, url).send(app, task, args, eta)
                break
            except Exception:  # the broker is only the fast path
                _drop_sender()
                if attempt == 2:
                    log.warning("could not enqueue %s%s; the sweeper will run it", task, args)


_outbox: Outbox[Nudge] = Outbox("referee-nudges", _deliver)


def send_later(task: str, args: Sequence[str], eta: dt.datetime | None = None) -> None:
    """Queue ``task(*args)`` for the broker (with an ETA if given); never raises, never waits."""
    _outbox.put((task, tuple(args), eta))


def wait_sent(timeout: float = 5.0) -> bool:
    """Tests and scripts: wait until every queued nudge has been handed to the broker or
    given up on (True), or ``timeout`` passes (False)."""
    return _outbox.wait_empty(timeout)
