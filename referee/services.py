"""Writes. Each service is a keyword-only function inside ``transaction.atomic``; follow-up
work is handed to Celery with ``transaction.on_commit``."""

from __future__ import annotations

from typing import Any

from django.conf import settings as django_settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games.base import MODERATOR, Actor, SeatInfo
from referee.core import Outcome, Referee, VerifyReport
from referee.errors import GameNotActive, GameNotFound, SeatError
from referee.models import Game, Seat
from referee.rulesets import get_registry
from referee.store.base import NewRecord, RecordKind
from referee.store.django_store import DjangoEventStore


def referee_get() -> Referee:
    return Referee(DjangoEventStore(), get_registry(), snapshot_every=django_settings.REFEREE_SNAPSHOT_EVERY)


@transaction.atomic
def game_create(
    *, name: str, ruleset: str, version: str | None = None, settings: dict[str, Any] | None = None,
    created_by: AbstractBaseUser | None = None, private_log: bool = False,
) -> Game:
    referee = referee_get()
    info = referee.create_game(ruleset=ruleset, version=version, settings=settings or {}, private_log=private_log)
    rules = referee.ruleset_for(info)
    Game.objects.filter(pk=info.id).update(name=name, created_by=created_by, max_seats=rules.max_seats)
    return Game.objects.get(pk=info.id)


@transaction.atomic
def seat_add(*, game: Game, user: AbstractBaseUser | None, name: str) -> Seat:
    game = Game.objects.select_for_update().get(pk=game.pk)
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
def game_start(*, game: Game) -> Outcome:
    game = Game.objects.select_for_update().get(pk=game.pk)
    seats = [SeatInfo(s.number, s.name) for s in game.seats.order_by("number")]
    outcome = referee_get().start_game(str(game.pk), seats)
    _schedule_follow_up(str(game.pk))
    return outcome


def seat_of(*, game_id: str, user: AbstractBaseUser) -> Seat | None:
    return Seat.objects.filter(game_id=game_id, user=user).first() if user.is_authenticated else None


@transaction.atomic
def command_handle(
    *, game_id: str, user: AbstractBaseUser, command_type: str, payload: dict[str, Any],
    idempotency_key: str | None = None, as_moderator: bool = False,
) -> Outcome:
    if as_moderator:
        if not user.is_staff:
            raise SeatError("Only moderators may give moderator orders.")
        actor = MODERATOR
    else:
        seat = seat_of(game_id=game_id, user=user)
        if seat is None:
            raise SeatError("You have no seat in this game.")
        actor = Actor.player(seat.number)
    outcome = referee_get().handle(
        game_id, command_type=command_type, payload=payload, actor=actor, idempotency_key=idempotency_key
    )
    if not outcome.replayed:
        _schedule_follow_up(game_id)
    return outcome


def _schedule_follow_up(game_id: str) -> None:
    """Enqueue the work the new position makes due, once the transaction has committed."""
    from referee.tasks import run_due_work

    referee = referee_get()
    state, _ = referee.current(game_id)
    rules = referee.ruleset_for(referee.store.get_game(game_id))
    for work in rules.scheduled_work(state):
        if work.when == "now":
            transaction.on_commit(lambda key=work.key: run_due_work.delay(game_id, key))


@transaction.atomic
def due_work_run(*, game_id: str, key: str) -> Outcome | None:
    try:
        Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound("There is no such game.") from None
    try:
        outcome = referee_get().run_due(game_id, key)
    except GameNotActive:
        return None
    if outcome is not None and not outcome.replayed:
        _schedule_follow_up(game_id)
    return outcome


def game_run_pending(*, game_id: str) -> int:
    """Run every immediate piece of work the position makes due (what the sweeper does
    for each game); returns how many ran. Safe to call at any time."""
    ran = 0
    for _ in range(100):  # one phase can make another due; a game cannot loop forever
        referee = referee_get()
        info = referee.store.get_game(game_id)
        if info.status != "active" or info.frozen_reason:
            return ran
        state, _ = referee.current(game_id)
        pending = [w for w in referee.ruleset_for(info).scheduled_work(state) if w.when == "now"]
        if not pending or due_work_run(game_id=game_id, key=pending[0].key) is None:
            return ran
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
    return report


@transaction.atomic
def game_unfreeze(*, game_id: str, moderator: AbstractBaseUser, reason: str) -> None:
    if not moderator.is_staff:
        raise SeatError("Only moderators may unfreeze a game.")
    if not reason.strip():
        raise SeatError("Say why the game may go on: a reason is required.")
    referee = referee_get()
    store = referee.store
    seq = store.last_seq(game_id) + 1
    store.append(
        game_id, seq,
        [NewRecord(kind=RecordKind.NOTICE, type="GameUnfrozen", payload={"reason": reason.strip(),
                   "moderator": moderator.get_username()}, actor_kind="moderator")],
        referee.clock(),
    )
    store.update_game(game_id, frozen_reason="")
