"""The Celery app. The broker is only the fast path; the database knows what is due."""

from __future__ import annotations

import os
from typing import Any

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("referee")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["referee", "notices"])


# Connected here, so every worker has them; what they use is imported when they fire (this
# module is imported with the package, before the settings are ready).
@signals.task_prerun.connect(weak=False)
def _task_started(task_id: str | None = None, task: Any = None, **_: Any) -> None:
    from referee import logs, metrics

    logs.bind(request_id=task_id)  # each of the task's log lines carries its id
    metrics.task_started(task)


@signals.task_postrun.connect(weak=False)
def _task_ended(**_: Any) -> None:
    from referee import logs

    logs.bind(request_id=None, game_id=None, seat=None)


@signals.task_retry.connect(weak=False)
def _task_retried(sender: Any = None, **_: Any) -> None:
    from referee import metrics

    metrics.job_retried(getattr(sender, "name", str(sender)), "retry")


@signals.task_failure.connect(weak=False)
def _task_failed(sender: Any = None, **_: Any) -> None:
    from referee import metrics

    metrics.task_failed(sender)


@signals.worker_process_shutdown.connect(weak=False)
def _worker_process_stopped(**_: Any) -> None:
    from referee import metrics

    metrics.forget_process(os.getpid())
