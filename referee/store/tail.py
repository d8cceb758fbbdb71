"""The log's tail read in the statement that locks its game (PostgreSQL).

An order and a deadline job begin with one statement that locks the game and reads what the
unit needs of its other tables once the lock is held. The position they decide from needs
the log's tail too: the records after the head the process has cached, or, when it has
none, the latest snapshot and the records after it. Read in a statement of its own, that
was a round trip per order and per job; here it comes in the lock's statement, from
``referee_log_tail`` (migration 0017) called on the locked row, so once the lock is held
and with a snapshot of its own, as fresh as a statement sent after the lock. Its rows
follow the lock's rows (``UNION ALL``), padded on either side with NULLs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.store.base import LoadedTail
from referee.store.django_store import loaded_tail

#: The function's columns: the part (0: the snapshot, 1: a record), then ``sql.READ_COLUMNS``.
TAIL_WIDTH = 18


def lock_with_tail(lock: str, columns: str, from_: str, width: int) -> str:
    """``WITH l AS (lock) SELECT columns FROM from_`` (``width`` columns; ``l`` is the
    locked row, with the game's id as ``id``), then the rows of the game's log tail. The
    last parameter is where the tail starts (``Positions.tail_wanted``)."""
    pad_tail = ", ".join(["NULL"] * TAIL_WIDTH)
    pad_lock = ", ".join(["NULL"] * width)
    return (f"WITH l AS ({lock}) SELECT {columns}, {pad_tail} FROM {from_} "
            f"UNION ALL SELECT {pad_lock}, t.* FROM l CROSS JOIN LATERAL referee_log_tail(l.id, %s::int4) AS t")


def split(game: str, rows: Sequence[Sequence[Any]], width: int) -> tuple[list[Sequence[Any]], LoadedTail]:
    """The lock's rows (their first ``width`` columns) and the tail, from the rows of a
    ``lock_with_tail`` statement."""
    locked = [row[:width] for row in rows if row[width] is None]
    return locked, loaded_tail(game, (row for row in rows if row[width] is not None), width)
