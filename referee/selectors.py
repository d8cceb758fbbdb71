"""Reads. Every read of a position or a log goes through the ruleset's visibility rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from games.base import MODERATOR_VIEW, PUBLIC, Ruleset, Viewer
from referee import logs, replay
from referee.core import Position, VerifyReport
from referee.instance import referee_get
from referee.models import DueWork, Game, Seat
from referee.store.base import GameInfo, StoredRecord


def seat_get(*, game_id: str, user: AbstractBaseUser | None) -> Seat | None:
    """The seat ``user`` holds in the game, if any: the one place a seat is looked up."""
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(game_id=game_id, user=user).first()


def seat_names_get(*, game: Game) -> dict[int, str]:
    """Seat number -> the name the seat plays under (public: the lobby shows it)."""
    return {s.number: s.name for s in game.seats.all()}


def game_ids_played_by(*, user: AbstractBaseUser | None) -> set[Any]:
    """The games the user holds a seat in (the lobby marks them "you are in")."""
    if user is None or not user.is_authenticated:
        return set()
    return set(Seat.objects.filter(user=user).values_list("game_id", flat=True))


def seats_of_user(*, user: AbstractBaseUser) -> list[Seat]:
    """The user's seats with their games, newest game first (my games, settings)."""
    return list(
        Seat.objects.filter(user=user).select_related("game").prefetch_related("vacations", "game__seats")
        .order_by("-game__created_at")
    )


def viewer_for(*, game_id: str, user: AbstractBaseUser | None, as_moderator: bool = False) -> Viewer:
    if user is not None and user.is_authenticated and as_moderator and user.is_staff:
        return MODERATOR_VIEW
    seat = seat_get(game_id=game_id, user=user)
    logs.bind(game_id=str(game_id), seat=seat.number if seat is not None else None)  # for this request's log lines
    return Viewer.for_seat(seat.number) if seat is not None else PUBLIC


def ruleset_get(*, game_id: str) -> Ruleset:
    """The rules a game is played under (its pinned ruleset and version)."""
    referee = referee_get()
    return referee.ruleset_for(referee.store.get_game(game_id))


def game_verify_report(*, game_id: str) -> VerifyReport:
    """Verify the game's log now and report, changing nothing (``services.game_verify``
    is the write that also freezes a broken game)."""
    return referee_get().verify(game_id)


def game_result_get(*, game_id: str) -> dict[str, Any] | None:
    """How the game stands or ended, as its ruleset says (``Ruleset.result``); None before
    it starts. Results are public: everything in them is known to every player."""
    referee = referee_get()
    info = referee.store.get_game(game_id)
    if info.status == "open":
        return None
    state, _ = referee.current(game_id)
    r = referee.ruleset_for(info).result(state)
    return {"finished": r.finished, "winners": list(r.winners), "ranking": [list(p) for p in r.ranking],
            "scores": {str(seat): score for seat, score in r.scores}, "draw": r.draw, "summary": r.summary}


def game_list() -> QuerySet[Game]:
    return Game.objects.all().prefetch_related("seats")


def game_state_get(*, game_id: str, viewer: Viewer, seq: int | None = None) -> dict[str, Any]:
    """The position as ``viewer`` may know it, with the clock: every view shows the current
    turn's deadline (public information, as it was on the forum)."""
    return {**referee_get().view(game_id, viewer, seq), "clock": game_clock_get(game_id=game_id)}


def game_clock_get(*, game_id: str) -> dict[str, Any]:
    game = Game.objects.get(pk=game_id)
    deadline = (
        DueWork.objects.filter(game=game, kind=DueWork.Kind.DEADLINE, status=DueWork.Status.PENDING)
        .order_by("created_at").first()
    )
    return {
        "turn_limit_seconds": game.turn_limit_seconds,
        "turn_limit": game.turn_limit_text,
        "deadline_policy": game.deadline_policy,
        "paused": game.paused_at is not None,
        "deadline": deadline.due_at.isoformat() if deadline and deadline.due_at else None,
        "waiting_for": deadline.seats if deadline else [],
        "remaining_seconds": int(deadline.remaining.total_seconds()) if deadline and deadline.remaining else None,
    }


