"""Plain-English lines for Wormlord's feed records, from the record as the viewer got it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

REASONS = {
    "objectives": "three Objective spaces held (§2)",
    "time": "the most spaces when the time ran out, Objectives counting double (§7.2)",
}


def clock_time(ms: Any) -> str:
    """A moment in ms since the epoch as a UTC time of day, to the tenth of a second."""
    try:
        moment = dt.datetime.fromtimestamp(int(ms) / 1000, tz=dt.UTC)
    except (TypeError, ValueError, OverflowError, OSError):
        return "?"
    return moment.strftime("%H:%M:%S.") + f"{moment.microsecond // 100_000}" + " UTC"


def _scores(scores: Any) -> str:
    try:
        return ", ".join(f"{colour} {points}" for colour, points in scores)
    except (TypeError, ValueError):
        return ""


def narrate(record: Mapping[str, Any], names: Mapping[int, str]) -> str | None:
    """One line for the record, or None if it is not one of Wormlord's own records."""
    p = record.get("payload") or {}

    def who(seat: Any) -> str:
        return names.get(seat, f"seat {seat}") if seat is not None else "nobody"

    def side(colour: Any, seats: Any = None) -> str:
        if seats:
            return f"{str(colour).capitalize()} ({' and '.join(who(s) for s in seats)})"
        return str(colour).capitalize()

    def round_won() -> str:
        line = f"{side(p.get('colour'))} won round {p.get('round')}: {REASONS.get(p.get('reason'), p.get('reason'))}"
        return line + (f" — scores {_scores(p.get('scores'))}." if p.get("scores") else ".")

    def started() -> str:
        line = f"Round {p.get('round')} is set up: 3, 2, 1, NOW! at {clock_time(p.get('starts_at_ms'))}"
        if p.get("ends_at_ms"):
            line += f"; the round ends at {clock_time(p.get('ends_at_ms'))} (§7.2)"
        return line + "."

    lines: dict[str, Callable[[], str]] = {
        "GameSetUp": lambda: "The board is set up ({}): {}.".format(
            p.get("map_id") or "standard",
            "; ".join(f"{side(s.get('colour'), s.get('seats'))} with its base on {s.get('base')}"
                      for s in p.get("sides", []))),
        "RoundStarted": started,
        "KnotPlaced": lambda: f"{who(p.get('seat'))} ({p.get('colour')}) took {p.get('square')}.",
        "KnotLiberated": lambda: (f"{who(p.get('by_seat'))} ({p.get('by')}) liberated {p.get('square')} from "
                                  f"{p.get('owner')}: the string goes back to {p.get('owner')}'s supply."),
        "HeadquartersPlaced": lambda: (
            f"{who(p.get('seat'))} ({p.get('colour')}) put the headquarters on {p.get('square')}"
            + (f" (moved from {p.get('from_square')})" if p.get("from_square") else "")
            + f": {p.get('square')} cannot be liberated while it stays (§5)."),
        "HeadquartersLifted": lambda: (f"{who(p.get('seat'))} ({p.get('colour')}) took the headquarters off "
                                       f"{p.get('square')}."),
        "RoundWon": round_won,
        "RoundTied": lambda: (f"Round {p.get('round')} is tied ({_scores(p.get('scores'))}): nobody wins it, "
                              "it is played again (§7.2)."),
        "GameWon": lambda: f"{side(p.get('colour'), p.get('seats'))} won the game: two rounds won (§6).",
        "TeamSpoke": lambda: f"{who(p.get('seat'))} to the {p.get('colour')} team: “{p.get('text')}”",
    }
    line = lines.get(str(record.get("type", "")))
    if line is None:
        return None
    try:
        return line()
    except (AttributeError, TypeError, KeyError):  # a payload of an unexpected shape
        return None
