"""Writes. Each service is a keyword-only function inside ``transaction.atomic``; follow-up
work is handed to Celery with ``transaction.on_commit``."""

from __future__ import annotations

import datetime as dt
import time
import uuid
from collections.abc import Callable, Mapping
from contextlib import nullcontext
from typing import Any

from django.conf import settings as django_settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from games.base import MODERATOR, MODERATOR_VIEW, Actor, Ruleset, RuleViolation, SeatInfo, Viewer
from referee import clock, limits, logs, metrics, noticeboard, scheduling, selectors
from referee.core import Appended, VerifyReport
from referee.errors import (
    ConcurrencyError,
    GameFrozen,
    GameNotActive,
    GameNotFound,
    InvalidSetting,
    SeatError,
)
from referee.instance import referee_get
from referee.models import DueWork, Event, Game, Seat, Vacation, save_by_key
from referee.store import sql as store_sql
from referee.store import tail as store_tail
from referee.store.base import GameInfo, TransactionSpoilt


@transaction.atomic
def game_create(
    *, name: str, ruleset: str, version: str | None = None, settings: dict[str, Any] | None = None,
    created_by: AbstractBaseUser | None = None, private_log: bool = False, turn_limit_seconds: int | None = None,
    deadline_policy: str | None = None, vacation_policy: str = "pause", is_private: bool = False,
    seats: int | None = None, rated: bool = False,
) -> Game:
    referee = referee_get()
    rules = referee.registry.get(ruleset, version)
    seats = rules.max_seats if seats is None else seats
    if not rules.min_seats <= seats <= rules.max_seats:
        raise InvalidSetting(f"{rules.name} is played by {rules.min_seats} to {rules.max_seats} players.")
    settings, limit = game_clock_settings(rules=rules, settings=settings or {}, turn_limit_seconds=turn_limit_seconds)
    policy = deadline_policy or rules.deadline_policies[0]
    if policy not in rules.deadline_policies:
        raise InvalidSetting(
            f"{rules.name} knows the deadline policies {', '.join(rules.deadline_policies)}, not {policy!r}."
        )
    if vacation_policy not in ("pause", "referee"):
        raise InvalidSetting("A vacation either pauses the clock ('pause') or lets the referee play ('referee').")
    if not name.strip():
        raise InvalidSetting("A game needs a name.")
    info = referee.create_game(ruleset=ruleset, version=version, settings=settings, private_log=private_log)
    Game.objects.filter(pk=info.id).update(
        name=name.strip()[:120], created_by=created_by, max_seats=seats, is_private=is_private,
        turn_limit_seconds=limit, deadline_policy=policy, vacation_policy=vacation_policy,
        rated=rated,
    )
    return Game.objects.get(pk=info.id)


def game_clock_settings(
    *, rules: Ruleset, settings: Mapping[str, Any], turn_limit_seconds: int | None,
) -> tuple[dict[str, Any], int]:
    """A new game's settings and turn limit, agreeing on one clock (``Ruleset.clock_settings``):
    the limit given, else the one the ruleset's own clock setting gives, else the ruleset's
    default (written into the settings as well); checked against the ruleset's bounds."""
    try:
        clocked, limit = rules.clock_settings(settings, turn_limit_seconds)
        if limit is None:
            clocked, limit = rules.clock_settings(clocked, rules.turn_limits.default)
            limit = rules.turn_limits.default if limit is None else limit
        rules.turn_limits.check(limit)
    except RuleViolation as exc:
        raise InvalidSetting(f"{exc.rule}: {exc.message}" if exc.rule != "settings" else exc.message) from None
    return clocked, limit


@transaction.atomic
def seat_add(*, game: Game, user: AbstractBaseUser | None, name: str) -> Seat:
    game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    if game.status != Game.Status.OPEN:
        raise SeatError("Seats can only be taken before the game starts.")
    taken = list(game.seats.all())
    if len(taken) >= game.max_seats:
        raise SeatError(f"The game is full ({game.max_seats} seats).")
    if user is not None and any(s.user_id == user.pk for s in taken):
        raise SeatError("You already have a seat in this game.")
    name = name.strip()
    if not name or any(s.name.lower() == name.lower() for s in taken):
        raise SeatError("Each seat needs a name of its own.")
    return Seat.objects.create(game=game, number=len(taken) + 1, user=user, name=name[:60])


