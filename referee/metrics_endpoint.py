"""``GET /metrics/``: every process's numbers (``referee.metrics``) added up, and what the
database says now (frozen games, due work waiting), in Prometheus's text format.

Not public: it answers only a request bearing ``Authorization: Bearer <REFEREE_METRICS_TOKEN>``.
With no token set there is no endpoint at all (404), so a referee that never configured
monitoring shows nothing; a wrong or missing token is 401.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterator

from django.conf import settings
from django.db.models import Count, Min
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector

from referee import clock, metrics


class DatabaseCollector:
    """Read at scrape time, in two statements: what no process counts because it is a state
    of the games (a frozen game, due work not yet run and how long it has waited)."""

    def collect(self) -> Iterator[Metric]:
        from referee.models import DueWork, Game

        yield GaugeMetricFamily("referee_games_frozen_now", "Games frozen until a moderator looks into their log",
                                value=Game.objects.exclude(frozen_reason="").count())
        now = clock.now()
        waiting = GaugeMetricFamily("referee_due_work_waiting", "Due work past its time and not yet run, by kind",
                                    labels=["kind"])
        oldest = GaugeMetricFamily("referee_due_work_oldest_wait_seconds",
                                   "How long the oldest due work not yet run has been due, by kind", labels=["kind"])
        rows = (DueWork.objects.filter(status=DueWork.Status.PENDING, due_at__lte=now)
                .values("kind").annotate(n=Count("id"), first=Min("due_at")).order_by())
        for row in rows:
            waiting.add_metric([row["kind"]], row["n"])
            oldest.add_metric([row["kind"]], max(0.0, (now - row["first"]).total_seconds()))
        yield waiting
        yield oldest


def authorized(request: HttpRequest, token: str) -> bool:
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())


@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    token = settings.REFEREE_METRICS_TOKEN
    if not token:
        raise Http404("no metrics here")
    if not authorized(request, token):
        refused = HttpResponse("A bearer token is needed (REFEREE_METRICS_TOKEN).\n", status=401,
                               content_type="text/plain")
        refused["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return refused
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(metrics.directory()))
    registry.register(DatabaseCollector())
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
