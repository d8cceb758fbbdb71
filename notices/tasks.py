"""The notices worker's task, on the ``notices`` queue (``CELERY_TASK_ROUTES``): a slow
endpoint holds up only other notices, never a deadline."""

from __future__ import annotations

from celery import shared_task

from notices import delivery


@shared_task(name="notices.send_due", acks_late=True, ignore_result=True)
def send_due() -> int:
    return delivery.send_due()
