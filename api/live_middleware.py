"""Django's own middleware, run on the event loop for the live reads.

Under ASGI Django runs each hook of its synchronous middleware through ``sync_to_async``: a
hand-off to a thread and back, a dozen per request with the middleware of
``settings.MIDDLEWARE``. A long-poll is answered and asked again by every waiting reader each
time its game's log grows, so for the processes serving the live reads those hand-offs were
a good part of their work per reader. On those requests none of these hooks waits for
anything (they set headers, read cookies, make lazy objects; the CSRF check lets a GET
through); the one that may (a session that was changed is saved) keeps its thread. Every other request runs as Django runs it.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import middleware as auth
from django.contrib.messages import middleware as messages
from django.contrib.sessions import middleware as sessions
from django.middleware import clickjacking, common, csrf, security

from api.live_paths import is_live_read


class OnTheLoopForLiveReads:
    """Runs a ``MiddlewareMixin``'s hooks in the event loop's own thread for the live reads."""

    async def __acall__(self, request: Any) -> Any:
        if not is_live_read(request):
            return await super().__acall__(request)  # type: ignore[misc]
        response = self.process_request(request) if hasattr(self, "process_request") else None
        response = response or await self.get_response(request)  # type: ignore[attr-defined]
        if hasattr(self, "process_response"):
            if self.waits_in_response(request):
                response = await sync_to_async(self.process_response, thread_sensitive=True)(request, response)
            else:
                response = self.process_response(request, response)
        return response

    def waits_in_response(self, request: Any) -> bool:
        return False


class SecurityMiddleware(OnTheLoopForLiveReads, security.SecurityMiddleware):
    pass


class SessionMiddleware(OnTheLoopForLiveReads, sessions.SessionMiddleware):
    def waits_in_response(self, request: Any) -> bool:
        session = getattr(request, "session", None)
        return session is None or session.modified or settings.SESSION_SAVE_EVERY_REQUEST


class CommonMiddleware(OnTheLoopForLiveReads, common.CommonMiddleware):
    pass


class CsrfViewMiddleware(OnTheLoopForLiveReads, csrf.CsrfViewMiddleware):
    def __init__(self, get_response: Any) -> None:
        super().__init__(get_response)
        if self.async_mode:
            # The handler awaits a coroutine function as it is, where it would hand a
            # synchronous one to a thread: the live reads' check (a GET is let through) stays here.
            self.process_view = self._process_view_async  # type: ignore[method-assign]

    async def _process_view_async(self, request: Any, callback: Any, args: Any, kwargs: Any) -> Any:
        check = type(self).process_view  # the class's, not this instance's coroutine
        if is_live_read(request) and not settings.CSRF_USE_SESSIONS:
            return check(self, request, callback, args, kwargs)
        return await sync_to_async(check, thread_sensitive=True)(self, request, callback, args, kwargs)

    def waits_in_response(self, request: Any) -> bool:
        return bool(settings.CSRF_USE_SESSIONS)  # the token would be written to the session


class AuthenticationMiddleware(OnTheLoopForLiveReads, auth.AuthenticationMiddleware):
    pass


class MessageMiddleware(OnTheLoopForLiveReads, messages.MessageMiddleware):
    pass


class XFrameOptionsMiddleware(OnTheLoopForLiveReads, clickjacking.XFrameOptionsMiddleware):
    pass
