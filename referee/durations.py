"""Durations in words, for turn limits that run from seconds (a bot tick) to days."""

from __future__ import annotations


def duration_text(seconds: int) -> str:
    """``129600`` -> "36 hours", ``180`` -> "3 minutes", ``90`` -> "90 seconds"."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0 and not (unit == "day" and seconds < 3 * 86400):
            n = seconds // size
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds} second{'s' if seconds != 1 else ''}"
