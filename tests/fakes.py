"""Fakes shared by the tests (cosmicpython style: small working stand-ins, never mocks)."""

from __future__ import annotations

import datetime as dt

#: Where every fake clock starts unless told otherwise.
T0 = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)


class FakeClock:
    """The referee's clock as a test moves it: it stands still until ``advance``d, or, given
    ``tick``, moves on by that much each time it is read (so every record gets its own time)."""

    def __init__(self, start: dt.datetime = T0, *, tick: dt.timedelta | None = None) -> None:
        self.now = start
        self.tick = tick

    def __call__(self) -> dt.datetime:
        if self.tick is not None:
            self.now += self.tick
        return self.now

    def advance(self, ms: float = 0, **delta: float) -> None:
        """Move on by ``ms`` milliseconds and/or ``timedelta`` keywords (``seconds=5``)."""
        self.now += dt.timedelta(milliseconds=ms, **delta)

    @property
    def ms(self) -> int:
        return int(self.now.timestamp() * 1000)
