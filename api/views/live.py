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
import copy
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from api.views.common import game_for, int_param, viewer
from games.base import Viewer
from referee import live, metrics, selectors
from referee.fanout import Entry, sse_bytes

log = logging.getLogger(__name__)


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
    reading the log again, and answers with them (or with nothing once the time is up).

    A long-poll's next request (``view_cls.long_poll_params``) is answered from that shared
    read too, with no database statement, when the same credentials had the full view's
    answer on this game within the last ``GRANT_SECONDS`` and the read covers its position."""
    sync_view = view_cls.as_view()
    params_of = getattr(view_cls, "long_poll_params", None)

    async def view(request: HttpRequest, **kwargs: Any) -> HttpResponseBase:
        call = in_db_thread(request, sync_view)
        if not isinstance(request, ASGIRequest):
            return await call(request, **kwargs)
        params = params_of(request) if params_of is not None and request.method == "GET" else None
        key = _grant_key(request, kwargs.get("game_id", "")) if params is not None else None
        if key is not None and params is not None:
            answered = await _follow_up(request, view_cls, call, kwargs, key, *params)
            if answered is not None:
                return answered
        request.live_no_wait = True  # type: ignore[attr-defined]
        response = await call(request, **kwargs)
        granted = getattr(response, "live_grant", None)
        if key is not None and granted is not None and response.status_code == 200:
            _grant(key, *granted)
        waiting = getattr(response, "live_wait", None)
        if waiting is None:
            return response
        seconds, game_id, who, after, limit = waiting
        return await _wait(request, call, kwargs, game_id, who, after, limit, time.monotonic() + seconds)

    view.cls = view_cls  # type: ignore[attr-defined]  # drf-spectacular documents the DRF view
    view.initkwargs = {}  # type: ignore[attr-defined]
    view.csrf_exempt = True  # type: ignore[attr-defined]
    view.__name__ = view_cls.__name__
    view.__doc__ = view_cls.__doc__
    return view


async def _wait(request: HttpRequest, call: Callable[..., Any], kwargs: dict[str, Any], game_id: str, who: Viewer,
                after: int, limit: int, deadline: float) -> HttpResponseBase:
    """Wait for what ``who`` sees after ``after`` in the hub's shared read, and answer it."""
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
                return page_response(entries, after, limit)
        return page_response([], after, limit)
    finally:
        metrics.reader_closed(metrics.LONG_POLL)
        hub.unwatch(game_id, who)


def page_response(entries: list[Entry], after: int, limit: int) -> HttpResponse:
    """A long-poll's answer, as the view's ``Response`` renders it (DRF's JSON renderer, its
    headers), encoded once for every reader of the class given the same page."""
    page = entries[:limit]
    more = len(entries) > limit
    if page:
        body = page[0].memo(("page", len(page), more), lambda: _render(
            {"events": [e.item for e in page], "next_after": page[-1].seq, "more": more}))
    else:
        body = _render({"events": [], "next_after": after, "more": False})
    response = HttpResponse(body, content_type="application/json")
    response["Vary"] = "Accept"
    response["Allow"] = "GET, HEAD, OPTIONS"
    return response


def _render(data: dict[str, Any]) -> bytes:
    return JSONRenderer().render(data)


# --- a long-poll's next request ------------------------------------------------------------

#: How long a process answers a credential's long-polls on a game from what the full view
#: last found it may see there (token or session -> user -> may see the game -> as which
#: viewer). A revoked token, a closed session or a seat given up stops working within this.
GRANT_SECONDS = 1.0
_GRANTS_KEPT = 4096

GrantKey = tuple[str, str, str, str]
_clock = time.monotonic  # the grants' clock (a test moves it on)
#: key -> (game id, viewer, user id or None, good until)
_grants: dict[GrantKey, tuple[str, Viewer, int | None, float]] = {}


