"""The ASGI entry point: what production (gunicorn with uvicorn workers) and ``make run``
(uvicorn) serve. Waiting and streaming reads (``/events/?wait=``, ``/stream/``) are async
views there, so a reader that waits holds no worker and no thread.

    gunicorn referee.asgi:application -k referee.asgi.Worker --workers 3
    uvicorn referee.asgi:application
"""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "referee.settings")
os.environ.setdefault("REFEREE_SERVER", "asgi")

from django.conf import settings  # noqa: E402
from django.core.asgi import get_asgi_application  # noqa: E402

from api.middleware import RequestLimitsASGI  # noqa: E402

_django = get_asgi_application()
if settings.DEBUG:
    # The embedded default has no separate static server (runserver used to do this).
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    _django = ASGIStaticFilesHandler(_django)
application = RequestLimitsASGI(_django)


def _worker_class() -> type:
    from uvicorn_worker import UvicornWorker

    class Worker(UvicornWorker):
        """gunicorn's uvicorn worker with h11, whose request-line and header limit is set
        here (gunicorn's ``limit_request_*`` do not reach uvicorn). Requests beyond our own,
        lower limits (``REFEREE_MAX_URL_BYTES``...) get a problem+json answer from
        ``RequestLimitsASGI``; only what exceeds this one gets h11's plain refusal."""

        CONFIG_KWARGS = {"loop": "asyncio", "http": "h11", "h11_max_incomplete_event_size": 64 * 1024}

    return Worker


def __getattr__(name: str) -> type:
    # Lazily, so that serving with plain uvicorn does not import gunicorn.
    if name == "Worker":
        return _worker_class()
    raise AttributeError(name)
