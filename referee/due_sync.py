"""Keeping a game's due-work rows true to its position, and nudging workers for what is due.

After every append the game's pending ``DueWork`` rows are brought in line with what the
ruleset's ``scheduled_work`` says (in the same transaction): ``now`` rows for a turn-start
phase, ``at`` rows for timers, a deadline with its reminder and turn notice. After commit a
worker is nudged for the rows due now, and with an ETA for those due within the timer
horizon; the sweeper (``referee.sweeper``) finds everything else. Running a row is
``referee.due_jobs``'s.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from celery import current_app as celery_app  # the project's (config.celery)
from django.conf import settings
from django.db import router, transaction
from django.db.models.base import ModelState

from games.base import Ruleset, work_key_text
from referee import clock, nudges
from referee.due_rows import DueRows
from referee.instance import referee_get
from referee.models import DueWork, Game, Vacation
from referee.store import sql as store_sql

log = logging.getLogger(__name__)

#: Runs one row at once (``referee.due_jobs.due_work_run``, which registers itself when it is
#: imported: it imports this module), for eager Celery in tests and set-up scripts.
run_now: Callable[..., str] | None = None


def reminder_before() -> dt.timedelta:
    return dt.timedelta(hours=getattr(settings, "REFEREE_REMINDER_HOURS", 6))


# --- keeping the table true to the position ---------------------------------------------------


def due_work_sync(
    *, game: Game, now: dt.datetime | None = None, state: Any = None, rules: Ruleset | None = None,
    rows: DueRows | None = None, held_of: Callable[[], store_sql.HeldInsert | None] | None = None,
) -> list[DueWork]:
    """Make the game's pending rows match its position. Returns the rows due right now.

    The caller holds the game's row lock and passes the game row as it stands; with
    ``state`` (and its ``rules``) the position is not read again. Two statements: read the
    pending rows (and those of the keys scheduled now), then cancel the stale ones and
    create the new ones in one. After an order, whose lock brought the pending rows along
    (``pending_known``), only the second, and only when something changes. Within a unit of
    work (``rows``, a job running one row after another) the writes wait for the unit's end
    (``DueRows.flush``). ``held_of`` gives the records the caller's unit holds
    (``referee.store.held``), taken only when the rows change, to go in the same statement."""
    now = now or clock.now()
    works: dict[str, Any] = {}
    if game.status == Game.Status.ACTIVE:
        if state is None or rules is None:
            referee = referee_get()
            rules = referee.ruleset_for(referee.store.get_game(str(game.pk)))
            state, _ = referee.current(str(game.pk))
        works = {work_key_text(w.key): w for w in rules.scheduled_work(state)}
    unit_rows = rows if rows is not None else DueRows(game, game.__dict__.pop("_pending_due", None))
    # Only the pending rows and those of the keys due now: a game's finished rows are history.
    current = unit_rows.select(list(works))
    known = {r.key for r in current}
    for row in current:
        if row.status == DueWork.Status.PENDING and row.key not in works:
            unit_rows.close(row, DueWork.Status.CANCELLED, now, "no longer due: the position moved on")
    created: list[DueWork] = []
    for key, work in works.items():
        if key in known:
            continue
        if work.when == "now":
            created.append(_create(game, key, DueWork.Kind.NOW, work.seats, now, now))
        elif work.when == "at":
            at = dt.datetime.fromtimestamp((work.at_ms or 0) / 1000, tz=dt.UTC)
            created.append(_create(game, key, DueWork.Kind.AT, work.seats, at, now))
        else:
            created += _create_deadline(game, key, work.seats, now)
    unit_rows.add(created)
    if rows is None:
        created = unit_rows.flush(held_of() if held_of is not None and unit_rows.unwritten else None)
    timers_nudge(rows=[r for r in created if r.due_at is not None and r.due_at > now], now=now)
    return [r for r in (*current, *created) if r.status == DueWork.Status.PENDING and r.due_at is not None
            and r.due_at <= now]


def pending_known(game: Game, rows: list[DueWork]) -> None:
    """The locked game's pending due rows, read with its lock (``services._locked_seat``):
    the next ``due_work_sync`` of this game row starts from them instead of reading them."""
    game._pending_due = rows  # type: ignore[attr-defined]


def _create(game: Game, key: str, kind: str, seats: Any, due_at: dt.datetime | None, now: dt.datetime,
            remaining: dt.timedelta | None = None) -> DueWork:
    """A new row, written with the unit's other changes in one statement (``DueRows.flush``).
    Made as ``DueWork(game=game, key=key, ...)`` makes it, every column set and the game
    cached, without the constructor's generic work (a quarter of its time: a sweep makes four
    rows a game); no receiver of ``pre_init`` or ``post_init`` listens to ``DueWork``, which
    a test keeps true."""
    row, state = _NEW_DUE(DueWork), ModelState()
    state.db = router.db_for_write(DueWork, instance=game)  # as giving the game by keyword does
    row.__dict__.update(
        _state=state, id=None, game_id=game.pk, key=key, kind=kind, seats=list(seats), due_at=due_at,
        remaining=remaining, status=DueWork.Status.PENDING, created_at=now, done_at=None, result="",
    )
    _DUE_GAME.set_cached_value(row, game)
    return row


_NEW_DUE = DueWork.__new__
_DUE_GAME = DueWork._meta.get_field("game")


def _create_deadline(game: Game, key: str, seats: tuple[int, ...], now: dt.datetime) -> list[DueWork]:
    limit = dt.timedelta(seconds=game.turn_limit_seconds)
    due = now + limit
    for vacation in _vacations(game, seats, now):
        due = now if game.vacation_policy == "referee" else max(due, vacation.ends_at + limit)
    rows, before = [], reminder_before()
    if game.paused_at is not None:
        rows.append(_create(game, key, DueWork.Kind.DEADLINE, seats, None, now, remaining=due - now))
        rows.append(_create(game, key, DueWork.Kind.REMIND, seats, None, now, remaining=due - now - before))
    else:
        rows.append(_create(game, key, DueWork.Kind.DEADLINE, seats, due, now))
        if limit > before * 2 and due - before > now:
            rows.append(_create(game, key, DueWork.Kind.REMIND, seats, due - before, now))
    rows.append(_create(game, key, DueWork.Kind.NOTIFY, seats, now, now))
    return rows


@dataclass(frozen=True)
class Away:
    """A seat's vacation: when it starts and ends."""

    seat: int
    starts_at: dt.datetime
    ends_at: dt.datetime