@transaction.atomic
def game_start(*, game: Game) -> Appended:
    game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    seats = [SeatInfo(s.number, s.name) for s in game.seats.order_by("number")]
    outcome = referee_get().start_game(str(game.pk), seats)
    game.refresh_from_db()
    _after_append(game)
    return outcome


def command_handle(
    *, game_id: str, user: AbstractBaseUser, command_type: str, payload: dict[str, Any],
    idempotency_key: str | None = None, as_moderator: bool = False, expected_seq: int | None = None,
) -> Appended:
    """Place one order. A refused order raises RuleViolation after its transaction has
    committed, so the private record of the refusal (where the ruleset keeps one) stays."""
    limits.order_check(command_type, payload)  # before anything is read or written
    started = time.perf_counter()
    try:
        try:
            outcome, game, refusal = _order_unit(game_id, user, command_type, payload, idempotency_key, as_moderator,
                                                 expected_seq, hold=True)
        except TransactionSpoilt:
            # The held records no longer fitted the log (a writer that skipped the game's
            # lock): the order is decided again, each append written as it is decided.
            referee_get().positions.forget_read_along()
            outcome, game, refusal = _order_unit(game_id, user, command_type, payload, idempotency_key, as_moderator,
                                                 expected_seq, hold=False)
    finally:
        referee_get().positions.forget_read_along()
    metrics.order_placed(ruleset=game.ruleset, started=started, refused_by=refusal.rule if refusal else None,
                         replayed=outcome is not None and outcome.replayed)
    if refusal is not None:
        raise refusal
    assert outcome is not None  # handle returned
    return outcome


def _order_unit(
    game_id: str, user: AbstractBaseUser, command_type: str, payload: dict[str, Any], idempotency_key: str | None,
    as_moderator: bool, expected_seq: int | None, *, hold: bool,
) -> tuple[Appended | None, Game, RuleViolation | None]:
    """The order's transaction: the outcome, the game as locked, and the refusal if any.
    With ``hold``, the order's records are held (``referee.store.held``) and go in the same
    statement as the due rows the order changes, or alone at the block's end: one round
    trip fewer for an order that moves due work."""
    refusal: RuleViolation | None = None
    outcome: Appended | None = None
    with transaction.atomic():
        if as_moderator:
            if not user.is_staff:
                raise SeatError("Only moderators may give moderator orders.")
            actor = MODERATOR
            game = _locked_game(game_id)
        else:
            number, game = _locked_seat(game_id, user)
            actor = Actor.player(number)
            logs.bind(game_id=str(game.pk), seat=number)
        if game.paused_at is not None and not as_moderator:
            raise GameNotActive("A moderator has paused this game; orders wait until it resumes.")
        if expected_seq is not None:
            # In the player's own numbering: records they cannot see do not count as news.
            viewer = MODERATOR_VIEW if as_moderator else Viewer.for_seat(actor.seat)
            last = referee_get().numbering(game_id, viewer).count
            if last != expected_seq:
                raise ConcurrencyError(
                    f"The game has moved on: its log is at {last}, you expected {expected_seq}. "
                    "Reload the position and decide again.", last_seq=last,
                )
        store = referee_get().store
        with store.holding(str(game.pk)) if hold else nullcontext():
            try:
                outcome = referee_get().handle(
                    game_id, command_type=command_type, payload=payload, actor=actor, idempotency_key=idempotency_key,
                    game=_info(game),
                )
            except RuleViolation as exc:
                refusal = exc  # caught inside the block: a refusal's own record is still written
            else:
                if not outcome.replayed:
                    _after_append(game, outcome, held_of=(lambda: store.take_held(str(game.pk))) if hold else None)
    return outcome, game, refusal


def _locked_game(game_id: str) -> Game:
    """The game row, locked: orders and jobs of one game take turns (the expected-seq
    check on append stays the guarantee; the lock just saves lost races). NO KEY UPDATE,
    because appending an event takes KEY SHARE on the game row through its foreign key
    and a plain FOR UPDATE would deadlock with a writer that appended without the lock."""
    try:
        return Game.objects.select_for_update(no_key=True).get(pk=game_id)
    except (Game.DoesNotExist, ValueError, ValidationError):
        raise GameNotFound("There is no such game.") from None


