"""Django's middleware on the live reads, under ASGI: its hooks run in the event loop's own
thread (no hand-off to a thread and back per hook, a dozen per long-poll), except where one
may wait (a changed session is saved in a thread, as Django does it); every other request
runs its middleware as Django does."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from django.contrib.sessions.backends import signed_cookies
from django.core.handlers.base import BaseHandler
from django.http import HttpResponse
from django.test import AsyncRequestFactory
from django.utils.deprecation import MiddlewareMixin

from api import live_paths
from api.live_middleware import CsrfViewMiddleware, OnTheLoopForLiveReads, SessionMiddleware

GAME = "0b4c4ad2-8b9f-4a4e-9d0e-3f4c2f5d6e7a"


class Probe(OnTheLoopForLiveReads, MiddlewareMixin):
    """Notes the thread each hook runs in."""

    def __init__(self, get_response: Any) -> None:
        super().__init__(get_response)
        self.threads: list[int] = []

    def process_request(self, request: Any) -> None:
        self.threads.append(threading.get_ident())

    def process_response(self, request: Any, response: Any) -> Any:
        self.threads.append(threading.get_ident())
        return response


async def answer(request: Any) -> HttpResponse:
    return HttpResponse(b"{}")


def hooks_threads(method: str, path: str) -> tuple[list[int], int]:
    """The threads ``Probe``'s hooks ran in for ``method path``, and the loop's thread."""
    async def run() -> tuple[list[int], int]:
        probe = Probe(answer)
        request = AsyncRequestFactory().generic(method, path)
        await probe(request)
        return probe.threads, threading.get_ident()

    return asyncio.run(run())


@pytest.mark.parametrize("path", [f"/api/games/{GAME}/events/?after=3&wait=20", f"/api/games/{GAME}/stream/"])
def test_a_live_reads_middleware_runs_in_the_event_loops_thread(path):
    threads, loop_thread = hooks_threads("GET", path)
    assert threads == [loop_thread, loop_thread]


@pytest.mark.parametrize(("method", "path"), [
    ("POST", f"/api/games/{GAME}/commands/"),
    ("GET", f"/api/games/{GAME}/"),
    ("GET", f"/games/{GAME}/"),
    ("POST", f"/api/games/{GAME}/events/"),
])
def test_every_other_requests_middleware_runs_as_django_runs_it(method, path):
    threads, loop_thread = hooks_threads(method, path)
    assert len(threads) == 2 and loop_thread not in threads


def test_every_django_middleware_in_the_settings_is_the_live_kind(settings):
    from django.utils.module_loading import import_string

    for path in settings.MIDDLEWARE:
        cls = import_string(path)
        if issubclass(cls, MiddlewareMixin) and not path.startswith("api.middleware."):
            assert issubclass(cls, OnTheLoopForLiveReads), path
    assert live_paths.LIVE_PATH.pattern == r"^/api/games/[^/]+/(events|stream)/$"


class SessionStore(signed_cookies.SessionStore):
    """A session engine (``SESSION_ENGINE`` = this module) noting the thread each save runs in."""

    saved_in: list[int] = []

    def save(self, must_create: bool = False) -> None:
        SessionStore.saved_in.append(threading.get_ident())
        super().save(must_create)


def test_a_session_changed_during_a_live_read_is_saved_in_a_thread_as_django_does(settings):
    settings.SESSION_ENGINE = __name__
    SessionStore.saved_in.clear()

    async def changes_the_session(request: Any) -> HttpResponse:
        request.session["seen"] = 1
        return HttpResponse(b"{}")

    async def run() -> tuple[HttpResponse, int]:
        request = AsyncRequestFactory().get(f"/api/games/{GAME}/events/?wait=5")
        return await SessionMiddleware(changes_the_session)(request), threading.get_ident()

    response, loop_thread = asyncio.run(run())
    assert response.cookies["sessionid"].value
    assert len(SessionStore.saved_in) == 1 and SessionStore.saved_in[0] != loop_thread


def csrf_check_threads(path: str, method: str = "GET") -> tuple[list[int], int]:
    """The threads the CSRF check ran in for a request, as the ASGI handler calls it."""
    seen: list[int] = []

    class Noted(CsrfViewMiddleware):
        def process_view(self, request: Any, callback: Any, args: Any, kwargs: Any) -> Any:
            seen.append(threading.get_ident())
            return super().process_view(request, callback, args, kwargs)

    async def run() -> int:
        middleware = Noted(answer)
        handler = BaseHandler()
        check = handler.adapt_method_mode(True, middleware.process_view)  # what load_middleware does
        request = AsyncRequestFactory().generic(method, path)
        await check(request, answer, (), {})
        return threading.get_ident()

    loop_thread = asyncio.run(run())
    return seen, loop_thread


def test_the_csrf_check_of_a_live_read_runs_in_the_event_loops_thread():
    seen, loop_thread = csrf_check_threads(f"/api/games/{GAME}/events/?wait=5")
    assert seen == [loop_thread]


def test_the_csrf_check_of_any_other_request_runs_in_a_thread_as_django_does():
    seen, loop_thread = csrf_check_threads(f"/api/games/{GAME}/commands/", "POST")
    assert len(seen) == 1 and seen[0] != loop_thread
