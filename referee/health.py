"""``GET /health/`` for load balancers, compose healthchecks and operators: the database and
the broker answer (503, as problem+json, when either does not), the shared cache, how late
the oldest overdue job is, how long ago the sweeper ran, and the readers this process holds
open (long-polls and streams)."""

from __future__ import annotations

import json
import os
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse

from referee import clock, live
from referee.models import DueWork, SchedulerHeartbeat

TIMEOUT = 2.0


def health(request: HttpRequest) -> HttpResponse:
    checks = {"database": database_check(), "broker": broker_check(), "cache": cache_check()}
    body: dict[str, Any] = {**checks, "live_readers": live.reader_count()}
    if checks["database"] == "ok":
        body.update(_scheduling())
    down = [name for name in ("database", "broker") if checks[name] != "ok"]
    if down:
        body = {"type": "/problems/unavailable", "title": "Service unavailable", "status": 503,
                "detail": "; ".join(f"the {name} is {checks[name]}" for name in down), **body}
        return HttpResponse(json.dumps(body), status=503, content_type="application/problem+json")
    body = {"status": "ok" if checks["cache"] == "ok" else "degraded", **body}
    return HttpResponse(json.dumps(body), content_type="application/json")


def _down(exc: BaseException) -> str:
    return f"down ({type(exc).__name__}: {str(exc)[:200]})"


def database_check() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:
        try:
            connection.close()  # do not keep a broken connection for the next request
        except Exception:  # closing a dead connection may fail too; it is gone either way
            pass
        return _down(exc)
    return "ok"


def broker_check() -> str:
    url: str = settings.CELERY_BROKER_URL
    try:
        if url.startswith(("redis://", "rediss://")):
            import redis

            client = redis.Redis.from_url(url, socket_connect_timeout=TIMEOUT, socket_timeout=TIMEOUT)
            try:
                client.ping()
            finally:
                client.close()
        elif url.startswith("filesystem://"):
            folder = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("data_folder_in", "")
            if not (os.path.isdir(folder) and os.access(folder, os.W_OK)):
                return f"down (the queue folder {folder} is missing or read-only)"
        else:
            from celery import current_app as app  # the project's (config.celery)

            with app.connection_for_write() as conn:
                conn.ensure_connection(max_retries=1, timeout=TIMEOUT)
    except Exception as exc:
        return _down(exc)
    return "ok"


def cache_check() -> str:
    from django.core.cache import cache

    try:
        cache.set("health:probe", "1", 10)
        if cache.get("health:probe") != "1":
            return "down (a value written could not be read back)"
    except Exception as exc:
        return _down(exc)
    return "ok"


def _scheduling() -> dict[str, Any]:
    now = clock.now()
    oldest = (
        DueWork.objects.filter(status=DueWork.Status.PENDING, due_at__lte=now).order_by("due_at")
        .values_list("due_at", flat=True).first()
    )
    beat = SchedulerHeartbeat.objects.filter(name="sweeper").values_list("last_run_at", flat=True).first()
    return {
        "oldest_overdue_lag_seconds": round((now - oldest).total_seconds(), 1) if oldest else 0.0,
        "sweeper_last_run_seconds_ago": round((now - beat).total_seconds(), 1) if beat else None,
    }
