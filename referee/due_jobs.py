"""Running a game's due rows under its lock: a deadline's expiry, a turn's start, a timer,
a turn's or a reminder's notice, each then what it makes due in the same game.

A job takes the game's row lock and, in the same statement, the game's pending due rows,
its vacations and the seats it e-mails; it runs its row and whatever that makes due now (an
expiry makes the next turn's start due, which makes its notice due) with the position
carried from one to the next; its appends are held and written in one statement at the end
(``referee.store.held``), then its due rows and the notices in one more
(``referee.due_rows``). The row's key is the idempotency key of what it appends, so a
duplicate, late or redelivered job changes nothing.
"""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import transaction

from games.base import REFEREE, Actor, ActorKind, Ruleset, RuleViolation, work_key_text
from referee import clock, due_sync, live, metrics, noticeboard, notifications
from referee.core import Appended, Position, Referee
from referee.due_rows import DueRows, Write
from referee.due_sync import (
    _vacations,
    _vacations_known,
    due_work_sync,
    enqueue_due_now,
    pending_known,
)
from referee.errors import RefereeError
from referee.instance import referee_get
from referee.models import DueWork, Game
from referee.store import sql as store_sql
from referee.store import tail as store_tail
from referee.store.base import GameInfo, NewRecord, RecordKind, TransactionSpoilt

log = logging.getLogger(__name__)


def _referee() -> Referee:
    return referee_get()


# The game locked, then (once the lock is held, each with a snapshot of its own: the
# functions of migrations 0013 and 0016) its pending due rows, one result row each (the
# job's own among them), its vacations not over by a moment and the seats it e-mails with
# their e-mail choices: one round trip, and the unit needs no other read of its due rows.
# No row lock on the due rows: the game's lock guards them (referee/due_rows.py).
# The log's tail comes along too (migration 0017), so the position needs no read of the log.
_LOCK_WIDTH = len(Game._meta.concrete_fields) + 2 + len(DueWork._meta.concrete_fields)
_LOCK_GAME_AND_ROWS = store_tail.lock_with_tail(
    f"SELECT {store_sql.columns(Game)} FROM referee_game WHERE id = %s::uuid FOR NO KEY UPDATE",
    f"l.*, x.away, x.mail, {store_sql.columns(DueWork, 'd')}",
    "l CROSS JOIN LATERAL (SELECT referee_game_vacations(l.id, %s::timestamptz) AS away, "
    "referee_game_recipients(l.id) AS mail) AS x "
    "LEFT JOIN LATERAL referee_pending_due_work(l.id) AS d ON true",
    _LOCK_WIDTH,
)


def _recipients(mail: list[Any], seats: Any, notice: str) -> list[notifications.Recipient]:
    """Who of these seats gets ``notice`` by e-mail, from what the game's lock read."""
    wanted = {int(n) for n in seats}
    return [notifications.Recipient(name, email) for number, name, email, choices in mail
            if number in wanted and noticeboard.wanted_by_email(notice, choices)]


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
    try:
        return _job_unit(game_id, key, kind, now, hold=hold)
    finally:
        _referee().positions.forget_read_along()


