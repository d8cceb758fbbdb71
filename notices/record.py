"""Recording notices as due work, in the transaction of what causes them.

Each function here is one statement (``INSERT ... SELECT`` over the channels that want the
notice, ``ON CONFLICT DO NOTHING`` on (channel, notice, key), so recording twice records
once), and after commit a nudge tells the notices worker; if the nudge is lost, its beat
sweep finds the rows. The turn and reminder notices ride on the statement that already
finds a turn's e-mail recipients (``recipients_recording``): they add no statement to the
deadline job."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence

from celery import current_app as celery_app  # the project's (config.celery)
from django.db import transaction
from django.db.models import Q

from notices.models import Channel, Delivery, LeagueGame
from referee import clock, nudges
from referee.models import Seat
from referee.noticeboard import FROM_DUE_KIND
from referee.store import sql as store_sql

SEND_DUE = "notices.send_due"  # the task in notices.tasks, sent by name

__all__ = ["FROM_DUE_KIND", "due_notices_ctes", "league_game_made", "nudge_after_commit", "record",
           "recipients_recording", "wanted_by_email"]

_COLUMNS = ("id, channel_id, notice, game_id, seat, key, status, attempts, next_attempt_at, created_at, "
            "answer, last_error")
# Player channels of the seats (e-mail for turns and reminders is sent as it always was,
# below), the game's own channels and its league's; e-mail prefs can only turn those e-mails off.
_CHANNELS_OF_SEATS = f"""
INSERT INTO notices_delivery ({_COLUMNS})
SELECT gen_random_uuid(), c.id, %(notice)s::varchar, %(game)s::uuid, s.number, %(key)s::varchar, 'pending', 0,
       %(now)s::timestamptz, %(now)s::timestamptz, '', ''
FROM referee_seat s JOIN notices_channel c ON c.owner_id = s.user_id AND c.scope = 'player'
WHERE s.game_id = %(game)s::uuid AND (%(all)s::bool OR s.number = ANY(%(seats)s::int4[]))
  AND c.enabled AND c.wants ? %(notice)s::varchar AND (c.kind <> 'email' OR NOT %(inline_email)s::bool)
UNION ALL
SELECT gen_random_uuid(), c.id, %(notice)s::varchar, %(game)s::uuid, NULL, %(key)s::varchar, 'pending', 0,
       %(now)s::timestamptz, %(now)s::timestamptz, '', ''
FROM notices_channel c WHERE c.game_id = %(game)s::uuid AND c.scope = 'game' AND c.enabled
  AND c.wants ? %(notice)s::varchar
UNION ALL
SELECT gen_random_uuid(), c.id, %(notice)s::varchar, %(game)s::uuid, NULL, %(key)s::varchar, 'pending', 0,
       %(now)s::timestamptz, %(now)s::timestamptz, '', ''
FROM notices_leaguegame lg JOIN notices_channel c ON c.league_id = lg.league_id AND c.scope = 'league'
WHERE lg.game_id = %(game)s::uuid AND c.enabled AND c.wants ? %(notice)s::varchar
ON CONFLICT ON CONSTRAINT notices_delivery_once DO NOTHING"""

RECIPIENTS_RECORDING = (
    f"WITH recorded AS ({_CHANNELS_OF_SEATS} RETURNING 1) "
    "SELECT s.name, u.email FROM referee_seat s JOIN auth_user u ON u.id = s.user_id "
    "WHERE s.game_id = %(game)s::uuid AND s.number = ANY(%(seats)s::int4[]) AND s.reminders AND u.email <> '' "
    "AND NOT EXISTS (SELECT 1 FROM notices_channel e WHERE e.owner_id = u.id AND e.scope = 'player' "
    "AND e.kind = 'email' AND NOT e.wants ? %(notice)s::varchar) ORDER BY s.number"
)


# The same channels for the turn and reminder notices of a unit of due work, as CTEs of the
# statement that writes the unit's due rows (``referee.due_rows``): each notice goes in if
# its row went in (a new row of the ``ins`` CTE) or was there already (``known``), so
# recording them adds no statement to a deadline job. The e-mails themselves are sent by
# the job (``wanted_by_email``), from the recipients it read with the game's lock.
DUE_NOTICES_CTES = f"""
notes AS (SELECT n.* FROM jsonb_to_recordset(%(notes)s::jsonb)
          AS n(notice varchar, key varchar, kind varchar, seats jsonb, known bool)
          WHERE n.known OR EXISTS (SELECT 1 FROM ins WHERE ins.key = n.key AND ins.kind = n.kind)),
