"""Waiting and streaming reads: the long-poll (``GET /events/?wait=``) and the server-sent
events stream (``GET /stream/``).

Under ASGI the URLs point at :func:`async_entry` wrappers: the DRF view (authentication,
throttling, visibility, problem+json errors) runs on ``live.DB_EXECUTOR``'s few threads,
and the waiting is an ``await`` on the process's :class:`referee.live.Hub`, which holds no
worker, thread or database connection. A woken reader takes its records from the hub's one
read of the game per new head (``referee.fanout``): it reads nothing itself. Under WSGI (the test client, a sync server) the
same views block their thread, as any WSGI view would.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponseBase, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from api.views.common import game_for, int_param, viewer
from games.base import Viewer
from referee import live, metrics, selectors
from referee.fanout import sse_bytes


def is_async(request: HttpRequest | Request) -> bool:
    return isinstance(getattr(request, "_request", request), ASGIRequest)


def in_db_thread(request: HttpRequest, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` made awaitable: on the live pool under ASGI; under WSGI back in the request's
    own thread (where its database connection, and a test's transaction, live)."""
    if isinstance(request, ASGIRequest):
        def fresh(*args: Any, **kwargs: Any) -> Any:
            live.db_ready()
            return fn(*args, **kwargs)

        return sync_to_async(fresh, thread_sensitive=False, executor=live.DB_EXECUTOR)
    return sync_to_async(fn, thread_sensitive=True)


def async_entry(view_cls: type[APIView]) -> Callable[..., Any]:
    """An async view around ``view_cls``. A long-poll that found nothing new yet answers
    with ``live_wait = (seconds, game, viewer, after, limit)``: it waits here for the records
    its viewer sees in the process's shared read of the game (``referee.live.Hub``), without
    reading the log again, and answers with them (or with nothing once the time is up)."""
    sync_view = view_cls.as_view()

    async def view(request: HttpRequest, **kwargs: Any) -> HttpResponseBase:
        call = in_db_thread(request, sync_view)
        if not isinstance(request, ASGIRequest):
            return await call(request, **kwargs)
        request.live_no_wait = True  # type: ignore[attr-defined]
        response = await call(request, **kwargs)
        waiting = getattr(response, "live_wait", None)
        if waiting is None:
            return response
        seconds, game_id, who, after, limit = waiting
        deadline = time.monotonic() + seconds
        hub = live.hub()
        # Counted in after the view's read: what committed since is in the hub's next read,
        # which the first wait below asks for when this viewer's class is new to the hub.
        hub.watch(game_id, who)
        metrics.reader_opened(metrics.LONG_POLL)
        try:
            while (left := deadline - time.monotonic()) > 0:
                entries = await hub.next_entries(game_id, who, after, left)
                if entries is None:  # behind the shared tail: the view reads for itself
                    request.live_rechecked = True  # type: ignore[attr-defined]  # one request, one throttle count
                    response = await call(request, **kwargs)
                    if getattr(response, "live_wait", None) is None:
                        return response
                    continue
                if entries:
                    events = [e.item for e in entries]
                    page = events[:limit]
                    response.data = {  # type: ignore[attr-defined]  # rendered after this returns
                        "events": page, "next_after": page[-1]["seq"], "more": len(events) > limit}
                return response
            return response
        finally:
            metrics.reader_closed(metrics.LONG_POLL)
            hub.unwatch(game_id, who)

    view.cls = view_cls  # type: ignore[attr-defined]  # drf-spectacular documents the DRF view
    view.initkwargs = {}  # type: ignore[attr-defined]
    view.csrf_exempt = True  # type: ignore[attr-defined]
    view.__name__ = view_cls.__name__
    view.__doc__ = view_cls.__doc__
    return view


class LiveApiView(APIView):
    """A DRF view that ``async_entry`` may call more than once for one request."""

    def get_throttles(self) -> list[Any]:
        if getattr(self.request, "live_rechecked", False):
            return []
        return super().get_throttles()


def sse(item: dict[str, Any]) -> bytes:
    return sse_bytes(item)


