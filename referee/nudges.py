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
from collections.abc import Sequence

from referee.outbox import Outbox

log = logging.getLogger(__name__)

Nudge = tuple[str, tuple[str, ...], "dt.datetime | None"]


def _deliver(batch: list[Nudge]) -> None:
    from celery import current_app as app  # the project's (config.celery)

    for task, args, eta in dict.fromkeys(batch):  # the same nudge twice in a pile goes once
        try:
            # Celery would otherwise build the log's picture of the arguments with saferepr,
            # a seventh of a send; ours are a few short strings that repr() shows as well.
            app.send_task(task, args, eta=eta, argsrepr=repr(args), kwargsrepr="{}")
        except Exception:  # the broker is only the fast path
            log.warning("could not enqueue %s%s; the sweeper will run it", task, args)


_outbox: Outbox[Nudge] = Outbox("referee-nudges", _deliver)


def send_later(task: str, args: Sequence[str], eta: dt.datetime | None = None) -> None:
    """Queue ``task(*args)`` for the broker (with an ETA if given); never raises, never waits."""
    _outbox.put((task, tuple(args), eta))


def wait_sent(timeout: float = 5.0) -> bool:
    """Tests and scripts: wait until every queued nudge has been handed to the broker or
    given up on (True), or ``timeout`` passes (False)."""
    return _outbox.wait_empty(timeout)
