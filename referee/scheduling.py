"""Due work: derived from each position, stored in the database, claimed with SKIP LOCKED.

After every append the game's pending ``DueWork`` rows are brought in line with what the
ruleset's ``scheduled_work`` says (in the same transaction). The broker only carries a
fast-path nudge for work due now; the beat sweeper finds everything that is due, so a lost,
duplicated or late message changes nothing. A job runs under the game's row lock and its
key is the idempotency key of whatever it appends: each phase happens exactly once.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q

from games.base import REFEREE, Actor, ActorKind, Ruleset, RuleViolation, work_key_text
from referee import clock, notifications
from referee.celery import app as celery_app
from referee.core import Referee
from referee.errors import RefereeError
from referee.instance import referee_get
from referee.models import DueWork, Game, SchedulerHeartbeat, Seat, Vacation
from referee.store.base import NewRecord, RecordKind

log = logging.getLogger(__name__)
SWEEPER = "sweeper"


def _referee() -> Referee:
    return referee_get()


def reminder_before() -> dt.timedelta:
    return dt.timedelta(hours=getattr(settings, "REFEREE_REMINDER_HOURS", 6))


def outage_threshold() -> dt.timedelta:
    return dt.timedelta(seconds=getattr(settings, "REFEREE_OUTAGE_SECONDS", 300))


def notice_append(*, game_id: str, type_: str, payload: dict[str, Any], actor_kind: str = "referee") -> None:
    """A referee notice everyone sees (a pause, an extension, an expiry), in the log."""
    referee = _referee()
    store = referee.store
    store.append(
        game_id, store.last_seq(game_id) + 1,
        [NewRecord(kind=RecordKind.NOTICE, type=type_, payload=payload, actor_kind=actor_kind)],
        clock.now(),
    )


# --- keeping the table true to the position ---------------------------------------------------


def due_work_sync(*, game: Game, now: dt.datetime | None = None) -> list[DueWork]:
    """Make the game's pending rows match its position. Returns the rows due right now."""
    now = now or clock.now()
    referee = _referee()
    info = referee.store.get_game(str(game.pk))
    rules = referee.ruleset_for(info)
    works: dict[str, Any] = {}
    if info.status == "active":
        state, _ = referee.current(str(game.pk))
        works = {work_key_text(w.key): w for w in rules.scheduled_work(state)}
    # Only the pending rows and those of the keys due now: a game's finished rows are history.
    rows = list(DueWork.objects.select_for_update().filter(game=game).filter(
        Q(status=DueWork.Status.PENDING) | Q(key__in=list(works))
    ))
    known = {r.key for r in rows}
    for row in rows:
        if row.status == DueWork.Status.PENDING and row.key not in works:
            _close(row, now, DueWork.Status.CANCELLED, "no longer due: the position moved on")
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
    timers_nudge(rows=[r for r in created if r.due_at is not None and r.due_at > now], now=now)
    return [r for r in (*rows, *created) if r.status == DueWork.Status.PENDING and r.due_at is not None
            and r.due_at <= now]


def _create(game: Game, key: str, kind: str, seats: Any, due_at: dt.datetime | None, now: dt.datetime,
            remaining: dt.timedelta | None = None) -> DueWork:
    return DueWork.objects.create(
        game=game, key=key, kind=kind, seats=list(seats), due_at=due_at, remaining=remaining, created_at=now
    )


def _create_deadline(game: Game, key: str, seats: tuple[int, ...], now: dt.datetime) -> list[DueWork]:
    limit = dt.timedelta(seconds=game.turn_limit_seconds)
    due = now + limit
    for vacation in _vacations(game, seats, now):
        due = now if game.vacation_policy == "referee" else max(due, vacation.ends_at + limit)
    rows = []
    if game.paused_at is not None:
        rows.append(_create(game, key, DueWork.Kind.DEADLINE, seats, None, now, remaining=due - now))
        rows.append(_create(game, key, DueWork.Kind.REMIND, seats, None, now, remaining=due - now - reminder_before()))
    else:
        rows.append(_create(game, key, DueWork.Kind.DEADLINE, seats, due, now))
        if limit > reminder_before() * 2 and due - reminder_before() > now:
            rows.append(_create(game, key, DueWork.Kind.REMIND, seats, due - reminder_before(), now))
    rows.append(_create(game, key, DueWork.Kind.NOTIFY, seats, now, now))
    return rows


