"""The referee's clock. Production reads the system clock; tests inject time, also into
other processes (a real Celery worker), through a file named by ``REFEREE_CLOCK_FILE``
holding an ISO-8601 instant. No test waits hours."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from django.utils import timezone


def now() -> dt.datetime:
    path = os.environ.get("REFEREE_CLOCK_FILE")
    if path:
        try:
            text = Path(path).read_text().strip()
        except FileNotFoundError:
            text = ""
        if text:
            return dt.datetime.fromisoformat(text)
    return timezone.now()


def set_fake_now(path: str | os.PathLike[str], instant: dt.datetime) -> None:
    """Tests only: move the injected clock (atomically, so a reader never sees half a time)."""
    tmp = Path(f"{path}.tmp")
    tmp.write_text(instant.isoformat())
    tmp.replace(path)