def _locked_seat(game_id: str, user: AbstractBaseUser) -> tuple[int, Game]:
    """The user's seat number and the game, the game row locked as ``_locked_game`` does:
    one statement for both (plain SQL on PostgreSQL: the ORM compiled it slower than the
    database ran it)."""
    found: tuple[int, Game] | None = None
    if user.is_authenticated:
        try:
            if store_sql.enabled():
                gid = str(uuid.UUID(str(game_id)))
                positions = referee_get().positions
                after = positions.tail_wanted(gid)
                rows, tail = store_tail.split(gid, store_sql.run(
                    store_sql.route(_SEAT_AND_GAME, gid), (gid, user.pk, after), records=True), _SEAT_AND_GAME_WIDTH)
                if rows:
                    width = 1 + len(Game._meta.concrete_fields)
                    game = store_sql.instances(Game, [rows[0][1:width]])[0]
                    scheduling.pending_known(game, store_sql.instances(
                        DueWork, [row[width:] for row in rows if row[width] is not None]))
                    positions.read_along(str(game.pk), after, tail)
                    found = rows[0][0], game
            else:
                seat = (Seat.objects.select_related("game").select_for_update(no_key=True, of=("game",))
                        .filter(game_id=game_id, user=user).first())
                found = (seat.number, seat.game) if seat is not None else None
        except (ValueError, ValidationError):
            found = None
    if found is None:
        raise SeatError("You have no seat in this game.")
    return found


# The game's pending due rows and the log's tail come along, read once the lock is held and
# each with a snapshot of its own (migrations 0013 and 0017): the sync after the append then
# needs no read of the due rows, and the position no read of the log.
_SEAT_AND_GAME_WIDTH = 1 + len(Game._meta.concrete_fields) + len(DueWork._meta.concrete_fields)
_SEAT_AND_GAME = store_tail.lock_with_tail(
    f"SELECT s.number, {store_sql.columns(Game, 'g')} FROM referee_seat s JOIN referee_game g ON g.id = s.game_id "
    "WHERE s.game_id = %s::uuid AND s.user_id = %s FOR NO KEY UPDATE OF g",
    f"l.*, {store_sql.columns(DueWork, 'd')}", "l LEFT JOIN LATERAL referee_pending_due_work(l.id) AS d ON true",
    _SEAT_AND_GAME_WIDTH,
)


def _info(game: Game) -> GameInfo:
    return scheduling.game_info(game)


def _after_append(
    game: Game, outcome: Appended | None = None, held_of: Callable[[], store_sql.HeldInsert | None] | None = None,
) -> None:
    """Bring the due-work table in line with the new position (same transaction) and nudge
    a worker for what is due now once it commits. With the order's ``outcome`` the position
    is not read again (and a game the order finished is known to be finished); ``held_of``
    gives the order's held records, to be written with the due rows when those change."""
    if outcome is None:
        scheduling.enqueue_due_now(scheduling.due_work_sync(game=game))
        return
    rules = referee_get().ruleset_for(_info(game))
    if rules.is_finished(outcome.state):
        game.status = Game.Status.FINISHED
        noticeboard.record(notice="over", game_id=str(game.pk), key="over")
    scheduling.enqueue_due_now(scheduling.due_work_sync(game=game, state=outcome.state, rules=rules, held_of=held_of))
    from referee.live import notify_appended  # readers waiting on the game wake once it commits
    transaction.on_commit(lambda: notify_appended(str(game.pk)))


def game_run_pending(*, game_id: str) -> int:
    """Run what is due now in one game, in this process (what the worker and the sweeper
    do); returns how many rows ran. Safe to call at any time."""
    ran = 0
    for _ in range(100):  # one phase can make another due; a game cannot loop forever
        # The game's own due rows (every game's, filtered here, was a read across games).
        due = list(DueWork.objects.filter(game_id=game_id, status=DueWork.Status.PENDING,
                                          due_at__lte=clock.now()).order_by("due_at"))
        if not due:
            return ran
        for row in due:
            scheduling.due_work_run(game_id=game_id, key=row.key, kind=row.kind)
            ran += 1
    return ran


def game_verify(*, game_id: str, freeze: bool = True) -> VerifyReport:
    """Full verification (not on the hot path). A broken game is frozen until a moderator
    resolves it; snapshots that disagree with the log are dropped (they are only caches)."""
    referee = referee_get()
    report = referee.verify(game_id)
    with transaction.atomic():
        for problem in report.problems:
            if problem.check == "snapshot":
                referee.store.drop_snapshot(game_id, problem.seq)
        log_problems = [p for p in report.problems if p.check != "snapshot"]
        if freeze and log_problems:
            first = min(log_problems, key=lambda p: p.seq)
            referee.store.update_game(game_id, frozen_reason=f"verification failed at {first}")
    metrics.verified(checks=[p.check for p in report.problems], froze=freeze and bool(log_problems))
    return report


