"""gunicorn's settings for the web service (``gunicorn -c python:config.gunicorn_conf``, as
docker-compose.yml runs it): its own lines and uvicorn's in the service's log format, no
access log of its own (``referee.logs.RequestContextMiddleware`` writes one line per request,
with its id), and a worker that stops no longer counts its waiting readers in the metrics."""

from __future__ import annotations

import os
from typing import Any

from referee.logs import logging_config

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")  # for the metrics' directory
_format = os.environ.get("REFEREE_LOG_FORMAT") or ("text" if os.environ.get("DJANGO_DEBUG", "1") == "1" else "json")
_config = logging_config(log_format=_format, level=os.environ.get("LOG_LEVEL", "INFO"))
# gunicorn gives its loggers handlers of its own; these replace them (uvicorn's loggers use
# gunicorn's handlers). No access handler: the application writes the access line.
_config["loggers"].update({
    "gunicorn.error": {"handlers": ["console"], "level": "INFO", "propagate": False},
    "gunicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
})
logconfig_dict = _config


def on_starting(server: Any) -> None:
    """The live gauges of this host's previous web workers (a restarted container) are stale."""
    from referee import metrics

    metrics.forget_host()


def child_exit(server: Any, worker: Any) -> None:
    from referee import metrics

    metrics.forget_process(worker.pid)
