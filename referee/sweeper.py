"""The sweeper: every due row runs once, however the broker behaves, and the outage check.

Celery beat runs ``sweep`` every ``REFEREE_SWEEP_SECONDS``: it claims batches of games with
due rows (``SKIP LOCKED``: sweepers and workers share them) and runs each game's rows as a
job does (``referee.due_jobs``). Before that it checks its own heartbeat: deadlines that
fell while the referee was down are moved on by the gap, never played.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F

from referee import clock, metrics
from referee.due_jobs import _run_rows, _Unit
from referee.due_sync import _vacations_known, _vacations_prefetch, pending_known
from referee.instance import referee_get
from referee.models import DueWork, Game, SchedulerHeartbeat
from referee.store import sql as store_sql
from referee.store.base import NewRecord, RecordKind
from referee.sweep_batch import run_batch

log = logging.getLogger(__name__)
SWEEPER = "sweeper"


def outage_threshold() -> dt.timedelta:
    return dt.timedelta(seconds=getattr(settings, "REFEREE_OUTAGE_SECONDS", 300))


def notice_append(*, game_id: str, type_: str, payload: dict[str, Any], actor_kind: str = "referee") -> None:
    """A referee notice everyone sees (a pause, an extension, an expiry), in the log."""
    referee = referee_get()
    store = referee.store
    store.append(
        game_id, store.last_seq(game_id) + 1,
        [NewRecord(kind=RecordKind.NOTICE, type=type_, payload=payload, actor_kind=actor_kind)],
        clock.now(),
    )


# The claimed games' pending due rows (the due ones among them), vacations and e-mail
# recipients, read once the batch's locks are held: one statement per batch. A statement
# across games, but only across the games this sweep has claimed (and locked) for itself.
_BATCH = (
    f"SELECT b.id, x.away, x.mail, {store_sql.columns(DueWork, 'd')} FROM unnest(%s::uuid[]) AS b(id) "
    "CROSS JOIN LATERAL (SELECT referee_game_vacations(b.id, %s::timestamptz) AS away, "
    "referee_game_recipients(b.id) AS mail) AS x "
    "LEFT JOIN LATERAL referee_pending_due_work(b.id) AS d ON true"
)


def _batch_read(games: list[Game], due: Any, now: dt.datetime) -> dict[Any, list[DueWork]]:
    """The due rows of each claimed game, oldest first. On PostgreSQL every pending row of
    the game, its vacations and its e-mail recipients come along and stay on its row, so
    running the game reads none of them again (``due_jobs._Unit.of``)."""
    rows: dict[Any, list[DueWork]] = {}
    if not store_sql.enabled():
        for row in due.filter(game__in=games).order_by("due_at", "id"):
            rows.setdefault(row.game_id, []).append(row)
        _vacations_prefetch(games, now)
        return rows
    by_id = {str(g.pk): g for g in games}
    pending: dict[str, list[Any]] = {game_id: [] for game_id in by_id}
    width = len(DueWork._meta.concrete_fields)
    for game_id, away, mail, *row in store_sql.run(_BATCH, (list(by_id), now)):
        game = by_id[str(game_id)]
        if not hasattr(game, "_mail"):
            _vacations_known(game, now, away)
            game._mail = store_sql.loads(mail) or []  # type: ignore[attr-defined]
        if row[0] is not None:
            pending[str(game_id)].append(row[:width])
    for game_id, game in by_id.items():
        found = store_sql.instances(DueWork, pending[game_id])
        pending_known(game, found)
        rows[game.pk] = sorted((r for r in found if r.due_at is not None and r.due_at <= now),
                               key=lambda r: (r.due_at, r.pk))
    return rows


def sweep_batch() -> int:
    return int(getattr(settings, "REFEREE_SWEEP_BATCH", 50))


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
            rows = _batch_read(games, due, now)
            if store_sql.enabled():
                batch_ran = run_batch(games, rows, now)
                if batch_ran is not None:
                    ran += batch_ran
                    continue
                # Rolled back as a whole: the games (still locked) and their rows afresh, one by one.
                games = list(Game.objects.filter(pk__in=[g.pk for g in games]))
                rows = _batch_read(games, due, now)
            referee = referee_get()
            for game in games:
                tally = metrics.DueWorkTally()  # a game rolled back counts none of its rows
                try:
                    with transaction.atomic():
                        unit = _Unit.of(game, referee, tally)
                        with referee.store.holding(str(game.pk)):
                            ran += _run_rows(unit, unit.rows.adopt(rows.get(game.pk, [])), now)
                            unit.finish()
                    tally.record()
                except Exception:
                    log.exception("due work of game %s failed; it is left for the next sweep", game.pk)
                    metrics.job_retried("sweep", "failed")
                    failed.add(game.pk)
    return ran


#: The kinds of due row an outage moves on (a deadline and its reminder; timers of real-time
#: games and the rest run late, as they would after any delay).
_OUTAGE_KINDS = (DueWork.Kind.DEADLINE.value, DueWork.Kind.REMIND.value)

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
            for game_id in _games_with_deadlines_in(beat.last_run_at, now):
                keys = _deadlines_moved(game_id, beat.last_run_at, now, gap)
                if keys:
                    notice_append(game_id=game_id, type_="DeadlinesExtendedForOutage", payload={
                        "from": beat.last_run_at.isoformat(), "to": now.isoformat(),
                        "extended_by_seconds": int(gap.total_seconds()), "keys": keys,
                        "reason": "the referee's scheduler was not running; no one loses a turn to our downtime",
                    })
        beat.last_run_at = now
        beat.save(update_fields=["last_run_at"])


def _games_with_deadlines_in(start: dt.datetime, end: dt.datetime) -> list[str]:
    """The games with a deadline pending in the gap, in the order their locks are taken (by
    id, as every other taker of several games' locks does, so two never wait on each other).
    The one read across games of the outage check, by design (docs/scaling.md): which games
    to visit is not known before it; each game is then locked and written by its id."""
    return [str(g) for g in DueWork.objects.filter(
        status=DueWork.Status.PENDING, kind__in=_OUTAGE_KINDS, due_at__gt=start, due_at__lte=end,
    ).values_list("game_id", flat=True).distinct().order_by("game_id")]


def _deadlines_moved(game_id: str, start: dt.datetime, end: dt.datetime, gap: dt.timedelta) -> list[str]:
    """Move one game's deadlines that fell in the gap on by it, under the game's lock (every
    write of a game's due rows holds it: referee/due_rows.py); their keys, oldest first.
    A row written since the search (another process had the lock) is judged as it is now."""
    list(Game.objects.select_for_update(no_key=True).filter(pk=game_id).values_list("pk", flat=True))
    rows = DueWork.objects.filter(game_id=game_id, status=DueWork.Status.PENDING, kind__in=_OUTAGE_KINDS,
                                  due_at__gt=start, due_at__lte=end)
    keys = list(rows.order_by("due_at", "key").values_list("key", flat=True))
    rows.update(due_at=F("due_at") + gap)
    return keys


def overdue(now: dt.datetime | None = None) -> list[DueWork]:
    now = now or clock.now()
    return list(DueWork.objects.filter(status=DueWork.Status.PENDING, due_at__lte=now).order_by("due_at"))