def _moderator(user: AbstractBaseUser, reason: str) -> str:
    if not user.is_staff:
        raise SeatError("Only moderators may do that.")
    if not reason.strip():
        raise InvalidSetting("Say why: a moderator's ruling needs a reason everyone can read.")
    return reason.strip()[:500]


@transaction.atomic
def game_unfreeze(*, game_id: str, moderator: AbstractBaseUser, reason: str) -> None:
    reason = _moderator(moderator, reason)
    game = _locked_game(game_id)
    scheduling.notice_append(game_id=game_id, type_="GameUnfrozen", actor_kind="moderator",
                             payload={"reason": reason, "moderator": moderator.get_username()})
    Game.objects.filter(pk=game.pk).update(frozen_reason="")


@transaction.atomic
def game_pause(*, game_id: str, moderator: AbstractBaseUser, reason: str) -> None:
    """Stop the game and its clock; what was left of each deadline is kept."""
    reason = _moderator(moderator, reason)
    game = _locked_game(game_id)
    _refuse_if_stopped(game)
    if game.paused_at is not None:
        raise InvalidSetting("The game is already paused.")
    now = clock.now()
    for row in DueWork.objects.select_for_update().filter(game=game, status=DueWork.Status.PENDING,
                                                          due_at__isnull=False):
        row.remaining, row.due_at = max(row.due_at - now, dt.timedelta(0)), None
        save_by_key(row, "remaining", "due_at")
    Game.objects.filter(pk=game.pk).update(paused_at=now)
    scheduling.notice_append(game_id=game_id, type_="GamePaused", actor_kind="moderator",
                             payload={"reason": reason, "moderator": moderator.get_username()})


@transaction.atomic
def game_resume(*, game_id: str, moderator: AbstractBaseUser, reason: str) -> None:
    reason = _moderator(moderator, reason)
    game = _locked_game(game_id)
    _refuse_if_stopped(game)
    if game.paused_at is None:
        raise InvalidSetting("The game is not paused.")
    now = clock.now()
    resumed = list(DueWork.objects.select_for_update().filter(game=game, status=DueWork.Status.PENDING,
                                                              due_at__isnull=True))
    for row in resumed:
        row.due_at, row.remaining = now + (row.remaining or dt.timedelta(0)), None
        save_by_key(row, "due_at", "remaining")
    scheduling.timers_nudge(rows=resumed, now=now)
    Game.objects.filter(pk=game.pk).update(paused_at=None)
    scheduling.notice_append(game_id=game_id, type_="GameResumed", actor_kind="moderator",
                             payload={"reason": reason, "moderator": moderator.get_username()})


@transaction.atomic
def deadline_extend(*, game_id: str, moderator: AbstractBaseUser, hours: int, reason: str) -> dt.datetime:
    """Move the current deadline (and its reminder) on by ``hours``."""
    reason = _moderator(moderator, reason)
    if not 1 <= hours <= 24 * 14:
        raise InvalidSetting("Extend a deadline by 1 hour to 14 days.")
    game = _locked_game(game_id)
    _refuse_if_stopped(game)
    rows = list(DueWork.objects.select_for_update().filter(
        game=game, status=DueWork.Status.PENDING, kind__in=[DueWork.Kind.DEADLINE, DueWork.Kind.REMIND]))
    deadline = next((r for r in rows if r.kind == DueWork.Kind.DEADLINE), None)
    if deadline is None:
        raise InvalidSetting("No deadline is running in this game.")
    by = dt.timedelta(hours=hours)
    for row in rows:
        if row.due_at is not None:
            row.due_at += by
        else:
            row.remaining = (row.remaining or dt.timedelta(0)) + by
        save_by_key(row, "due_at", "remaining")
    scheduling.timers_nudge(rows=rows, now=clock.now())
    scheduling.notice_append(game_id=game_id, type_="DeadlineExtended", actor_kind="moderator", payload={
        "key": deadline.key, "hours": hours, "reason": reason, "moderator": moderator.get_username(),
        "due_at": deadline.due_at.isoformat() if deadline.due_at else None,
    })
    return deadline.due_at


# Each vacation is a public record: a minimum length and a daily count keep a player from
# growing the log at will (300 one-second vacations once made 300 records).
VACATION_MIN = dt.timedelta(hours=1)
VACATIONS_PER_DAY = 3


