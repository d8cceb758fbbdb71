"""Celery tasks: they take ids, call the scheduling service, and are safe to deliver twice.
None is scheduled days ahead (no ETA tasks): the sweeper finds due rows in the database."""

from __future__ import annotations

import logging

from celery import shared_task

from referee import scheduling

log = logging.getLogger(__name__)


@shared_task(name="referee.run_due_work", acks_late=True, reject_on_worker_lost=True)
def run_due_work(game_id: str, key: str) -> str:
    result = scheduling.due_work_run(game_id=game_id, key=key)
    log.info("due work %s/%s: %s", game_id, key, result)
    return result


@shared_task(name="referee.sweep_due_work", acks_late=True)
def sweep_due_work() -> int:
    ran = scheduling.sweep()
    if ran:
        log.info("sweeper ran %d due item(s)", ran)
    return ran