noted AS (INSERT INTO notices_delivery ({_COLUMNS})
SELECT gen_random_uuid(), c.id, n.notice, %(game)s::uuid, s.number, n.key, 'pending', 0,
       %(now)s::timestamptz, %(now)s::timestamptz, '', ''
FROM notes n JOIN referee_seat s ON s.game_id = %(game)s::uuid AND n.seats @> to_jsonb(s.number)
JOIN notices_channel c ON c.owner_id = s.user_id AND c.scope = 'player'
WHERE c.enabled AND c.wants ? n.notice AND c.kind <> 'email'
UNION ALL
SELECT gen_random_uuid(), c.id, n.notice, %(game)s::uuid, NULL, n.key, 'pending', 0,
       %(now)s::timestamptz, %(now)s::timestamptz, '', ''
FROM notes n JOIN notices_channel c ON c.game_id = %(game)s::uuid AND c.scope = 'game'
WHERE c.enabled AND c.wants ? n.notice
UNION ALL
SELECT gen_random_uuid(), c.id, n.notice, %(game)s::uuid, NULL, n.key, 'pending', 0,
       %(now)s::timestamptz, %(now)s::timestamptz, '', ''
FROM notes n JOIN notices_leaguegame lg ON lg.game_id = %(game)s::uuid
JOIN notices_channel c ON c.league_id = lg.league_id AND c.scope = 'league'
WHERE c.enabled AND c.wants ? n.notice
ON CONFLICT ON CONSTRAINT notices_delivery_once DO NOTHING)"""


def due_notices_ctes() -> str:
    return DUE_NOTICES_CTES


def wanted_by_email(notice: str, choices: Sequence[Sequence[str]]) -> bool:
    """Whether a player whose e-mail channels want ``choices`` (one list per channel; none:
    never chosen) gets ``notice`` by e-mail: what ``RECIPIENTS_RECORDING`` checks in SQL."""
    return all(notice in (wants or []) for wants in choices)


def _params(*, notice: str, game_id: str, key: str, seats: Iterable[int] | None, now: dt.datetime,
            inline_email: bool) -> dict[str, object]:
    numbers = [int(n) for n in seats] if seats is not None else []
    return {"notice": notice, "game": str(game_id), "key": key, "now": now, "all": seats is None,
            "seats": numbers, "inline_email": inline_email}


def nudge_after_commit() -> None:
    """Once per transaction: ``send_due`` sends whatever is due, so a sweep's batch of
    turn notices needs one nudge, not one a game (each a message for the workers to run)."""
    if celery_app.conf.task_always_eager:
        return  # tests and scripts send with ``notices.delivery.send_due`` (a hanging receiver must not run here)
    connection = transaction.get_connection()
    if connection.in_atomic_block and any(func is _nudge for _, func, _ in connection.run_on_commit):
        return
    transaction.on_commit(_nudge)


def _nudge() -> None:
    nudges.send_later(SEND_DUE, ())


def recipients_recording(*, due_kind: str, game_id: str, key: str, seats: Iterable[int],
                         now: dt.datetime | None = None) -> list[tuple[str, str]]:
    """Record a turn's (or a reminder's) notices for the seats' channels and the game's,
    and return (seat name, address) of who gets the e-mail: one statement."""
    notice = FROM_DUE_KIND[due_kind]
    now = now or clock.now()
    seats = [int(n) for n in seats]
    nudge_after_commit()
    if store_sql.enabled():
        params = _params(notice=notice, game_id=game_id, key=key, seats=seats, now=now, inline_email=True)
        return [(name, email) for name, email in store_sql.run(RECIPIENTS_RECORDING, params)]
    _record_orm(notice=notice, game_id=game_id, key=key, seats=seats, now=now, inline_email=True)
    to = list(Seat.objects.filter(game_id=game_id, number__in=seats, reminders=True, user__isnull=False)
              .exclude(user__email="").select_related("user").order_by("number"))
    # JSON containment is PostgreSQL's: the choices are read and checked here.
    chose = dict(Channel.objects.filter(scope=Channel.Scope.PLAYER, kind=Channel.Kind.EMAIL,
                                        owner_id__in=[s.user_id for s in to]).values_list("owner_id", "wants"))
    return [(s.name, s.user.email) for s in to if s.user_id not in chose or notice in (chose[s.user_id] or [])]


def record(*, notice: str, game_id: str, key: str, seats: Iterable[int] | None = None,
           now: dt.datetime | None = None) -> None:
    """Record ``notice`` for the channels of ``seats`` (every seat: None), the game's
    channels and its league's: one statement, in the caller's transaction."""
    now = now or clock.now()
    nudge_after_commit()
    if store_sql.enabled():
        store_sql.run(_CHANNELS_OF_SEATS, _params(notice=notice, game_id=game_id, key=key, seats=seats, now=now,
                                                  inline_email=False))
        return
    _record_orm(notice=notice, game_id=game_id, key=key, seats=None if seats is None else list(seats), now=now,
                inline_email=False)


def _record_orm(*, notice: str, game_id: str, key: str, seats: list[int] | None, now: dt.datetime,
                inline_email: bool) -> None:
    """The same on a database without the SQL path (SQLite under the embedded default)."""
    seat_rows = Seat.objects.filter(game_id=game_id, user__isnull=False)
    if seats is not None:
        seat_rows = seat_rows.filter(number__in=seats)
    number_of = {user_id: number for user_id, number in seat_rows.values_list("user_id", "number")}
    league_ids = list(LeagueGame.objects.filter(game_id=game_id).values_list("league_id", flat=True))
    channels = Channel.objects.filter(enabled=True).filter(
        Q(scope=Channel.Scope.PLAYER, owner_id__in=list(number_of)) | Q(scope=Channel.Scope.GAME, game_id=game_id)
        | Q(scope=Channel.Scope.LEAGUE, league_id__in=league_ids))
    rows = [
        Delivery(channel=c, notice=notice, game_id=game_id, key=key, next_attempt_at=now, created_at=now,
                 seat=number_of[c.owner_id] if c.scope == Channel.Scope.PLAYER else None)
        for c in channels
        if notice in (c.wants or []) and not (inline_email and c.kind == Channel.Kind.EMAIL)
    ]
    Delivery.objects.bulk_create(rows, ignore_conflicts=True)


def league_game_made(*, league_id: int, game_id: str) -> None:
    """The league made this game: from now on the league's channel hears of it. In the
    transaction that makes the game, so no turn of it is recorded before the link."""
    LeagueGame.objects.get_or_create(game_id=game_id, defaults={"league_id": league_id})
