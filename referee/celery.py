"""The Celery app. The broker is only the fast path; the database knows what is due."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "referee.settings")

app = Celery("referee")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["referee", "notices"])