def _refuse_if_stopped(game: Game) -> None:
    """Nothing more is written about a finished game, nor about a frozen one until a
    moderator has looked into its log (an extension, a pause or a vacation included)."""
    if game.frozen_reason:
        raise GameFrozen(
            "This game is frozen while a moderator looks into its log: " + game.frozen_reason, game=str(game.pk)
        )
    if game.status == Game.Status.FINISHED:
        raise GameNotActive("The game is over; nothing more can be changed in it.", game=str(game.pk))


@transaction.atomic
def vacation_declare(
    *, game_id: str, user: AbstractBaseUser, starts_at: dt.datetime, ends_at: dt.datetime, reason: str = ""
) -> Vacation:
    """A player's declared absence: at least ``VACATION_MIN`` long, within the allowance
    (``REFEREE_VACATION_DAYS`` per game), at most ``VACATIONS_PER_DAY`` declared in any 24
    hours, and only while the game is neither finished nor frozen."""
    seat = selectors.seat_get(game_id=game_id, user=user)
    if seat is None:
        raise SeatError("You have no seat in this game.")
    game = _locked_game(game_id)
    _refuse_if_stopped(game)
    now = clock.now()
    if ends_at <= starts_at or ends_at <= now:
        raise InvalidSetting("A vacation must end after it starts, and in the future.")
    if ends_at - starts_at < VACATION_MIN:
        raise InvalidSetting("A vacation lasts at least 1 hour.")
    recent = Event.objects.filter(game_id=game.pk, type="VacationDeclared", payload__seat=seat.number,
                                  created_at__gt=now - dt.timedelta(days=1)).count()
    if recent >= VACATIONS_PER_DAY:
        raise InvalidSetting(f"At most {VACATIONS_PER_DAY} vacations a day may be declared; try again tomorrow.")
    allowance = dt.timedelta(days=django_settings.REFEREE_VACATION_DAYS)
    used = sum((v.ends_at - v.starts_at for v in seat.vacations.all()), dt.timedelta(0))
    if used + (ends_at - starts_at) > allowance:
        left = max(allowance - used, dt.timedelta(0))
        raise InvalidSetting(
            f"Vacations may add up to {django_settings.REFEREE_VACATION_DAYS} days per game; "
            f"you have {left.days} days and {left.seconds // 3600} hours left."
        )
    vacation = Vacation.objects.create(game_id=seat.game_id, seat=seat, starts_at=starts_at, ends_at=ends_at,
                                       reason=reason.strip()[:200])
    scheduling.notice_append(game_id=game_id, type_="VacationDeclared", actor_kind="player", payload={
        "seat": seat.number, "from": starts_at.isoformat(), "until": ends_at.isoformat(),
        "policy": game.vacation_policy,
    })
    if starts_at <= now:
        for row in DueWork.objects.select_for_update().filter(
            game=game, status=DueWork.Status.PENDING, kind=DueWork.Kind.DEADLINE, due_at__isnull=False
        ):
            if seat.number in row.seats:
                limit = dt.timedelta(seconds=game.turn_limit_seconds)
                row.due_at = now if game.vacation_policy == "referee" else max(row.due_at, ends_at + limit)
                save_by_key(row, "due_at")
    return vacation


@transaction.atomic
def reminders_set(*, game_id: str, user: AbstractBaseUser, enabled: bool) -> Seat:
    seat = selectors.seat_get(game_id=game_id, user=user)
    if seat is None:
        raise SeatError("You have no seat in this game.")
    _refuse_if_stopped(seat.game)
    seat.reminders = enabled
    save_by_key(seat, "reminders")
    return seat


@transaction.atomic
def moderator_ruling(
    *, game_id: str, moderator: AbstractBaseUser, reason: str, command_type: str, payload: dict[str, Any]
) -> Appended:
    """A moderator's correction through the ruleset (adjust health, restore a worm ...):
    a public notice with the reason, then the moderator order itself. History is appended
    to, never edited."""
    reason = _moderator(moderator, reason)
    _locked_game(game_id)
    scheduling.notice_append(game_id=game_id, type_="ModeratorRuling", actor_kind="moderator", payload={
        "reason": reason, "order": command_type, "moderator": moderator.get_username(),
    })
    outcome = command_handle(game_id=game_id, user=moderator, command_type=command_type, payload=payload,
                             as_moderator=True)
    if not outcome.replayed:
        noticeboard.record(notice="correction", game_id=game_id, key=f"correction@{outcome.last_seq}")
    return outcome