def _vacations(game: Game, seats: tuple[int, ...], now: dt.datetime) -> list[Vacation]:
    return list(Vacation.objects.filter(
        seat__game=game, seat__number__in=list(seats), starts_at__lte=now, ends_at__gt=now
    ))


def _close(row: DueWork, now: dt.datetime, status: str, result: str) -> None:
    row.status, row.done_at, row.result = status, now, result[:200]
    row.save(update_fields=["status", "done_at", "result"])


def timer_horizon() -> dt.timedelta:
    return dt.timedelta(seconds=getattr(settings, "REFEREE_TIMER_HORIZON_SECONDS", 900))


RUN_DUE_WORK = "referee.run_due_work"  # the task in referee.tasks, sent by name (tasks import us)


def _nudge(row: DueWork, eta: dt.datetime | None = None) -> None:
    def send(game_id: str = str(row.game_id), key: str = row.key, kind: str = row.kind) -> None:
        try:
            if celery_app.conf.task_always_eager:
                # Eager (tests, set-up scripts): run now what is due now; a timer is the sweeper's.
                if eta is None:
                    due_work_run(game_id=game_id, key=key, kind=kind)
                return
            celery_app.send_task(RUN_DUE_WORK, (game_id, key, kind), eta=eta)
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
    for row in rows:
        if (row.kind in (DueWork.Kind.AT, DueWork.Kind.DEADLINE) and row.due_at is not None
                and row.due_at - now <= timer_horizon()):
            _nudge(row, eta=row.due_at)


# --- running one row ----------------------------------------------------------------------------


def due_work_run(*, game_id: str, key: str, kind: str = "", now: dt.datetime | None = None) -> str:
    """Run the row ``(game_id, key, kind)`` if it is pending and due (with no kind: the
    key's first pending row that is due). Safe to call twice.

    Locks are always taken game first, then row (as orders do: the game, then its rows in
    ``due_work_sync``), so a job and an order, or two jobs of one game, never deadlock."""
    with transaction.atomic():
        game = Game.objects.select_for_update(no_key=True).filter(pk=game_id).first()
        if game is None:
            return "no such game"
        rows = DueWork.objects.select_for_update(skip_locked=True).filter(
            game=game, key=key, status=DueWork.Status.PENDING
        )
        if kind:
            rows = rows.filter(kind=kind)
        row = rows.order_by("due_at", "id").first()
        if row is None:
            return "nothing to do"
        return _execute(row, game, now or clock.now())


def _execute(row: DueWork, game: Game, now: dt.datetime) -> str:
    if row.due_at is None or row.due_at > now:
        return "not due yet"
    if game.frozen_reason or game.status != Game.Status.ACTIVE:
        _close(row, now, DueWork.Status.CANCELLED, f"game {game.status}{' and frozen' if game.frozen_reason else ''}")
        return row.result
    if game.paused_at is not None:
        return "game paused"
    try:
        result = _perform(game, row, now)
    except (RuleViolation, RefereeError) as exc:
        # A job that the rules refuse is a bug in a ruleset; record why and move on rather
        # than retrying forever.
        log.error("due work %s/%s refused: %s", game.pk, row.key, exc)
        result = f"refused: {exc}"
    _close(row, now, DueWork.Status.DONE, result)
    enqueue_due_now(due_work_sync(game=game, now=now))
    return result


def _perform(game: Game, row: DueWork, now: dt.datetime) -> str:
    referee = _referee()
    game_id = str(game.pk)
    if row.kind in (DueWork.Kind.NOW, DueWork.Kind.AT):
        outcome = referee.run_due(game_id, row.key)
        return "ran" if outcome is not None else "no longer due"
    if row.kind == DueWork.Kind.DEADLINE:
        return _expire(game, row, now)
    seats = list(Seat.objects.filter(game=game, number__in=row.seats).select_related("user"))
    if row.kind == DueWork.Kind.NOTIFY:
        return f"notified {notifications.turn_started(game=game, seats=seats)}"
    deadline = DueWork.objects.filter(game=game, key=row.key, kind=DueWork.Kind.DEADLINE).first()
    return f"reminded {notifications.deadline_near(game=game, seats=seats, due_at=deadline.due_at if deadline else now)}"


