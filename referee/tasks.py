"""Celery tasks: they take ids, call the scheduling service, and are safe to deliver twice.
Only timers due within ``REFEREE_TIMER_HORIZON_SECONDS`` are sent with an ETA (so a round
clock ends on time); nothing is scheduled days ahead: the sweeper finds due rows in the
database, so a lost or early message changes nothing."""

from __future__ import annotations

import logging

from celery import shared_task

from referee import logs, scheduling

log = logging.getLogger(__name__)


@shared_task(name="referee.run_due_work", acks_late=True, reject_on_worker_lost=True)
def run_due_work(game_id: str, key: str, kind: str = "") -> str:
    with logs.context(game_id=str(game_id)):
        result = scheduling.due_work_run(game_id=game_id, key=key, kind=kind)
        log.info("due work %s/%s: %s", game_id, key, result)
    return result


@shared_task(name="referee.sweep_due_work", acks_late=True)
def sweep_due_work() -> int:
    ran = scheduling.sweep()
    if ran:
        log.info("sweeper ran %d due item(s)", ran)
    return ran
