"""Position notation: one line of text for a whole position, as FEN is for chess.

    <rows> <water> <wind> <round> <turn> <teams> <worms> <mines> <drums> <crates> <cards> <inventories> <progress>

See docs/notation.md for the grammar and examples. ``parse(text)`` raises
``NotationError`` with a precise reason; ``format_position(state)`` writes it back exactly;
``validate(state)`` lists what is wrong with a position that parses but cannot happen.
The writer, the reader and the checks are ``notation_write``, ``notation_read`` and
``notation_check``; this module gathers them.
"""

from __future__ import annotations

from games.worms.notation_check import validate
from games.worms.notation_read import (
    FIELDS,
    NotationError,
    parse,
    parse_items,
    parse_progress,
    parse_rows,
    parse_stock,
)
from games.worms.notation_write import (
    HEIGHT_CHARS,
    RUN_FROM,
    format_items,
    format_position,
    format_progress,
    format_rows,
    format_stock,
)

__all__ = [
    "FIELDS",
    "HEIGHT_CHARS",
    "RUN_FROM",
    "NotationError",
    "format_items",
    "format_position",
    "format_progress",
    "format_rows",
    "format_stock",
    "parse",
    "parse_items",
    "parse_progress",
    "parse_rows",
    "parse_stock",
    "validate",
]
