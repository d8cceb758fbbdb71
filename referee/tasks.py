"""Celery tasks: they take ids, call a service, and are safe to deliver twice."""

from __future__ import annotations

import logging

from celery import shared_task

from referee import services
from referee.models import Game

log = logging.getLogger(__name__)


@shared_task(name="referee.run_due_work", acks_late=True)
def run_due_work(game_id: str, key: str) -> None:
    outcome = services.due_work_run(game_id=game_id, key=key)
    log.info("due work %s/%s: %s", game_id, key, "done" if outcome else "nothing to do")


@shared_task(name="referee.sweep_due_work")
def sweep_due_work() -> int:
    """The database, not the broker, knows what is due: re-derive the immediate work of
    every active game and run what is still pending (a lost task is caught here)."""
    games = Game.objects.filter(status=Game.Status.ACTIVE, frozen_reason="").values_list("id", flat=True)
    return sum(services.game_run_pending(game_id=str(g)) for g in games)