def _expire(game: Game, row: DueWork, now: dt.datetime) -> str:
    """The deadline passed: the referee takes the turn, saying who acted and why."""
    referee = _referee()
    game_id = str(game.pk)
    info = referee.store.get_game(game_id)
    rules: Ruleset = referee.ruleset_for(info)
    state, _ = referee.current(game_id)
    if not any(work_key_text(w.key) == row.key for w in rules.scheduled_work(state)):
        return "no longer due"
    # Every seat of the deadline that still has not acted (in a simultaneous turn, some did).
    seats = tuple(sorted(set(row.seats) & set(rules.to_act(state)))) or tuple(row.seats)
    on_vacation = bool(_vacations(game, seats, now))
    why = "the seat is on vacation and the referee plays its turns" if on_vacation else "the deadline passed"
    notice_append(game_id=game_id, type_="DeadlineExpired", payload={
        "key": row.key, "seats": list(seats), "due_at": row.due_at.isoformat() if row.due_at else None,
        "policy": game.deadline_policy, "reason": why,
    })
    command = rules.deadline_command(state, seats, game.deadline_policy)
    # The referee plays *for* the seat: the seat stays on the actor so the rules need not guess.
    actor = Actor(ActorKind.REFEREE, seats[0]) if len(seats) == 1 else REFEREE
    referee.handle(
        game_id, command_type=type(command).__name__, payload=rules.command_to_data(command),
        actor=actor, idempotency_key=row.key,
    )
    return f"referee played {type(command).__name__} ({game.deadline_policy}) because {why}"


# --- the sweeper -------------------------------------------------------------------------------


def sweep(*, now: dt.datetime | None = None, limit: int = 10_000) -> int:
    """Run every due row once, oldest first, each in its own transaction. Games are claimed
    with ``SELECT ... FOR NO KEY UPDATE SKIP LOCKED`` (then their row): several sweepers
    and workers share the work, and a game busy with an order is simply left for the next
    sweep. Returns how many rows ran."""
    now = now or clock.now()
    _outage_check(now)
    ran, after = 0, None
    due = DueWork.objects.filter(status=DueWork.Status.PENDING, due_at__lte=now).order_by("due_at", "id")
    while ran < limit:
        page = due if after is None else due.filter(Q(due_at__gt=after[0]) | Q(due_at=after[0], id__gt=after[1]))
        candidate = page.values("id", "game_id", "due_at").first()
        if candidate is None:
            break
        after = (candidate["due_at"], candidate["id"])
        with transaction.atomic():
            game = Game.objects.select_for_update(no_key=True, skip_locked=True).filter(pk=candidate["game_id"]).first()
            if game is None:
                continue
            row = (
                DueWork.objects.select_for_update(skip_locked=True)
                .filter(pk=candidate["id"], status=DueWork.Status.PENDING).first()
            )
            if row is None:
                continue
            _execute(row, game, now)
        ran += 1
    return ran


def _outage_check(now: dt.datetime) -> None:
    """If the sweeper has not run for longer than the threshold, the referee was down:
    deadlines that fell in the gap are moved on by the gap, never auto-played."""
    with transaction.atomic():
        beat, created = SchedulerHeartbeat.objects.select_for_update().get_or_create(
            name=SWEEPER, defaults={"last_run_at": now}
        )
        if created or now <= beat.last_run_at:
            return
        gap = now - beat.last_run_at
        if gap > outage_threshold():
            missed = DueWork.objects.select_for_update().filter(
                status=DueWork.Status.PENDING, kind__in=[DueWork.Kind.DEADLINE, DueWork.Kind.REMIND],
                due_at__gt=beat.last_run_at, due_at__lte=now,
            )
            games: dict[str, list[str]] = {}
            for row in missed:
                row.due_at = row.due_at + gap
                row.save(update_fields=["due_at"])
                games.setdefault(str(row.game_id), []).append(row.key)
            for game_id, keys in games.items():
                notice_append(game_id=game_id, type_="DeadlinesExtendedForOutage", payload={
                    "from": beat.last_run_at.isoformat(), "to": now.isoformat(),
                    "extended_by_seconds": int(gap.total_seconds()), "keys": keys,
                    "reason": "the referee's scheduler was not running; no one loses a turn to our downtime",
                })
        beat.last_run_at = now
        beat.save(update_fields=["last_run_at"])


def overdue(now: dt.datetime | None = None) -> list[DueWork]:
    now = now or clock.now()
    return list(DueWork.objects.filter(status=DueWork.Status.PENDING, due_at__lte=now).order_by("due_at"))