def due_work_report(*, now=None) -> list[dict[str, Any]]:
    """Pending work with its lag (how late it is), oldest first: for operators."""
    from referee import clock

    now = now or clock.now()
    rows = DueWork.objects.filter(status=DueWork.Status.PENDING).order_by("due_at").select_related("game")
    return [
        {
            "game": str(r.game_id), "key": r.key, "kind": r.kind,
            "due_at": r.due_at.isoformat() if r.due_at else None,
            "lag_seconds": max(0.0, (now - r.due_at).total_seconds()) if r.due_at and r.due_at <= now else 0.0,
            "overdue": bool(r.due_at and r.due_at <= now),
        }
        for r in rows
    ]


def game_events_list(*, game_id: str, viewer: Viewer, after: int = 0, upto: int | None = None) -> list[dict[str, Any]]:
    """The log as ``viewer`` sees it; ``after``/``upto`` count in the viewer's own numbering."""
    return referee_get().feed(game_id, viewer, after=after, upto=upto)


def game_events_of(*, game_id: str, viewer: Viewer, records: Sequence[StoredRecord]) -> list[dict[str, Any]]:
    """What ``viewer`` sees of records just appended (the answer to their order)."""
    if not records:
        return []
    return referee_get().feed_between(game_id, viewer, records[0].seq - 1, records[-1].seq)


def order_answer_get(
    *, game_id: str, viewer: Viewer, records: Sequence[StoredRecord], game: GameInfo | None = None,
    position: Position | None = None,
) -> tuple[list[dict[str, Any]], int]:
    """The answer to an order in one pass: what ``viewer`` sees of the records it just
    appended, and how many records they have now been shown (from the records in hand
    when the viewer's numbering reaches them; ``game`` as the order left it saves a read, and
    its ``position`` the records just before them)."""
    return referee_get().order_answer(game_id, viewer, records, game, position)


def viewer_log_position(*, game_id: str, viewer: Viewer) -> int:
    """How many records ``viewer`` has been shown: their idea of the log's length."""
    return referee_get().numbering(game_id, viewer).count


def public_numbers_get(*, game_id: str, viewer: Viewer) -> dict[int, int]:
    """The viewer's record number -> the number the public viewer gives the same record,
    for the records that are public: a number two players can quote to each other (each
    seat's own numbering skips what it may not see, so "#17" differs between seats)."""
    referee = referee_get()
    mine = referee.numbering(game_id, viewer)
    public = referee.numbering(game_id, PUBLIC)
    if public.identity:  # a finished game's log is public: one numbering for all
        return {n: n for n in range(1, mine.count + 1)}
    shown = set(public.real)
    out: dict[int, int] = {}
    for number in range(1, mine.count + 1):
        real = mine.real_of(number)
        if real in shown:
            out[number] = public.number_of(real) or 0
    return out


def game_record_get(*, game: Game, viewer: Viewer) -> dict[str, Any]:
    """The game's record as one file, as ``viewer`` may have it (``referee.records``)."""
    from referee.records import record_file

    return record_file(referee_get(), str(game.pk), viewer, name=game.name)


def game_replay_index(*, game_id: str, viewer: Viewer) -> list[dict[str, Any]]:
    """The steps of the game ``viewer`` may step through (``referee.replay``)."""
    return replay.replay_index(referee_get(), game_id, viewer)


def game_replay_step(*, game_id: str, viewer: Viewer, seq: int) -> dict[str, Any] | None:
    """The viewer's step ``seq`` in their own numbering; None if they have no such step."""
    return replay.replay_step(referee_get(), game_id, viewer, seq)


def seat_inbox_get(*, game_id: str, seat: int) -> list[dict[str, Any]]:
    """The private messages of one seat."""
    return replay.inbox(referee_get(), game_id, seat)


def game_last_seq(*, game_id: str) -> int:
    """The number of the game's last record (in the whole log, not a viewer's numbering)."""
    return referee_get().store.last_seq(game_id)
