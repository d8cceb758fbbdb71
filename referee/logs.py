"""Logs: one JSON object a line in production, plain text under ``make run``, each line
carrying the request (or Celery task) id, the game and the seat where there is one.

The three are context variables, set by :class:`RequestContextMiddleware` (the request id,
taken from ``X-Request-ID`` or made, and answered in the same header; the game from the
URL), by the code that learns the seat (``selectors.viewer_for``, ``services.command_handle``)
and by Celery tasks (the task id, the game they work on). The formatters read them, so any
logger anywhere (Django's, Celery's, ours) gets them without passing anything along.

Nothing here imports Django at import time: gunicorn's own logging uses the formatters
before the application is loaded.
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as dt
import json
import logging
import re
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction

REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("referee_request_id", default=None)
GAME_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("referee_game_id", default=None)
SEAT: contextvars.ContextVar[int | None] = contextvars.ContextVar("referee_seat", default=None)
_VARS: dict[str, contextvars.ContextVar[Any]] = {"request_id": REQUEST_ID, "game_id": GAME_ID, "seat": SEAT}

#: A request id from outside is kept only when it is short and plain (it goes into every line).
_SAFE_ID = re.compile(r"^[A-Za-z0-9._:\-]{1,128}$")
_GAME_ID = re.compile(r"^[0-9a-fA-F-]{32,36}$")


def bind(**values: Any) -> None:
    """Set ``request_id``, ``game_id`` or ``seat`` for the rest of this request or task."""
    for name, value in values.items():
        _VARS[name].set(value)


@contextlib.contextmanager
def context(**values: Any) -> Iterator[None]:
    """Set them for the ``with`` block only."""
    tokens = [(_VARS[name], _VARS[name].set(value)) for name, value in values.items()]
    try:
        yield
    finally:
        for var, token in reversed(tokens):
            var.reset(token)


def current() -> dict[str, Any]:
    return {name: value for name, var in _VARS.items() if (value := var.get()) is not None}


# Everything a LogRecord has of its own; anything else on a record came in ``extra=``.
_RECORD_FIELDS = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC), level, logger, message, the context, what came
    in ``extra=``, and the traceback as one string."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(current())
        line.update({k: v for k, v in vars(record).items() if k not in _RECORD_FIELDS and not k.startswith("_")})
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """Plain lines for a person at a terminal, the context appended when there is one."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        context_now = current()
        if not context_now:
            return text
        first, newline, rest = text.partition("\n")
        said = " ".join(f"{k}={v}" for k, v in context_now.items())
        return f"{first} [{said}]{newline}{rest}"


def formatter_for(log_format: str) -> str:
    return "referee.logs.JsonFormatter" if log_format == "json" else "referee.logs.TextFormatter"


def logging_config(*, log_format: str, level: str) -> dict[str, Any]:
    """The ``LOGGING`` setting (and gunicorn's ``logconfig_dict``): one stream handler in
    the chosen format; one access line per request (``referee.access``) only in JSON, where
    it replaces the server's own plain access log."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"referee": {"()": formatter_for(log_format)}},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "referee"}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {"referee.access": {"level": "INFO" if log_format == "json" else "WARNING"}},
    }


access_log = logging.getLogger("referee.access")


def request_id_from(header: str | None) -> str:
    return header if header and _SAFE_ID.match(header) else uuid.uuid4().hex


class RequestContextMiddleware:
    """The request id (``X-Request-ID`` if the caller or a proxy sent a plain one, else a
    new one), answered in the same header; the game from the URL; an access line.

    Async-capable: a sync-only middleware would put every request of an ASGI worker through
    one thread, and a long-poll waiting there would hold up every other request."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: Any) -> Any:
        if self.is_async:
            return self._acall(request)
        request_id, started = self._begin(request)
        try:
            return self._end(request, self.get_response(request), request_id, started)
        finally:
            bind(request_id=None, game_id=None, seat=None)

    async def _acall(self, request: Any) -> Any:
        request_id, started = self._begin(request)
        try:
            return self._end(request, await self.get_response(request), request_id, started)
        finally:
            bind(request_id=None, game_id=None, seat=None)

    @staticmethod
    def _begin(request: Any) -> tuple[str, float]:
        request_id = request_id_from(request.headers.get("X-Request-ID"))
        request.request_id = request_id
        bind(request_id=request_id, game_id=None, seat=None)
        return request_id, time.perf_counter()

    @staticmethod
    def _end(request: Any, response: Any, request_id: str, started: float) -> Any:
        response["X-Request-ID"] = request_id
        access_log.info("%s %s %s", request.method, request.path, response.status_code, extra={
            "method": request.method, "path": request.path, "status": response.status_code,
            "duration_ms": round((time.perf_counter() - started) * 1000, 1)})
        return response

    def process_view(self, request: Any, view_func: Any, view_args: Any, view_kwargs: dict[str, Any]) -> None:
        game_id = view_kwargs.get("game_id")
        if isinstance(game_id, str) and _GAME_ID.match(game_id):
            bind(game_id=game_id.lower())