def _grant_key(request: HttpRequest, game_id: str) -> GrantKey:
    """Everything the view's answer to whom-and-what depends on besides the time: the
    credentials (token header, session cookie), the game and the ``as`` asked for."""
    return (request.META.get("HTTP_AUTHORIZATION", ""), request.COOKIES.get(settings.SESSION_COOKIE_NAME, ""),
            str(game_id), request.GET.get("as", ""))


def _grant(key: GrantKey, game_id: str, who: Viewer, user_id: int | None) -> None:
    now = _clock()
    if len(_grants) >= _GRANTS_KEPT:
        for stale in [k for k, g in _grants.items() if g[3] <= now]:
            del _grants[stale]
        if len(_grants) >= _GRANTS_KEPT:
            _grants.clear()
    _grants[key] = (game_id, who, user_id, now + GRANT_SECONDS)


def forget_grants() -> None:
    """For tests: every credential goes through the full view again."""
    _grants.clear()


async def _follow_up(request: HttpRequest, view_cls: type[APIView], call: Callable[..., Any], kwargs: dict[str, Any],
                     key: GrantKey, after: int, limit: int, wait: int) -> HttpResponseBase | None:
    """The answer from the shared read, or None when the full view must answer."""
    granted = _grants.get(key)
    if granted is None or granted[3] <= _clock():
        return None
    game_id, who, user_id, until = granted
    if until - _clock() < GRANT_SECONDS / 2 and key not in _rechecking:
        # Checked again in the background while in use, so that a game's long-polls do not
        # all run the full view at once when their grant runs out; a refusal ends it.
        _rechecking.add(key)
        task = asyncio.get_running_loop().create_task(_recheck(request, call, kwargs, key))
        _tasks.add(task)
        task.add_done_callback(_tasks.discard)
    share = live.hub().share_of(game_id, who)
    entries = share.after(after) if share is not None else None
    if entries is None:
        return None
    if not await in_db_thread(request, _throttles_allow)(view_cls, request.META, user_id):
        return None  # the full view refuses it, with its problem+json
    if entries:
        return page_response(entries, after, limit)
    return await _wait(request, call, kwargs, game_id, who, after, limit, time.monotonic() + wait)


_rechecking: set[GrantKey] = set()
_tasks: set[asyncio.Task[None]] = set()  # the loop keeps only weak references to them


async def _recheck(request: HttpRequest, call: Callable[..., Any], kwargs: dict[str, Any], key: GrantKey) -> None:
    """The full view for ``key``'s credentials again: a new grant, or none if it refuses."""
    request = copy.copy(request)  # its own flags: the request itself may yet go to the full view
    try:
        request.live_rechecked = True  # type: ignore[attr-defined]  # the follow-up counted this request
        request.live_no_wait = True  # type: ignore[attr-defined]
        response = await call(request, **kwargs)
        granted = getattr(response, "live_grant", None)
        if granted is not None and response.status_code == 200:
            _grant(key, *granted)
        else:
            _grants.pop(key, None)
    except Exception:  # whatever went wrong, the credentials go through the full view next time
        _grants.pop(key, None)
        log.exception("live: checking a long-poll's credentials again failed")
    finally:
        _rechecking.discard(key)


class _Who:
    """What DRF's throttles read of a request's user."""

    def __init__(self, user_id: int | None) -> None:
        self.pk = user_id
        self.is_authenticated = user_id is not None


class _Caller:
    """What DRF's throttles read of a request."""

    def __init__(self, meta: dict[str, Any], user_id: int | None) -> None:
        self.META, self.user = meta, _Who(user_id)


def _throttles_allow(view_cls: type[APIView], meta: dict[str, Any], user_id: int | None) -> bool:
    """The view's throttles, counting this request as the view would (its cache, its keys)."""
    caller, view = _Caller(meta, user_id), view_cls()
    return all(throttle().allow_request(caller, view) for throttle in view_cls.throttle_classes)


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
            if entries:
                after = entries[-1].seq
                # one write per wake for every stream of the class, however many records
                yield entries[0].sse if len(entries) == 1 else entries[0].memo(
                    ("sse", len(entries)), lambda entries=entries: b"".join(e.sse for e in entries))
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
