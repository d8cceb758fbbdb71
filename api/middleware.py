"""Requests refused before any view: every refusal is problem+json.

``RequestLimitsASGI`` (around the whole ASGI application) refuses request targets, header
blocks and bodies that are too large before they are read; ``RejectNulMiddleware`` refuses
NUL characters anywhere in a request (PostgreSQL text and jsonb cannot hold them, so they
would surface as server errors deep in a query) and bodies above Django's limit (where the
body came without a length, or under WSGI)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import unquote_to_bytes

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]


def problem_body(status: int, code: str, title: str, detail: str) -> bytes:
    return json.dumps({"type": f"/problems/{code}", "title": title, "status": status, "detail": detail}).encode()


def _problem(status: int, code: str, title: str, detail: str) -> HttpResponse:
    return HttpResponse(problem_body(status, code, title, detail), status=status,
                        content_type="application/problem+json")


def _nul() -> HttpResponse:
    return _problem(400, "malformed", "Malformed request",
                    "The request contains a NUL character, which no field may hold.")


def _too_big() -> HttpResponse:
    return _problem(413, "too_large", "Request body too large",
                    f"A request body may have at most {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes.")


class RejectNulMiddleware:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._acall(request)
        return self._refusal(request) or self.get_response(request)

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        # Under ASGI the body is already read into memory or a temporary file: checking it
        # here blocks nothing, and keeps the async views async.
        return self._refusal(request) or await self.get_response(request)

    @staticmethod
    def _refusal(request: HttpRequest) -> HttpResponse | None:
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path or b"\x00" in unquote_to_bytes(query):
            return _nul()
        if request.method in ("POST", "PUT", "PATCH"):
            try:
                body = request.body
            except RequestDataTooBig:
                return _too_big()
            if b"\x00" in body or b"\\u0000" in body:
                return _nul()
        return None


class RequestLimitsASGI:
    """Refuse what is too large from the scope alone, before the body is read: the request
    target (414), the header block (431), a declared body length (413); and stop reading a
    body sent without a length once it passes the limit (413)."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self._refusal(scope)
        if refusal is not None:
            await _send_problem(send, *refusal)
            return
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        state = {"read": 0, "over": False, "started": False}

        async def limited_receive() -> Message:
            message = await receive()
            if message["type"] == "http.request":
                state["read"] += len(message.get("body", b""))
                if limit is not None and state["read"] > limit:
                    state["over"] = True
                    return {"type": "http.disconnect"}  # Django stops reading and answers nothing
            return message

        async def watched_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                state["started"] = True
            await send(message)

        await self.app(scope, limited_receive, watched_send)
        if state["over"] and not state["started"]:
            await _send_problem(send, 413, "too_large", "Request body too large",
                                f"A request body may have at most {limit} bytes.")

    @staticmethod
    def _refusal(scope: Scope) -> tuple[int, str, str, str] | None:
        target = len(scope.get("raw_path") or scope["path"].encode()) + len(scope.get("query_string", b""))
        if target > settings.REFEREE_MAX_URL_BYTES:
            return (414, "uri_too_long", "Request target too long",
                    f"The path and query may have at most {settings.REFEREE_MAX_URL_BYTES} bytes.")
        headers = scope.get("headers", [])
        if sum(len(k) + len(v) + 4 for k, v in headers) > settings.REFEREE_MAX_HEADER_BYTES:
            return (431, "headers_too_large", "Request headers too large",
                    f"The headers may have at most {settings.REFEREE_MAX_HEADER_BYTES} bytes in all.")
        for key, value in headers:
            if key.lower() == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    return 400, "malformed", "Malformed request", "Content-Length is not a number."
                limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
                if limit is not None and length > limit:
                    return (413, "too_large", "Request body too large",
                            f"A request body may have at most {limit} bytes.")
        return None


async def _send_problem(send: Callable[[Message], Awaitable[None]], status: int, code: str, title: str,
                        detail: str) -> None:
    body = problem_body(status, code, title, detail)
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/problem+json"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]})
    await send({"type": "http.response.body", "body": body})


class StaticFilesMiddleware:
    """WhiteNoise's static files, without making every request synchronous. WhiteNoise's
    middleware is synchronous only, so under ASGI Django would run the whole middleware
    chain of every request (an order, each long-poll) in a thread of its own, created per
    request, and hop back to the event loop for the view; here only a static file is served
    in a thread."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        from whitenoise.middleware import WhiteNoiseMiddleware

        self.get_response = get_response
        self.static = WhiteNoiseMiddleware(get_response)
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._acall(request)
        return self.static(request)

    async def _acall(self, request: HttpRequest) -> Any:
        from asgiref.sync import sync_to_async

        static = self.static
        if static.autorefresh:  # DEBUG: it looks on disk
            found = await sync_to_async(static.find_file)(request.path_info)
        else:
            found = static.files.get(request.path_info)
        if found is None:
            return await self.get_response(request)
        return await sync_to_async(static.serve)(found, request)
