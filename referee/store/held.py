"""Appends held back for the rest of a unit of work and written in one statement at its end.

A deadline job appends twice under one game lock: the expiry (the notice and the referee's
order), then the next turn's start, decided from the position the expiry made. Held, the
second append joins the first: both are numbered, chained and hashed as they are decided
(``store.base.stamp``), kept here, and written by one INSERT when the unit ends, with the
expected sequence number and the predecessor's hash checked in it as for any append. Every
read of the game's log in the meantime writes what is held first, so no read in the unit
misses a record it appended.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from referee.store.base import Snapshot, StoredRecord


@dataclass
class Held:
    """One game's records appended and not yet written, in order from ``first_seq``."""

    first_seq: int
    prev_hash: str  # the hash of record ``first_seq - 1``, checked when they are written
    records: list[StoredRecord] = field(default_factory=list)
    snapshot: Snapshot | None = None

    @property
    def next_seq(self) -> int:
        return self.first_seq + len(self.records)

    @property
    def last_hash(self) -> str:
        return self.records[-1].hash if self.records else self.prev_hash


class HeldAppends(threading.local):
    """Per thread: the games whose appends are held (None: held, nothing appended yet)."""

    def __init__(self) -> None:
        self.games: dict[str, Held | None] = {}

    def follows(self, game_id: str, expected_seq: int, prev_hash: str, snapshot: Snapshot | None) -> bool:
        """Whether an append at ``expected_seq`` after ``prev_hash`` extends what is held."""
        held = self.games.get(game_id)
        return held is None or (expected_seq == held.next_seq and prev_hash == held.last_hash
                                and (snapshot is None or held.snapshot is None))

    def hold(self, game_id: str, expected_seq: int, prev_hash: str, stored: list[StoredRecord],
             snapshot: Snapshot | None) -> None:
        held = self.games.get(game_id)
        if held is None:
            held = self.games[game_id] = Held(expected_seq, prev_hash)
        held.records += stored
        held.snapshot = snapshot or held.snapshot

    def take(self, game_id: str) -> Held | None:
        """What is held for the game (None if nothing), no longer held; the game stays held."""
        held = self.games.get(game_id)
        if held is not None:
            self.games[game_id] = None
        return held
