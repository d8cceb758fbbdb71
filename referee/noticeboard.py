"""Where the core tells what someone may want to hear of: a game over or corrected, a
league's new game, a turn begun or a reminder due. The core only tells; an app above it
plugs in what records the deliveries (the notices app, from its ``AppConfig.ready``), so the
core names no app above it. What is plugged in records in the caller's transaction. With
nothing plugged in nothing is recorded, and a turn's e-mails still find their recipients
(``notifications.recipients_get``), every one of them by e-mail.

A deadline job records a turn's and a reminder's notices in the statement that writes its
due rows (``referee.due_rows``): what is plugged in gives the SQL for that
(``due_notices_ctes``) and says whose e-mail channel has stopped wanting a notice
(``wanted_by_email``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

#: A due row's kind -> the notice it makes (a turn begun, a reminder of its deadline).
FROM_DUE_KIND = {"notify": "turn", "remind": "remind"}


class Recorder(Protocol):
    def record(self, *, notice: str, game_id: str, key: str, seats: Iterable[int] | None = None) -> None:
        """Record ``notice`` for the channels that want it (of ``seats``; every seat: None)."""

    def league_game_made(self, *, league_id: int, game_id: str) -> None:
        """From now on the league's channels hear of this game."""

    def recipients_recording(self, *, due_kind: str, game_id: str, key: str,
                             seats: Iterable[int]) -> list[tuple[str, str]]:
        """Record a turn's (or a reminder's) notices and return (seat name, address) of
        who of ``seats`` gets the e-mail: one statement."""

    def due_notices_ctes(self) -> str:
        """CTEs (named parameters ``notes``, ``game``, ``now``; the new due rows in ``ins``)
        that record the notices of a unit's turn and reminder rows in the statement writing
        those rows (``referee.due_rows``)."""

    def wanted_by_email(self, notice: str, choices: Sequence[Sequence[str]]) -> bool:
        """Whether a player whose e-mail channels want ``choices`` (one list per channel)
        still gets ``notice`` by e-mail."""

    def nudge_after_commit(self) -> None:
        """After the caller's transaction commits, have what was recorded delivered."""


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


def due_notices_ctes() -> str | None:
    """The SQL that records a unit's turn and reminder notices with its due rows; None with
    nothing plugged in (nothing to record)."""
    return None if _recorder is None else _recorder.due_notices_ctes()


def wanted_by_email(notice: str, choices: Sequence[Sequence[str]]) -> bool:
    """Whether this player gets ``notice`` by e-mail (with nothing plugged in: yes, as the
    referee always e-mailed)."""
    return True if _recorder is None else _recorder.wanted_by_email(notice, choices)


def nudge_after_commit() -> None:
    if _recorder is not None:
        _recorder.nudge_after_commit()
