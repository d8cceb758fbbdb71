"""Refuse NUL characters anywhere in a request: PostgreSQL text and jsonb cannot hold them,
so without this they would surface as server errors deep in a query."""

from __future__ import annotations

import json
from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from django.http import HttpRequest, HttpResponse


def _problem() -> HttpResponse:
    body = {"type": "/problems/malformed", "title": "Malformed request", "status": 400,
            "detail": "The request contains a NUL character, which no field may hold."}
    return HttpResponse(json.dumps(body), status=400, content_type="application/problem+json")


class RejectNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path or b"\x00" in unquote_to_bytes(query):
            return _problem()
        if request.method in ("POST", "PUT", "PATCH"):
            body = request.body
            if b"\x00" in body or b"\\u0000" in body:
                return _problem()
        return self.get_response(request)
