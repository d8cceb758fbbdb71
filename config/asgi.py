"""The ASGI entry point: what production (gunicorn with uvicorn workers) and ``make run``
(uvicorn) serve. Waiting and streaming reads (``/events/?wait=``, ``/stream/``) are async
views there, so a reader that waits holds no worker and no thread.

    gunicorn config.asgi:application -k config.asgi.Worker --workers 3
    uvicorn config.asgi:application
"""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("REFEREE_SERVER", "asgi")

import re  # noqa: E402
import sys  # noqa: E402
from typing import Any  # noqa: E402

import django  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.handlers.asgi import ASGIHandler  # noqa: E402

from api.middleware import RequestLimitsASGI  # noqa: E402

#: The waiting and streaming reads (``api.views.live.async_entry``).
LIVE_PATH = re.compile(r"^/api/games/[^/]+/(events|stream)/$")


class Handler(ASGIHandler):
    """Django's ASGI handler, without its thread per request for the live reads.

    Django gives each request a thread of its own for its synchronous parts (a sync view,
    the request signals' receivers, closing the response), created for the request and
    joined at its end. The long-poll and the stream run no sync view (their database work
    runs on the live pool), and what is left takes a moment: they share the process's one
    such thread instead. A thread created and joined per long-poll answered was a good part
    of what readers on the game being played cost its web processes."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and LIVE_PATH.match(scope.get("path", "")):
            await self.handle(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


# A web process runs its event loop (hundreds of readers woken per record) beside the threads
# of its requests (an order's many short database round trips). At the default 5 ms a thread
# back from the database waited up to that long for the interpreter at each round trip while
# the loop was busy; 0.5 ms keeps an order from queueing behind the readers' work.
sys.setswitchinterval(0.0005)

django.setup(set_prefix=False)  # what get_asgi_application() does before its handler
_django: Any = Handler()
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
