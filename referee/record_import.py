"""Bring a finished game's whole record (``games.record``) into this referee as a read-only
game: checked offline first (chain, seeded dice, every order re-decided), written exactly
as recorded (same game id, seqs and hashes: the id is part of every hash and of every draw's
recipe), then verified again from the database before the transaction commits. The game is
finished, so every order is refused; it has no due work and no rating."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction

from games.base import Registry
from games.dice import seed_commitment
from games.record import SETUP
from games.record.verify import audience_seats, verify_record
from referee.errors import InvalidSetting
from referee.instance import referee_get
from referee.models import Event, Game, Seat


class RecordRefused(InvalidSetting):
    """The record is not one this referee takes (not whole, not over, not verified, here already)."""


def record_import(*, data: dict[str, Any], registry: Registry | None = None) -> Game:
    referee = referee_get()
    report = verify_record(data, registry or referee.registry)  # a viewer's file raises PartialRecord
    if not report.ok:
        raise RecordRefused(f"The record does not verify: {report.problem}.")
    game, dice, records = data["game"], data["dice"], data["records"]
    if game.get("status") != "finished" or not dice.get("seed"):
        raise RecordRefused("Only a finished game's record, with its seed revealed, can be imported.")
    if Game.objects.filter(pk=game["id"]).exists():
        raise RecordRefused(f"Game {game['id']} is already here.")
    setup = records[0]
    if setup["type"] != SETUP:
        raise RecordRefused("The record does not start with the referee's Setup.")
    seats = setup["payload"]["seats"]
    with transaction.atomic():
        row = Game.objects.create(
            id=game["id"], name=(game.get("name") or f"{game['ruleset']} game")[:120], ruleset=game["ruleset"],
            ruleset_version=game["ruleset_version"], settings=setup["payload"]["settings"], seed=dice["seed"],
            seed_hash=seed_commitment(dice["seed"]), status=Game.Status.FINISHED,
            private_log=bool(game.get("private_log")), max_seats=len(seats),
        )
        Seat.objects.bulk_create([Seat(game=row, number=int(s["number"]), name=str(s["name"])[:60]) for s in seats])
        Event.objects.bulk_create([_event(row, r) for r in records], batch_size=500)
        again = referee.verify(str(row.pk))
        if not again.ok:  # the database must hold what was checked, byte for byte
            transaction.set_rollback(True)
            raise RecordRefused(f"The imported log does not verify: {again.first_problem}.")
    return row


def _event(game: Game, r: dict[str, Any]) -> Event:
    version = int(r["record_version"])
    kind, seats = r["audience"]
    actor_kind, actor_seat = r["actor"]
    return Event(
        game=game, seq=r["seq"], kind=r["kind"], type=r["type"], schema_version=r["schema_version"],
        payload=r["payload"], audience_kind=kind,
        audience_seat=seats if version < 2 else None,
        audience_seats=list(audience_seats(r)[1]) if version >= 2 else None,
        record_version=version if version >= 2 else None,
        actor_kind=actor_kind, actor_seat=actor_seat, idempotency_key=r["idempotency_key"],
        cause_seq=r["cause_seq"], draws=r["draws"], created_at=dt.datetime.fromisoformat(r["created_at"]),
        prev_hash=r["prev_hash"], hash=r["hash"],
    )
