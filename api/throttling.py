"""DRF's throttles on the shared cache (settings.CACHES: Redis in production), failing open:
if the cache cannot be reached the request goes through (and the failure is logged), so a
cache outage slows nobody down to a 500. /health/ reports the cache."""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.base import BaseCache
from rest_framework import throttling

log = logging.getLogger(__name__)


_shared: BaseCache | None = None


def shared_cache() -> BaseCache:
    """One cache client per process for the counters. Django's ``cache`` is one per request
    context, and under ASGI every request has its own: with Redis, each throttled request
    opened (and handshook) a new connection."""
    global _shared
    if _shared is None:
        _shared = caches.create_connection(DEFAULT_CACHE_ALIAS)
    return _shared


class _FailOpen:
    @property
    def cache(self) -> BaseCache:
        return shared_cache()

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return super().allow_request(request, view)  # type: ignore[misc]
        except Exception as exc:  # the cache is down: better unthrottled than unavailable
            log.warning("throttle cache unavailable, request let through: %s", exc)
            return True


class AnonRateThrottle(_FailOpen, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(_FailOpen, throttling.UserRateThrottle):
    pass
