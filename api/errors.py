"""One JSON error shape everywhere: RFC 9457 problem details."""

from __future__ import annotations

import json
import logging
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.views import csrf, defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler

from games.base import RuleViolation
from games.serialization import DataError
from referee.errors import RefereeError

log = logging.getLogger(__name__)


def problem(status_code: int, code: str, title: str, detail: str, headers: dict[str, str] | None = None,
            **extra: Any) -> Response:
    body = {"type": f"/problems/{code}", "title": title, "status": status_code, "detail": detail, **extra}
    response = Response(body, status=status_code, headers=headers)
    response.content_type = "application/problem+json"
    return response


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RuleViolation):
        return problem(400, "rule_violation", "Order refused by the rules", exc.message, rule=exc.rule)
    if isinstance(exc, DataError):
        return problem(400, "malformed", "Malformed request", str(exc))
    if isinstance(exc, RefereeError):
        return problem(exc.status, exc.code, exc.code.replace("_", " ").capitalize(), exc.message)
    if isinstance(exc, (Http404, exceptions.NotFound)):
        return problem(404, "not_found", "Not found", "There is nothing here, or it is not yours to see.")
    if isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = exception_handler(exc, context)
    if response is None:
        # Not an API exception: a bug. Answer in the API's shape (even with DEBUG on) and
        # keep the traceback for the log.
        view = context.get("view")
        log.error("server error in %s", type(view).__name__ if view else "a view", exc_info=exc)
        return problem(500, "server_error", "Server error",
                       "Something went wrong on our side; it has been logged. Please try again later.")
    headers = {k: v for k, v in response.items() if k in ("WWW-Authenticate", "Retry-After", "Allow")}
    if isinstance(exc, exceptions.ValidationError):
        return problem(400, "invalid", "Invalid request", _first_message(exc.detail), headers, errors=exc.detail)
    if isinstance(exc, exceptions.Throttled):
        return problem(429, "throttled", "Too many requests",
                       f"Slow down: try again in {exc.wait or 1:.0f} seconds.", headers)
    code = str(getattr(exc, "default_code", "error"))
    detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
    return problem(response.status_code, code, code.replace("_", " ").capitalize(), str(detail), headers)


def _first_message(detail: Any, path: str = "") -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            return _first_message(value, f"{path}.{key}" if path else str(key))
    if isinstance(detail, list) and detail:
        return _first_message(detail[0], path)
    return f"{path}: {detail}" if path else str(detail)


# --- Django's own error views, for requests outside DRF's views ------------------------------

def _problem_http(status: int, code: str, title: str, detail: str) -> HttpResponse:
    body = {"type": f"/problems/{code}", "title": title, "status": status, "detail": detail}
    return HttpResponse(json.dumps(body), status=status, content_type="application/problem+json")


@csrf_exempt  # nothing is written here: a POST to an unknown path is a 404, not a CSRF refusal
def api_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """Every unknown path under /api/ (the last route of api/urls.py)."""
    path = request.path
    if not path.endswith("/"):
        from django.urls import Resolver404, resolve

        try:
            found = resolve(path + "/").url_name != "api-not-found"
        except Resolver404:
            found = False
        if found:
            if request.method in ("GET", "HEAD"):
                return HttpResponsePermanentRedirect(request.get_full_path(force_append_slash=True))
            return _problem_http(404, "not_found", "Not found", f"Every API path ends with a slash: {path}/")
    return _problem_http(404, "not_found", "Not found", "There is nothing here, or it is not yours to see.")


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def handler400(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return _problem_http(400, "bad_request", "Bad request", "The request could not be understood.")
    return defaults.bad_request(request, exception)


def handler403(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return _problem_http(403, "permission_denied", "Permission denied", "You may not do that.")
    return defaults.permission_denied(request, exception)


def handler404(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return api_not_found(request)
    return defaults.page_not_found(request, exception)


def handler500(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return _problem_http(500, "server_error", "Server error",
                             "Something went wrong on our side; it has been logged. Please try again later.")
    return defaults.server_error(request)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """settings.CSRF_FAILURE_VIEW: problem+json under /api/ (API clients authenticate with
    a token, which needs no CSRF token; a session without one is refused)."""
    if _is_api(request):
        return _problem_http(403, "csrf_failed", "CSRF check failed",
                             "A signed-in browser session must send its CSRF token; scripts use a token instead.")
    return csrf.csrf_failure(request, reason)