def _vacations_known(game: Game, since: dt.datetime, column: Any) -> None:
    """Keep on the locked game row the vacations not over by ``since`` that its lock read."""
    rows = store_sql.loads(column) or []
    game._vacations_from = (since, [  # type: ignore[attr-defined]
        Away(seat, dt.datetime.fromisoformat(starts), dt.datetime.fromisoformat(ends)) for seat, starts, ends in rows
    ])


_AWAY_OF_GAMES = ("SELECT s.game_id, s.number, v.starts_at, v.ends_at FROM referee_vacation v "
                  "JOIN referee_seat s ON s.id = v.seat_id WHERE s.game_id = ANY(%s::uuid[]) AND v.ends_at > %s::timestamptz")


def _vacations_prefetch(games: list[Game], now: dt.datetime) -> None:
    """The vacations not over by ``now`` of locked games (a sweep's batch, or one game), in
    one statement."""
    if not store_sql.enabled() or not games:
        return
    away: dict[str, list[Away]] = {str(g.pk): [] for g in games}
    for game_id, *row in store_sql.run(_AWAY_OF_GAMES, ([str(g.pk) for g in games], now)):
        away[str(game_id)].append(Away(*row))
    for game in games:
        game._vacations_from = (now, away[str(game.pk)])  # type: ignore[attr-defined]


def _vacations(game: Game, seats: tuple[int, ...], now: dt.datetime) -> list[Away]:
    """The vacations running at ``now`` of these seats. Read once per locked game row (with
    the lock when it can be): no vacation can be declared meanwhile (that takes the game's
    lock too), and ``now`` only moves on."""
    memo = getattr(game, "_vacations_from", None)
    if memo is None or now < memo[0]:
        if store_sql.enabled():
            _vacations_prefetch([game], now)
        else:
            game._vacations_from = (now, [  # type: ignore[attr-defined]
                Away(v.seat.number, v.starts_at, v.ends_at)
                for v in Vacation.objects.filter(seat__game=game, ends_at__gt=now).select_related("seat")
            ])
        memo = game._vacations_from  # type: ignore[attr-defined]
    return [v for v in memo[1] if v.seat in seats and v.starts_at <= now < v.ends_at]


def timer_horizon() -> dt.timedelta:
    return dt.timedelta(seconds=getattr(settings, "REFEREE_TIMER_HORIZON_SECONDS", 900))


RUN_DUE_WORK = "referee.run_due_work"  # the task in referee.tasks, sent by name (tasks import us)


def _nudge(row: DueWork, eta: dt.datetime | None = None) -> None:
    def send(game_id: str = str(row.game_id), key: str = row.key, kind: str = row.kind) -> None:
        try:
            if celery_app.conf.task_always_eager:
                # Eager (tests, set-up scripts): run now what is due now; a timer is the sweeper's.
                if eta is None and run_now is not None:
                    run_now(game_id=game_id, key=key, kind=kind)
                return
            nudges.send_later(RUN_DUE_WORK, (game_id, key, kind), eta=eta)
        except Exception:  # the broker is only the fast path
            log.warning("could not enqueue %s/%s; the sweeper will run it", game_id, key)

    transaction.on_commit(send)


def enqueue_due_now(rows: list[DueWork]) -> None:
    """The fast path: nudge a worker after commit. If the broker is down the sweeper
    finds the rows anyway, so a failure here is only logged."""
    for row in rows:
        if row.kind in (DueWork.Kind.NOW, DueWork.Kind.NOTIFY):
            _nudge(row)


def timers_nudge(*, rows: list[DueWork], now: dt.datetime) -> None:
    """Timers to the second: a row due soon (a round clock, a tick, a short deadline) is
    handed to a worker with that ETA, so it runs on time rather than at the next sweep.
    Rows further off are left to the sweeper (a broker holds ETA messages in memory)."""
    if not rows:
        return
    horizon = now + timer_horizon()
    for row in rows:
        if row.kind in (DueWork.Kind.AT, DueWork.Kind.DEADLINE) and row.due_at is not None and row.due_at <= horizon:
            _nudge(row, eta=row.due_at)

