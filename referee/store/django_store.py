"""The event store on the Django ORM (PostgreSQL in production, SQLite embedded)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from referee.errors import ConcurrencyError, GameNotFound
from referee.models import Event, Game
from referee.models import Snapshot as SnapshotRow
from referee.store.base import (
    EventStore,
    GameInfo,
    NewRecord,
    RecordKind,
    Snapshot,
    StoredRecord,
    stamp,
)
from referee.store.hashing import GENESIS

_READ_FIELDS = (
    "seq", "kind", "type", "payload", "audience_kind", "audience_seat", "actor_kind", "actor_seat", "schema_version",
    "idempotency_key", "cause_seq", "draws", "created_at", "prev_hash", "hash", "audience_seats", "record_version",
)


def _record(row: Event) -> StoredRecord:
    return StoredRecord(
        game_id=str(row.game_id),
        seq=row.seq,
        kind=RecordKind(row.kind),
        type=row.type,
        payload=row.payload,
        audience_kind=row.audience_kind,
        audience_seat=row.audience_seat,
        actor_kind=row.actor_kind,
        actor_seat=row.actor_seat,
        schema_version=row.schema_version,
        idempotency_key=row.idempotency_key,
        cause_seq=row.cause_seq,
        draws=tuple(row.draws),
        created_at=row.created_at,
        prev_hash=row.prev_hash,
        hash=row.hash,
        audience_seats=tuple(row.audience_seats or ()),
        record_version=row.record_version or 1,
    )


class DjangoEventStore(EventStore):
    def cache_scope(self) -> object:
        from django.db import connection

        return ("db", connection.settings_dict["NAME"])

    def create_game(self, info: GameInfo) -> None:
        from games.dice import seed_commitment

        Game.objects.create(
            id=info.id,
            name=f"{info.ruleset} game",
            ruleset=info.ruleset,
            ruleset_version=info.ruleset_version,
            settings=info.settings,
            seed=info.seed,
            seed_hash=seed_commitment(info.seed),
            status=info.status,
            frozen_reason=info.frozen_reason,
            private_log=info.private_log,
        )

    def _game(self, game_id: str) -> Game:
        try:
            return Game.objects.get(pk=game_id)
        except (Game.DoesNotExist, ValueError, ValidationError):
            raise GameNotFound("There is no such game.", game=str(game_id)) from None

    def get_game(self, game_id: str) -> GameInfo:
        g = self._game(game_id)
        return GameInfo(
            id=str(g.id), ruleset=g.ruleset, ruleset_version=g.ruleset_version, settings=g.settings,
            seed=g.seed, status=g.status, frozen_reason=g.frozen_reason, private_log=g.private_log,
        )

    def update_game(self, game_id: str, *, status: str | None = None, frozen_reason: str | None = None) -> None:
        fields = {}
        if status is not None:
            fields["status"] = status
        if frozen_reason is not None:
            fields["frozen_reason"] = frozen_reason
        if fields:
            Game.objects.filter(pk=game_id).update(**fields)

    def append(self, game_id: str, expected_seq: int, records: Sequence[NewRecord], now: dt.datetime) -> list[StoredRecord]:
        try:
            with transaction.atomic():
                if expected_seq == 1:
                    prev = GENESIS
                else:
                    prev_row = Event.objects.filter(game_id=game_id, seq=expected_seq - 1).only("hash").first()
                    if prev_row is None:
                        raise ConcurrencyError(
                            "The order expected a log position that does not exist yet.",
                            expected=expected_seq,
                        )
                    prev = prev_row.hash
                stored = stamp(str(game_id), expected_seq, prev, records, now)
                Event.objects.bulk_create([
                    Event(
                        game_id=game_id, seq=r.seq, kind=str(r.kind), type=r.type,
                        schema_version=r.schema_version, payload=r.payload,
                        audience_kind=r.audience_kind, audience_seat=r.audience_seat,
                        audience_seats=list(r.audience_seats), record_version=r.record_version,
                        actor_kind=r.actor_kind, actor_seat=r.actor_seat,
                        idempotency_key=r.idempotency_key, cause_seq=r.cause_seq,
                        draws=list(r.draws), created_at=r.created_at,
                        prev_hash=r.prev_hash, hash=r.hash,
                    )
                    for r in stored
                ])
                return stored
        except IntegrityError:
            raise ConcurrencyError(
                "The game moved on while this order was being decided.", expected=expected_seq
            ) from None

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[StoredRecord]:
        qs = Event.objects.filter(game_id=game_id, seq__gt=after)
        if upto is not None:
            qs = qs.filter(seq__lte=upto)
        # Plain tuples, not model instances: replay reads thousands of rows.
        game = str(game_id)
        out = []
        for row in qs.order_by("seq").values_list(*_READ_FIELDS):
            fields = dict(zip(_READ_FIELDS, row, strict=True))
            fields["kind"], fields["draws"] = RecordKind(fields["kind"]), tuple(fields["draws"])
            fields["audience_seats"] = tuple(fields["audience_seats"] or ())
            fields["record_version"] = fields["record_version"] or 1
            out.append(StoredRecord(game_id=game, **fields))
        return out

    def last_seq(self, game_id: str) -> int:
        row = Event.objects.filter(game_id=game_id).order_by("-seq").values_list("seq", flat=True).first()
        return row or 0

    def find_key(self, game_id: str, key: str) -> StoredRecord | None:
        row = Event.objects.filter(game_id=game_id, idempotency_key=key).first()
        return _record(row) if row else None

    def caused_by(self, game_id: str, seq: int) -> list[StoredRecord]:
        return [_record(r) for r in Event.objects.filter(game_id=game_id, cause_seq=seq).order_by("seq")]

    def save_snapshot(self, snapshot: Snapshot) -> None:
        SnapshotRow.objects.get_or_create(
            game_id=snapshot.game_id, seq=snapshot.seq,
            defaults={"ruleset_version": snapshot.ruleset_version, "state": snapshot.state,
                      "state_hash": snapshot.state_hash},
        )

    def latest_snapshot(self, game_id: str, upto: int | None = None) -> Snapshot | None:
        qs = SnapshotRow.objects.filter(game_id=game_id)
        if upto is not None:
            qs = qs.filter(seq__lte=upto)
        row = qs.order_by("-seq").first()
        return self._snap(row) if row else None

    def snapshots(self, game_id: str) -> list[Snapshot]:
        return [self._snap(r) for r in SnapshotRow.objects.filter(game_id=game_id).order_by("seq")]

    def drop_snapshot(self, game_id: str, seq: int) -> None:
        SnapshotRow.objects.filter(game_id=game_id, seq=seq).delete()

    @staticmethod
    def _snap(row: SnapshotRow) -> Snapshot:
        return Snapshot(str(row.game_id), row.seq, row.ruleset_version, row.state, row.state_hash)