HEARTBEAT = b": heartbeat\n\n"


class EventStreamRenderer(BaseRenderer):
    """Lets ``Accept: text/event-stream`` through content negotiation; what it renders itself
    is only a refusal (problem+json, whose content type the response sets)."""

    media_type = "text/event-stream"
    format = "sse"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        return json.dumps(data).encode()


class GameStreamApi(LiveApiView):
    """The log as you may see it, live: a ``text/event-stream`` of server-sent events, one
    per record (``id:`` your seq, ``event: record``, ``data:`` the record as ``/events/``
    shows it), with a ``: heartbeat`` comment every 15 s. Resume with ``Last-Event-ID`` (what
    EventSource sends by itself on reconnecting) or ``?after=``."""

    renderer_classes = [JSONRenderer, EventStreamRenderer]

    @extend_schema(
        parameters=[
            OpenApiParameter("after", int, description="only records after this seq (Last-Event-ID wins)"),
            OpenApiParameter("Last-Event-ID", int, location=OpenApiParameter.HEADER, required=False,
                             description="the id of the last event received: resume after it"),
            OpenApiParameter("as", str, enum=["moderator"], description="moderators: see everything"),
        ],
        responses={200: OpenApiResponse(OpenApiTypes.STR, description=(
            "text/event-stream: `id: <seq>`, `event: record`, `data: <the record as /events/ shows it>`"))},
    )
    def get(self, request: Request, game_id: str) -> HttpResponseBase:
        game = game_for(request, game_id)
        after = int_param(request, "after", 0) or 0
        last_id = request.headers.get("Last-Event-ID")
        if last_id not in (None, ""):
            try:
                after = max(0, int(last_id))
            except ValueError:
                after = 0
        who = viewer(request, game)
        pk = str(game.pk)
        beat = float(settings.REFEREE_STREAM_HEARTBEAT_SECONDS)
        body = _stream_async(request, pk, who, after, beat) if is_async(request) else _stream_sync(pk, who, after, beat)
        response = StreamingHttpResponse(body, content_type="text/event-stream")
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"  # a proxy in front must not hold the events back
        return response


async def _stream_async(request: Request, game_id: str, who: Viewer, after: int, beat: float) -> AsyncIterator[bytes]:
    read = in_db_thread(request._request, selectors.game_events_list)
    hub = live.hub()
    hub.watch(game_id, who)  # before the first read: what commits after it comes through the hub
    metrics.reader_opened(metrics.STREAM)
    try:
        yield b"retry: 3000\n\n"
        for item in await read(game_id=game_id, viewer=who, after=after):
            after = item["seq"]
            yield sse(item)
        while True:
            entries = await hub.next_entries(game_id, who, after, beat)
            if entries is None:  # slower than the shared tail: it reads what it missed itself
                items = await read(game_id=game_id, viewer=who, after=after)
                for item in items:
                    after = item["seq"]
                    yield sse(item)
                if not items:  # cannot be, but must not spin if it were
                    await asyncio.sleep(1.0)
            elif not entries:
                yield HEARTBEAT
            for entry in entries or ():
                after = entry.seq
                yield entry.sse
    finally:
        metrics.reader_closed(metrics.STREAM)
        hub.unwatch(game_id, who)


def _stream_sync(game_id: str, who: Viewer, after: int, beat: float) -> Iterator[bytes]:
    with metrics.reading(metrics.STREAM):
        yield from _stream_sync_records(game_id, who, after, beat)


def _stream_sync_records(game_id: str, who: Viewer, after: int, beat: float) -> Iterator[bytes]:
    yield b"retry: 3000\n\n"
    while True:
        for item in selectors.game_events_list(game_id=game_id, viewer=who, after=after):
            after = item["seq"]
            yield sse(item)
        end = time.monotonic() + beat
        while time.monotonic() < end:
            live.wait_blocking(game_id, min(1.0, end - time.monotonic()))
            if selectors.viewer_log_position(game_id=game_id, viewer=who) > after:
                break
        else:
            yield HEARTBEAT
