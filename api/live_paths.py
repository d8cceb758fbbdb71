"""The paths of the waiting and streaming reads (``api.views.live.async_entry``): what the
ASGI handler and the middleware treat apart, and what the proxy routes to the live processes
(``deploy/nginx/referee.conf``). Imports nothing of Django: ``config.asgi`` reads it before
Django is set up."""

from __future__ import annotations

import re
from typing import Any

LIVE_PATH = re.compile(r"^/api/games/[^/]+/(events|stream)/$")


def is_live_read(request: Any) -> bool:
    return request.method in ("GET", "HEAD") and LIVE_PATH.match(request.path_info) is not None
