"""The Celery app. The broker is only the fast path; the database knows what is due."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "referee.settings")

app = Celery("referee")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["referee"])


@app.on_after_finalize.connect
def _schedule_sweeper(sender: Celery, **_: object) -> None:
    from django.conf import settings

    sender.add_periodic_task(settings.REFEREE_SWEEP_SECONDS, sender.signature("referee.sweep_due_work"), name="sweep due work")
