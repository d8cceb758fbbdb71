"""``Idempotency-Key`` for every API write: the first answer is stored per user and key,
and a retry gets it again without doing the write twice."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from referee.errors import IdempotencyConflict
from referee.models import IdempotentRequest
from referee.store.hashing import canonical

MAX_KEY = 120


def idempotency_key(request: Request) -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    key = key.strip()
    if not key or len(key) > MAX_KEY:
        # A malformed header, not a reuse: nothing was looked up or refused by it.
        raise ValidationError({"Idempotency-Key": [f"An Idempotency-Key has 1 to {MAX_KEY} characters."]})
    return key


def idempotent(method: Callable[..., Response]) -> Callable[..., Response]:
    @functools.wraps(method)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = idempotency_key(request)
        if key is None or not request.user.is_authenticated:
            return method(self, request, *args, **kwargs)
        try:
            body = canonical(request.data)
        except (TypeError, ValueError):
            body = repr(request.data)
        fingerprint = hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()
        earlier = IdempotentRequest.objects.filter(user=request.user, key=key).first()
        if earlier is not None:
            if earlier.fingerprint != fingerprint:
                raise IdempotencyConflict("That Idempotency-Key was already used for a different request.")
            return Response(earlier.body, status=earlier.status, headers={"Idempotent-Replayed": "true"})
        with transaction.atomic():
            response = method(self, request, *args, **kwargs)
            if 200 <= response.status_code < 300:
                try:
                    with transaction.atomic():
                        IdempotentRequest.objects.create(
                            user=request.user, key=key, method=request.method, path=request.path[:300],
                            fingerprint=fingerprint, status=response.status_code, body=response.data,
                        )
                except IntegrityError:  # a concurrent retry stored its answer first
                    raise IdempotencyConflict("That request is already being handled; retry shortly.") from None
        return response

    return wrapper
