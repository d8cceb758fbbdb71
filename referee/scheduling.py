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
import uuid
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from typing import Any

from django.conf import settings
from django.db import transaction

from games.base import REFEREE, Actor, ActorKind, Ruleset, RuleViolation, work_key_text
from notices import record as notices_record
from referee import clock, live, metrics, notifications, nudges
from referee.celery import app as celery_app
from referee.core import Outcome, Position, Referee
from referee.due_rows import DueRows
from referee.errors import RefereeError
from referee.instance import referee_get
from referee.models import DueWork, Game, SchedulerHeartbeat, Vacation
from referee.store import sql as store_sql
from referee.store.base import GameInfo, NewRecord, RecordKind, TransactionSpoilt

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


def due_work_sync(
    *, game: Game, now: dt.datetime | None = None, state: Any = None, rules: Ruleset | None = None,
    rows: DueRows | None = None,
) -> list[DueWork]:
    """Make the game's pending rows match its position. Returns the rows due right now.

    The caller holds the game's row lock and passes the game row as it stands; with
    ``state`` (and its ``rules``) the position is not read again. Two statements: read the
    pending rows (and those of the keys scheduled now), then cancel the stale ones and
    create the new ones in one. After an order, whose lock brought the pending rows along
    (``pending_known``), only the second, and only when something changes. Within a unit of
    work (``rows``, a job running one row after another) the writes wait for the unit's end
    (``DueRows.flush``)."""
    now = now or clock.now()
    works: dict[str, Any] = {}
    if game.status == Game.Status.ACTIVE:
        if state is None or rules is None:
            referee = _referee()
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
        created = unit_rows.flush()
    timers_nudge(rows=[r for r in created if r.due_at is not None and r.due_at > now], now=now)
    return [r for r in (*current, *created) if r.status == DueWork.Status.PENDING and r.due_at is not None
            and r.due_at <= now]




def pending_known(game: Game, rows: list[DueWork]) -> None:
    """The locked game's pending due rows, read with its lock (``services._locked_seat``):
    the next ``due_work_sync`` of this game row starts from them instead of reading them."""
    game._pending_due = rows  # type: ignore[attr-defined]


