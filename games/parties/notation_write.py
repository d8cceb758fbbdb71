"""The notation writer (``games.parties.notation``): a position as one line of text.

``PartiesState.__repr__`` prints with it, so it imports the state only for type checking.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from games.parties.board import DEFAULT_POLICY, name

if TYPE_CHECKING:
    from games.parties.state import Bot, PartiesState

ENDS = {"": "-", "united": "united", "tick cap": "cap"}


def tenths(value: int) -> str:
    """Strength as shown: 12 -> "1.2"."""
    return f"{value // 10}.{value % 10}"


def format_grid(rows: tuple[str, ...]) -> str:
    out = []
    for row in rows:
        text = re.sub(r"\.+", lambda m: str(len(m.group(0))), row)
        out.append(text)
    return "/".join(out) or "-"


def format_bot(bot: Bot) -> str:
    text = f"{bot.seat}@{name(bot.square)}:{tenths(bot.strength)}:{bot.score}"
    return text if bot.ally == DEFAULT_POLICY else f"{text}:{bot.ally}"


def format_position(state: PartiesState) -> str:
    bots = ",".join(format_bot(b) for b in state.bots) or "-"
    parties = ";".join(">".join(str(s) for s in p) for p in state.parties) or "-"
    clock = f"{state.tick}@{state.tick_start_ms}+{state.tick_ms}/{state.max_ticks}"
    pending = ",".join(f"{s}:{d}" for s, d in state.pending) or "-"
    return " ".join((format_grid(state.rows), bots, parties, clock, pending, ENDS.get(state.ended, state.ended)))
