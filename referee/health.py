from django.db import connection
from django.http import HttpRequest, JsonResponse

from referee import clock
from referee.models import DueWork, SchedulerHeartbeat


def health(request: HttpRequest) -> JsonResponse:
    """For load balancers, compose healthchecks and operators: the database answers, how
    late the oldest overdue job is, and how long ago the sweeper ran."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    now = clock.now()
    oldest = (
        DueWork.objects.filter(status=DueWork.Status.PENDING, due_at__lte=now).order_by("due_at")
        .values_list("due_at", flat=True).first()
    )
    beat = SchedulerHeartbeat.objects.filter(name="sweeper").values_list("last_run_at", flat=True).first()
    return JsonResponse({
        "status": "ok",
        "oldest_overdue_lag_seconds": round((now - oldest).total_seconds(), 1) if oldest else 0.0,
        "sweeper_last_run_seconds_ago": round((now - beat).total_seconds(), 1) if beat else None,
    })