def _create(game: Game, key: str, kind: str, seats: Any, due_at: dt.datetime | None, now: dt.datetime,
            remaining: dt.timedelta | None = None) -> DueWork:
    """A new row, written with the unit's other changes in one statement (``DueRows.flush``)."""
    return DueWork(
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


@dataclass(frozen=True)
class Away:
    """A seat's vacation: when it starts and ends."""

    seat: int
    starts_at: dt.datetime
    ends_at: dt.datetime


# The game locked, then (once the lock is held, each with a snapshot of its own: the
# functions of migrations 0013 and 0014) its pending due rows, one result row each (the
# job's own among them), its vacations not over by a moment and the seats it e-mails with
# their e-mail choices: one round trip, and the unit needs no other read of its due rows.
# No row lock on the due rows: the game's lock guards them (referee/due_rows.py).
_LOCK_GAME_AND_ROWS = (
    f"SELECT l.*, x.away, x.mail, {store_sql.columns(DueWork, 'd')} FROM ("
    f"SELECT {store_sql.columns(Game)} FROM referee_game WHERE id = %s::uuid FOR NO KEY UPDATE) AS l "
    "CROSS JOIN LATERAL (SELECT referee_game_vacations(l.id, %s::timestamptz) AS away, "
    "referee_game_recipients(l.id) AS mail) AS x "
    "LEFT JOIN LATERAL referee_pending_due_work(l.id) AS d ON true"
)


def _vacations_known(game: Game, since: dt.datetime, column: Any) -> None:
    """Keep on the locked game row the vacations not over by ``since`` that its lock read."""
    rows = store_sql.loads(column) or []
    game._vacations_from = (since, [  # type: ignore[attr-defined]
        Away(seat, dt.datetime.fromisoformat(starts), dt.datetime.fromisoformat(ends)) for seat, starts, ends in rows
    ])


def _recipients(mail: list[Any], seats: Any, notice: str) -> list[notifications.Recipient]:
    """Who of these seats gets ``notice`` by e-mail, from what the game's lock read."""
    wanted = {int(n) for n in seats}
    return [notifications.Recipient(name, email) for number, name, email, choices in mail
            if number in wanted and notices_record.wanted_by_email(notice, choices)]


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
                if eta is None:
                    due_work_run(game_id=game_id, key=key, kind=kind)
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
    for row in rows:
        if (row.kind in (DueWork.Kind.AT, DueWork.Kind.DEADLINE) and row.due_at is not None
                and row.due_at - now <= timer_horizon()):
            _nudge(row, eta=row.due_at)


# --- running one row ----------------------------------------------------------------------------


def due_work_run(*, game_id: str, key: str, kind: str = "", now: dt.datetime | None = None) -> str:
    """Run the row ``(game_id, key, kind)`` if it is pending and due (with no kind: the
    key's first pending row that is due), then whatever that makes due now in the same game
    (a turn start after an expiry, its notice), here rather than by nudging another worker.
    Safe to call twice.

    Locks are always taken game first, then row (as orders do: the game, then its rows in
    ``due_work_sync``), so a job and an order, or two jobs of one game, never deadlock. The
    unit's appends are held and written in one statement at its end (``referee.store.held``);
    should that statement find the log moved on, the unit is rolled back and run again with
    each append written as it is decided."""
    now = now or clock.now()
    try:
        return _run_job(game_id, key, kind, now, hold=True)
    except TransactionSpoilt:
        return _run_job(game_id, key, kind, now, hold=False)


def _run_job(game_id: str, key: str, kind: str, now: dt.datetime, *, hold: bool) -> str:
    with transaction.atomic():
        game, row = _locked_game_and_row(game_id, key, kind, now)
        if game is None:
            return "no such game"
        if row is None:
            return "nothing to do"
        unit = _Unit.of(game)
        with _referee().store.holding(str(game.pk)) if hold else nullcontext():
            result = _execute(unit.rows.adopt([row])[0], unit, now)
            if unit.due is not None:
                _run_rows(unit, unit.due, now)
        unit.finish()
        return result


def _locked_game_and_row(game_id: str, key: str, kind: str, now: dt.datetime) -> tuple[Game | None, DueWork | None]:
    """The game, locked, then its first pending row of ``key`` (and ``kind``) with the game's
    vacations (read after the lock, so none declared meanwhile is missed). On PostgreSQL the
    game's other pending rows and its e-mail recipients come along (kept on the game row)."""
    if store_sql.enabled():
        try:
            uuid.UUID(str(game_id))
        except ValueError:
            return None, None
        found = store_sql.run(_LOCK_GAME_AND_ROWS, (str(game_id), now))
        if not found:
            return None, None
        width = len(Game._meta.concrete_fields)
        game = store_sql.instances(Game, [found[0][:width]])[0]
        _vacations_known(game, now, found[0][width])
        game._mail = store_sql.loads(found[0][width + 1]) or []  # type: ignore[attr-defined]
        pending = store_sql.instances(DueWork, [row[width + 2:] for row in found if row[width + 2] is not None])
        pending_known(game, pending)
        mine = [r for r in pending if r.key == key and (not kind or r.kind == kind)]
        # As the index would give them: by due time (no time last), then by id.
        mine.sort(key=lambda r: (r.due_at is None, r.due_at or now, r.pk))
        return game, (mine[0] if mine else None)
    game = Game.objects.select_for_update(no_key=True).filter(pk=game_id).first()
    if game is None:
        return None, None
    rows = DueWork.objects.filter(game=game, key=key, status=DueWork.Status.PENDING)
    if kind:
        rows = rows.filter(kind=kind)
    return game, rows.order_by("due_at", "id").first()


@dataclass
class _Unit:
    """One game's work while its row is locked: the game read once, the position carried
    from one order to the next (no re-reads), and the rows due now after the last step."""

    game: Game
    info: GameInfo
    rules: Ruleset
    rows: DueRows
    position: Position | None = None
    due: list[DueWork] | None = None
    live_told: bool = False  # live readers are told once per unit, when it commits
    #: The seats the game e-mails, with their e-mail choices, as read with its lock (None:
    #: not read; each turn or reminder row then reads and records its own).
    mail: list[Any] | None = None
    #: E-mails to send once the unit's rows are written: (row, send, how many it addresses).
    mail_out: list[tuple[DueWork, Callable[[], int], int]] = field(default_factory=list)

    @classmethod
    def of(cls, game: Game) -> _Unit:
        info = game_info(game)
        rows = DueRows(game, game.__dict__.pop("_pending_due", None))
        return cls(game, info, _referee().ruleset_for(info), rows, mail=game.__dict__.pop("_mail", None))

    def finish(self) -> None:
        """Write the unit's due rows (and the notices of its turn and reminder rows), then
        send their e-mails: only for rows that went in, so a notice row never runs when a
        row of its key was there already."""
        self.rows.flush()
        for row, send, addressed in self.mail_out:
            if row.pk is None:
                continue
            sent = send()
            if sent != addressed:  # a message the mail backend refused: the row says what went
                row.result = f"{row.result.split(' ')[0]} {sent}"
                DueWork.objects.filter(game_id=self.game.pk, pk=row.pk).update(result=row.result)
        self.mail_out = []

    def tell_live_readers(self) -> None:
        """Live readers learn of what the unit appended as soon as it commits, whoever ran
        it (a worker's task, the sweeper, a test), not at their next fallback poll."""
        if not self.live_told:
            self.live_told = True
            transaction.on_commit(lambda game_id=str(self.game.pk): live.notify_appended(game_id))

    def advance(self, outcome: Outcome | None) -> None:
        if outcome is None or outcome.position is None:
            return
        self.position = outcome.position
        if self.rules.is_finished(outcome.state):
            self.game.status = Game.Status.FINISHED
            notices_record.record(notice="over", game_id=str(self.game.pk), key="over")  # once a game
            self.info = replace(self.info, status=Game.Status.FINISHED)


def game_info(game: Game) -> GameInfo:
    """The store's view of a game row the caller has just read under its lock."""
    return GameInfo(
        id=str(game.pk), ruleset=game.ruleset, ruleset_version=game.ruleset_version, settings=game.settings,
        seed=game.seed, status=game.status, frozen_reason=game.frozen_reason, private_log=game.private_log,
    )


MAX_CHAIN = 20  # rows one game may run in a row (a phase making the next one due ...)


def _run_rows(unit: _Unit, rows: list[DueWork], now: dt.datetime, budget: int = MAX_CHAIN) -> int:
    """Run the game's due rows, and those each one makes due, while the game is locked.
    What is left over (a game that keeps making work due) is nudged to a worker."""
    ran = 0
    pending = [r for r in rows if r.status == DueWork.Status.PENDING]
    while pending and ran < budget:
        row, unit.due = pending[0], None
        _execute(row, unit, now)
        ran += 1
        rest = unit.due if unit.due is not None else pending[1:]
        pending = [r for r in rest if r is not row and r.status == DueWork.Status.PENDING]
    enqueue_due_now(pending)
    return ran


def _execute(row: DueWork, unit: _Unit, now: dt.datetime) -> str:
    game = unit.game
    if row.due_at is None or row.due_at > now:
        return "not due yet"
    if game.frozen_reason or game.status != Game.Status.ACTIVE:
        unit.rows.close(row, DueWork.Status.CANCELLED, now,
                        f"game {game.status}{' and frozen' if game.frozen_reason else ''}")
        return row.result
    if game.paused_at is not None:
        return "game paused"
    try:
        result = _perform(unit, row, now)
    except (RuleViolation, RefereeError) as exc:
        # A job that the rules refuse is a bug in a ruleset; record why and move on rather
        # than retrying forever.
        log.error("due work %s/%s refused: %s", game.pk, row.key, exc)
        result = f"refused: {exc}"
        unit.position = None  # the refused step may have appended a notice: read the position afresh
    unit.rows.close(row, DueWork.Status.DONE, now, result)
    metrics.due_work_ran(kind=row.kind, due_at=row.due_at, now=now, result=result)
    if row.kind in (DueWork.Kind.NOTIFY, DueWork.Kind.REMIND):
        return result  # an e-mail changes no position: the game's other rows stand as they are
    unit.tell_live_readers()
    state = unit.position.state if unit.position is not None else None
    unit.due = due_work_sync(game=game, now=now, state=state, rules=unit.rules if state is not None else None,
                             rows=unit.rows)
    return result


def _perform(unit: _Unit, row: DueWork, now: dt.datetime) -> str:
    referee = _referee()
    game = unit.game
    game_id = str(game.pk)
    if row.kind in (DueWork.Kind.NOW, DueWork.Kind.AT):
        outcome = referee.run_due(game_id, row.key, game=unit.info, position=unit.position)
        unit.advance(outcome)
        return "ran" if outcome is not None else "no longer due"
    if row.kind == DueWork.Kind.DEADLINE:
        return _expire(unit, row, now)
    if unit.mail is not None and unit.rows.noting:
        return _notify_with_unit(unit, row, now)
    to = notifications.recipients_get(game_id=game_id, seats=row.seats, due_kind=row.kind, key=row.key)
    if row.kind == DueWork.Kind.NOTIFY:
        return f"notified {notifications.turn_started(game=game, recipients=to)}"
    deadline = unit.rows.deadline_of(row.key)
    due_at = deadline.due_at if deadline is not None and deadline.due_at is not None else now
    return f"reminded {notifications.deadline_near(game=game, recipients=to, due_at=due_at)}"


def _notify_with_unit(unit: _Unit, row: DueWork, now: dt.datetime) -> str:
    """A turn's or a reminder's e-mails and notices, from the recipients the game's lock
    read: the notices are recorded by the unit's write, the e-mails sent after it."""
    game, notice = unit.game, notices_record.FROM_DUE_KIND[row.kind]
    to = _recipients(unit.mail or [], row.seats, notice)
    unit.rows.note(notice, row, now)
    notices_record.nudge_after_commit()
    if row.kind == DueWork.Kind.NOTIFY:
        unit.mail_out.append((row, lambda: notifications.turn_started(game=game, recipients=to), len(to)))
        return f"notified {len(to)}"
    deadline = unit.rows.deadline_of(row.key)
    due_at = deadline.due_at if deadline is not None and deadline.due_at is not None else now
    unit.mail_out.append((row, lambda: notifications.deadline_near(game=game, recipients=to, due_at=due_at), len(to)))
    return f"reminded {len(to)}"


def _expire(unit: _Unit, row: DueWork, now: dt.datetime) -> str:
    """The deadline passed: the referee takes the turn, saying who acted and why. The notice
    and the referee's order are one append."""
    referee = _referee()
    game, rules = unit.game, unit.rules
    game_id = str(game.pk)
    position = unit.position or referee.position(game_id, rules)
    state = position.state
    if not any(work_key_text(w.key) == row.key for w in rules.scheduled_work(state)):
        return "no longer due"
    # Every seat of the deadline that still has not acted (in a simultaneous turn, some did).
    seats = tuple(sorted(set(row.seats) & set(rules.to_act(state)))) or tuple(row.seats)
    on_vacation = bool(_vacations(game, seats, now))
    why = "the seat is on vacation and the referee plays its turns" if on_vacation else "the deadline passed"
    notice = NewRecord(kind=RecordKind.NOTICE, type="DeadlineExpired", actor_kind="referee", payload={
        "key": row.key, "seats": list(seats), "due_at": row.due_at.isoformat() if row.due_at else None,
        "policy": game.deadline_policy, "reason": why,
    })
    command = rules.deadline_command(state, seats, game.deadline_policy)
    # The referee plays *for* the seat: the seat stays on the actor so the rules need not guess.
    actor = Actor(ActorKind.REFEREE, seats[0]) if len(seats) == 1 else REFEREE
    outcome = referee.handle(
        game_id, command_type=type(command).__name__, payload=rules.command_to_data(command),
        actor=actor, idempotency_key=row.key, game=unit.info, position=position, preface=[notice],
    )
    unit.advance(outcome)
    return f"referee played {type(command).__name__} ({game.deadline_policy}) because {why}"


# --- the sweeper -------------------------------------------------------------------------------


def sweep_batch() -> int:
    return int(getattr(settings, "REFEREE_SWEEP_BATCH", 20))


def sweep(*, now: dt.datetime | None = None, limit: int = 10_000, batch: int | None = None) -> int:
    """Run every due row once, oldest first, a batch of games per transaction. Games are
    claimed with ``SELECT ... FOR NO KEY UPDATE SKIP LOCKED`` among those with the oldest due
    rows: several sweepers and workers share the work, and a game busy with an order is
    left for the next sweep. Each game runs in a savepoint, so one that fails rolls back
    alone. Returns how many rows ran."""
    now = now or clock.now()
    batch = batch or sweep_batch()
    _outage_check(now)
    ran = 0
    failed: set[Any] = set()
    due = DueWork.objects.filter(status=DueWork.Status.PENDING, due_at__lte=now)
    while ran < limit:
        with transaction.atomic():
            candidates = due.exclude(game_id__in=failed).order_by("due_at", "id").values("game_id")[:batch * 4]
            games = list(Game.objects.select_for_update(no_key=True, skip_locked=True)
                         .filter(pk__in=candidates).order_by()[:batch])
            if not games:
                break
            rows: dict[Any, list[DueWork]] = {}
            for row in due.filter(game__in=games).order_by("due_at", "id"):
                rows.setdefault(row.game_id, []).append(row)
            _vacations_prefetch(games, now)
            for game in games:
                try:
                    with transaction.atomic():
                        unit = _Unit.of(game)
                        with _referee().store.holding(str(game.pk)):
                            ran += _run_rows(unit, unit.rows.adopt(rows.get(game.pk, [])), now)
                        unit.finish()
                except Exception:
                    log.exception("due work of game %s failed; it is left for the next sweep", game.pk)
                    metrics.job_retried("sweep", "failed")
                    failed.add(game.pk)
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
            missed = DueWork.objects.filter(
                status=DueWork.Status.PENDING, kind__in=[DueWork.Kind.DEADLINE, DueWork.Kind.REMIND],
                due_at__gt=beat.last_run_at, due_at__lte=now,
            )
            # Every write of a game's due rows holds the game's row lock (referee/due_rows.py),
            # so take those first, in one order, then the rows.
            games_of = sorted({str(g) for g in missed.values_list("game_id", flat=True)})
            list(Game.objects.select_for_update(no_key=True).filter(pk__in=games_of).order_by("pk")
                 .values_list("pk", flat=True))
            missed = missed.select_for_update()
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
