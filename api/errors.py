"""One JSON error shape everywhere: RFC 9457 problem details."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from games.base import RuleViolation
from games.serialization import DataError
from referee.errors import RefereeError


def problem(status_code: int, code: str, title: str, detail: str, **extra: Any) -> Response:
    body = {"type": f"/problems/{code}", "title": title, "status": status_code, "detail": detail, **extra}
    return Response(body, status=status_code, content_type="application/problem+json")


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RuleViolation):
        return problem(400, "rule_violation", "Order refused by the rules", exc.message, rule=exc.rule)
    if isinstance(exc, DataError):
        return problem(400, "malformed", "Malformed request", str(exc))
    if isinstance(exc, RefereeError):
        return problem(exc.status, exc.code, exc.code.replace("_", " ").capitalize(), exc.message)
    if isinstance(exc, Http404):
        return problem(404, "not_found", "Not found", "There is nothing here, or it is not yours to see.")
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        return problem(400, "invalid", "Invalid request", "The request is not valid.", errors=exc.detail)
    detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
    code = getattr(exc, "default_code", "error")
    return problem(response.status_code or status.HTTP_400_BAD_REQUEST, str(code), str(code).replace("_", " ").capitalize(), str(detail))
