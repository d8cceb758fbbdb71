"""The injected clock (``REFEREE_CLOCK_FILE``) that tests and benchmarks move: each reading
is the instant last set, however quickly it is moved, although the file is read again only
when it changed."""

from __future__ import annotations

import datetime as dt

from referee import clock

T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


def test_every_reading_is_the_instant_last_set_however_quickly_it_moves(tmp_path, monkeypatch):
    path = tmp_path / "clock"
    monkeypatch.setenv("REFEREE_CLOCK_FILE", str(path))
    for i in range(500):
        clock.set_fake_now(path, T0 + dt.timedelta(seconds=2 * i))
        assert clock.now() == T0 + dt.timedelta(seconds=2 * i)
        clock.set_fake_now(path, T0 + dt.timedelta(seconds=2 * i + 1))  # moved twice between readings
        clock.set_fake_now(path, T0 + dt.timedelta(seconds=2 * i + 1, milliseconds=500))
        assert clock.now() == T0 + dt.timedelta(seconds=2 * i + 1, milliseconds=500)


def test_without_the_file_the_clock_is_the_system_clock(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_CLOCK_FILE", str(tmp_path / "missing"))
    before = dt.datetime.now(dt.UTC)
    assert before <= clock.now() <= dt.datetime.now(dt.UTC)
