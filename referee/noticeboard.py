"""Where the core tells what someone may want to hear of: a game over or corrected, a
league's new game, a turn begun or a reminder due. The core only tells; an app above it
plugs in what records the deliveries (the notices app, from its ``AppConfig.ready``), so the
core names no app above it. What is plugged in records in the caller's transaction. With
nothing plugged in nothing is recorded, and a turn's e-mails still find their recipients
(``notifications.recipients_get``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


class Recorder(Protocol):
    def record(self, *, notice: str, game_id: str, key: str, seats: Iterable[int] | None = None) -> None:
        """Record ``notice`` for the channels that want it (of ``seats``; every seat: None)."""

    def league_game_made(self, *, league_id: int, game_id: str) -> None:
        """From now on the league's channels hear of this game."""

    def recipients_recording(self, *, due_kind: str, game_id: str, key: str,
                             seats: Iterable[int]) -> list[tuple[str, str]]:
        """Record a turn's (or a reminder's) notices and return (seat name, address) of
        who of ``seats`` gets the e-mail: one statement."""


_recorder: Recorder | None = None


def plug(recorder: Recorder) -> None:
    global _recorder
    _recorder = recorder


def plugged() -> Recorder | None:
    return _recorder


def record(*, notice: str, game_id: str, key: str) -> None:
    if _recorder is not None:
        _recorder.record(notice=notice, game_id=game_id, key=key)


def league_game_made(*, league_id: int, game_id: str) -> None:
    if _recorder is not None:
        _recorder.league_game_made(league_id=league_id, game_id=game_id)
