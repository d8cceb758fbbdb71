"""The referee's clock. Production reads the system clock; tests inject time, also into
other processes (a real Celery worker), through a file named by ``REFEREE_CLOCK_FILE``
holding an ISO-8601 instant. No test waits hours."""

from __future__ import annotations

import datetime as dt
import os
import threading
import time
from pathlib import Path

from django.utils import timezone

# The injected instant as last read, by the file's identity: a job asks the time several
# times, and a stat costs a fraction of an open and read (which the benchmarks would
# otherwise count as the referee's own time). ``set_fake_now`` replaces the file and stamps
# it with the nanosecond it was written (a file system's own stamps can be a few
# milliseconds coarse), so a moved clock never looks like the one already read.
_read: tuple[str, int, int, dt.datetime | None] | None = None


def now() -> dt.datetime:
    global _read
    path = os.environ.get("REFEREE_CLOCK_FILE")
    if path:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return timezone.now()
        cached = _read
        if cached is not None and cached[:3] == (path, st.st_ino, st.st_mtime_ns):
            instant = cached[3]
        else:
            try:
                text = Path(path).read_text().strip()
            except FileNotFoundError:
                text = ""
            instant = dt.datetime.fromisoformat(text) if text else None
            _read = (path, st.st_ino, st.st_mtime_ns, instant)
        if instant is not None:
            return instant
    return timezone.now()


def set_fake_now(path: str | os.PathLike[str], instant: dt.datetime) -> None:
    """Tests only: move the injected clock (atomically, so a reader never sees half a time)."""
    # a temporary file of this writer's own: two writers sharing one would move it from
    # under each other
    tmp = Path(f"{path}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(instant.isoformat())
    written = time.time_ns()
    os.utime(tmp, ns=(written, written))
    tmp.replace(path)