def _job_unit(game_id: str, key: str, kind: str, now: dt.datetime, *, hold: bool) -> str:
    with transaction.atomic():
        game, row = _locked_game_and_row(game_id, key, kind, now)
        if game is None:
            return "no such game"
        if row is None:
            return "nothing to do"
        unit = _Unit.of(game)
        with unit.referee.store.holding(str(game.pk)) if hold else nullcontext():
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
            gid = str(uuid.UUID(str(game_id)))
        except ValueError:
            return None, None
        positions = _referee().positions
        after = positions.tail_wanted(gid)
        found, tail = store_tail.split(gid, store_sql.run(store_sql.route(_LOCK_GAME_AND_ROWS, gid), (gid, now, after), records=True),
                                       _LOCK_WIDTH)
        if not found:
            return None, None
        width = len(Game._meta.concrete_fields)
        game = store_sql.instances(Game, [found[0][:width]])[0]
        positions.read_along(str(game.pk), after, tail)
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
    #: The referee the unit runs with, asked for once (``referee_get`` compares what it is
    #: built from on every call).
    referee: Referee
    position: Position | None = None
    due: list[DueWork] | None = None
    live_told: bool = False  # live readers are told once per unit, when it commits
    #: The seats the game e-mails, with their e-mail choices, as read with its lock (None:
    #: not read; each turn or reminder row then reads and records its own).
    mail: list[Any] | None = None
    #: E-mails to send once the unit's rows are written: (row, send, how many it addresses).
    mail_out: list[tuple[DueWork, Callable[[], int], int]] = field(default_factory=list)
    #: Where the rows it runs are counted (a sweep's batch records its whole batch's when it
    #: commits); None: each row's metrics are recorded as it runs.
    tally: metrics.DueWorkTally | None = None

    @classmethod
    def of(cls, game: Game, referee: Referee | None = None, tally: metrics.DueWorkTally | None = None) -> _Unit:
        """The unit of a game row read under its lock, with ``referee`` (a sweep passes the
        one it runs with) and ``tally`` (a sweep's batch, its own)."""
        referee = referee or _referee()
        info = game_info(game)
        rows = DueRows(game, game.__dict__.pop("_pending_due", None))
        return cls(game, info, referee.ruleset_for(info), rows, referee, mail=game.__dict__.pop("_mail", None),
                   tally=tally)

    @property
    def over(self) -> bool:
        """The game is finished, abandoned or frozen: its due rows are cancelled, not run."""
        return bool(self.game.frozen_reason) or self.game.status != Game.Status.ACTIVE

    @property
    def playing(self) -> bool:
        """The game's due rows run now: it is not over and not paused (a paused game's rows
        wait for it to resume)."""
        return not self.over and self.game.paused_at is None

    def finish(self) -> None:
        """Write the unit's due rows (and the notices of its turn and reminder rows), then
        send their e-mails: only for rows that went in, so a notice row never runs when a
        row of its key was there already. Within ``holding``, the records the unit's appends
        held go in with the due rows, in the same statement."""
        held = self.referee.store.take_held(str(self.game.pk)) if self.rows.unwritten else None
        self.rows.flush(held)
        self.send()

    def write(self) -> Write | None:
        """``finish``'s statement, not sent (PostgreSQL): a sweep sends its batch's together
        (``referee.sweep_batch``), then calls ``send``."""
        held = self.referee.store.take_held(str(self.game.pk)) if self.rows.unwritten else None
        return self.rows.write(held)

    def send(self) -> None:
        """The unit's e-mails, once its rows are written."""
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

    def advance(self, outcome: Appended | None) -> None:
        if outcome is None or outcome.position is None:
            return
        self.position = outcome.position
        if self.rules.is_finished(outcome.state):
            self.game.status = Game.Status.FINISHED
            noticeboard.record(notice="over", game_id=str(self.game.pk), key="over")  # once a game
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
    if not unit.playing:
        if not unit.over:
            return "game paused"
        unit.rows.close(row, DueWork.Status.CANCELLED, now,
                        f"game {game.status}{' and frozen' if game.frozen_reason else ''}")
        return row.result
    try:
        result = _perform(unit, row, now)
    except (RuleViolation, RefereeError) as exc:
        # A job that the rules refuse is a bug in a ruleset; record why and move on rather
        # than retrying forever.
        log.error("due work %s/%s refused: %s", game.pk, row.key, exc)
        result = f"refused: {exc}"
        unit.position = None  # the refused step may have appended a notice: read the position afresh
    unit.rows.close(row, DueWork.Status.DONE, now, result)
    if unit.tally is not None:
        unit.tally.add(kind=row.kind, due_at=row.due_at, now=now, result=result)
    else:
        metrics.due_work_ran(kind=row.kind, due_at=row.due_at, now=now, result=result)
    if row.kind in (DueWork.Kind.NOTIFY, DueWork.Kind.REMIND):
        return result  # an e-mail changes no position: the game's other rows stand as they are
    unit.tell_live_readers()
    state = unit.position.state if unit.position is not None else None
    unit.due = due_work_sync(game=game, now=now, state=state, rules=unit.rules if state is not None else None,
                             rows=unit.rows)
    return result


def _perform(unit: _Unit, row: DueWork, now: dt.datetime) -> str:
    referee = unit.referee
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
    game, notice = unit.game, noticeboard.FROM_DUE_KIND[row.kind]
    to = _recipients(unit.mail or [], row.seats, notice)
    unit.rows.note(notice, row, now)
    noticeboard.nudge_after_commit()
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
    referee = unit.referee
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


due_sync.run_now = due_work_run  # for eager Celery: the nudge of a row due now runs it here
