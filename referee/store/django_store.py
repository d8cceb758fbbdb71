"""The event store on the Django ORM (PostgreSQL in production, SQLite embedded)."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Generator, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from referee.errors import ConcurrencyError, GameNotFound
from referee.models import Event, Game
from referee.models import Snapshot as SnapshotRow
from referee.store import sql
from referee.store.base import (
    EventStore,
    GameInfo,
    LoadedTail,
    LoggedEvent,
    NewRecord,
    RecordKind,
    Snapshot,
    StoredRecord,
    TransactionSpoilt,
    key_scope,
    stamp,
    stored_record,
)
from referee.store.hashing import GENESIS
from referee.store.held import HeldAppends
from referee.store.partitions import route

MAX_SEQ = 2**31 - 1

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


def _raw_record(game: str, row: Sequence[object]) -> StoredRecord:
    """A record from a row of ``sql.READ_COLUMNS``."""
    (seq, kind, type_, payload, audience_kind, audience_seat, actor_kind, actor_seat, schema_version,
     key, cause_seq, draws, created_at, prev_hash, hash_, audience_seats, record_version) = row
    # Most records drew no dice and are for everyone: "[]" needs no parser.
    return stored_record(
        game_id=game, seq=seq, kind=_KINDS[kind], type=type_, payload=sql.loads(payload),
        audience_kind=audience_kind, audience_seat=audience_seat, actor_kind=actor_kind, actor_seat=actor_seat,
        schema_version=schema_version, idempotency_key=key, cause_seq=cause_seq,
        draws=() if draws == "[]" else tuple(sql.loads(draws)),
        created_at=created_at, prev_hash=prev_hash, hash=hash_,
        audience_seats=() if audience_seats is None or audience_seats == "[]" else tuple(sql.loads(audience_seats) or ()),
        record_version=record_version or 1,
    )


_KINDS = {str(k): k for k in RecordKind}


def loaded_tail(game: str, rows: Iterable[Sequence[Any]], start: int = 0) -> LoadedTail:
    """The snapshot and records of rows shaped as ``sql.LOAD_SQL`` gives them (a part, 0
    for the snapshot and 1 for a record, then ``sql.READ_COLUMNS``), from column ``start``."""
    snapshot, records = None, []
    for whole in rows:
        part, row = whole[start], whole[start + 1:]
        if part == 0:
            snapshot = Snapshot(game, row[0], row[2], sql.loads(row[3]), row[14])
        else:
            records.append(_raw_record(game, row))
    return LoadedTail(snapshot, records)


_GAME_SQL = ("SELECT ruleset, ruleset_version, settings, seed, status, frozen_reason, private_log "
             "FROM referee_game WHERE id = %s::uuid")
_HASH_SQL = "SELECT hash FROM referee_event WHERE game_id = %s::uuid AND seq = %s::int4"
_LAST_SQL = "SELECT seq FROM referee_event WHERE game_id = %s::uuid ORDER BY seq DESC LIMIT 1"
_READ_SQL = (f"SELECT {sql.READ_COLUMNS} FROM referee_event WHERE game_id = %s::uuid AND seq > %s::int4 "
             "AND seq <= %s::int4 ORDER BY seq")
_EVENTS_SQL = ("SELECT seq, type, payload, schema_version FROM referee_event WHERE game_id = %s::uuid "
               "AND seq > %s::int4 AND seq <= %s::int4 AND kind = 'event' ORDER BY seq")
_KEY_SQL = (f"SELECT {sql.READ_COLUMNS} FROM referee_event WHERE game_id = %s::uuid "
            f"AND idempotency_key = %s::varchar AND {sql.KEY_SCOPE} = %s::int4")
_SNAPSHOT_SQL = ("INSERT INTO referee_snapshot (game_id, seq, ruleset_version, state, state_hash, created_at) "
                 "VALUES (%s::uuid, %s::int4, %s::varchar, %s::jsonb, %s::varchar, now()) ON CONFLICT DO NOTHING")


_HELD = HeldAppends()


class DjangoEventStore(EventStore):
    @contextmanager
    def holding(self, game_id: str) -> Iterator[None]:
        """Hold the game's appends until the block ends, then write them in one statement
        (``referee.store.held``); an exception drops them (the caller's transaction rolls
        back). Reads of the game's log meanwhile write them first. PostgreSQL only."""
        game = str(game_id)
        if not sql.enabled() or game in _HELD.games:
            yield
            return
        _HELD.games[game] = None
        try:
            yield
            self._settle(game)
        finally:
            _HELD.games.pop(game, None)

    def take_held(self, game_id: str) -> sql.HeldInsert | None:
        """The game's held records as the CTEs of a statement the caller sends (named
        parameters), no longer held: the caller checks that every record went in."""
        held = _HELD.take(str(game_id)) if _HELD.games else None
        if not held:
            return None
        return sql.held_insert(str(game_id), held.first_seq, held.prev_hash, held.records, held.snapshot)

    def _settle(self, game_id: str) -> None:
        """Write what is held for the game, if anything. A held append that no longer fits
        the log (a writer that did not take the game's lock) spoils the unit: its caller
        runs it again without holding."""
        if not _HELD.games:
            return
        held = _HELD.take(str(game_id))
        if held is not None:
            try:
                self._write(str(game_id), held.first_seq, held.prev_hash, held.records, held.snapshot)
            except ConcurrencyError:
                raise TransactionSpoilt("The game moved on while its held records waited.",
                                        expected=held.first_seq) from None

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
        if sql.enabled():
            try:
                uuid.UUID(str(game_id))
            except ValueError:
                raise GameNotFound("There is no such game.", game=str(game_id)) from None
            rows = sql.run(_GAME_SQL, (str(game_id),))
            if not rows:
                raise GameNotFound("There is no such game.", game=str(game_id))
            ruleset, version, settings, seed, status, frozen, private = rows[0]
            return GameInfo(id=str(game_id), ruleset=ruleset, ruleset_version=version, settings=sql.loads(settings),
                            seed=seed, status=status, frozen_reason=frozen, private_log=private)
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

    def append(
        self, game_id: str, expected_seq: int, records: Sequence[NewRecord], now: dt.datetime,
        prev_hash: str | None = None, snapshot: Snapshot | None = None,
    ) -> list[StoredRecord]:
        self._settle(game_id)
        if not records:
            return []
        if sql.enabled():
            return self._append_sql(str(game_id), expected_seq, records, now, prev_hash, snapshot)
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
                if prev_hash is not None and prev_hash != prev:
                    raise ConcurrencyError("The log is not where the order expected it.", expected=expected_seq)
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
                if snapshot is not None:
                    self.save_snapshot(snapshot)
                return stored
        except IntegrityError:
            raise ConcurrencyError(
                "The game moved on while this order was being decided.", expected=expected_seq
            ) from None

    def append_at_tail(
        self, game_id: str, expected_seq: int, records: Sequence[NewRecord], now: dt.datetime, *,
        prev_hash: str, snapshot: Snapshot | None = None,
    ) -> list[StoredRecord]:
        game = str(game_id)
        if game in _HELD.games and records:
            if not _HELD.follows(game, expected_seq, prev_hash, snapshot):
                self._settle(game)
            stored = stamp(game, expected_seq, GENESIS if expected_seq == 1 else prev_hash, records, now)
            _HELD.hold(game, expected_seq, GENESIS if expected_seq == 1 else prev_hash, stored, snapshot)
            return stored
        return self.append(game_id, expected_seq, records, now, prev_hash=prev_hash, snapshot=snapshot)

    def _append_sql(
        self, game_id: str, expected_seq: int, records: Sequence[NewRecord], now: dt.datetime, prev_hash: str | None,
        snapshot: Snapshot | None,
    ) -> list[StoredRecord]:
        """One INSERT statement (see ``sql.insert_sql``). With ``prev_hash`` given (the
        referee has just read the tail) the predecessor is checked inside that statement;
        without it, it is read first."""
        if expected_seq == 1:
            prev_hash = GENESIS
        elif prev_hash is None:
            found = sql.run(route(_HASH_SQL, game_id), (game_id, expected_seq - 1))
            if not found:
                raise ConcurrencyError("The order expected a log position that does not exist yet.",
                                       expected=expected_seq)
            prev_hash = found[0][0]
        return self._write(game_id, expected_seq, prev_hash, stamp(game_id, expected_seq, prev_hash, records, now),
                           snapshot)

    def _write(self, game_id: str, expected_seq: int, prev_hash: str, stored: Sequence[StoredRecord],
               snapshot: Snapshot | None) -> list[StoredRecord]:
        """Write records already numbered, chained and hashed after ``prev_hash``: one INSERT
        (``sql.insert_sql``), all of them or none."""
        statement, params = sql.insert_statement(game_id, expected_seq, prev_hash, stored, snapshot)
        try:
            written = sql.count(statement, params)
        except IntegrityError:
            # Only a writer that skipped the referee's checks gets here (a conflict after the
            # first record went in): the transaction is spoilt, so it must not be retried in it.
            if transaction.get_connection().in_atomic_block:
                transaction.set_rollback(True)
            raise TransactionSpoilt("The game moved on while this order was being decided.",
                                    expected=expected_seq) from None
        if written != len(stored):
            raise ConcurrencyError("The game moved on while this order was being decided.", expected=expected_seq)
        return list(stored)

    def load(self, game_id: str, upto: int | None = None) -> LoadedTail:
        self._settle(game_id)
        if not sql.enabled():
            return super().load(game_id, upto)
        game = str(game_id)
        return loaded_tail(game, sql.run(route(sql.LOAD_SQL, game), {"game": game, "upto": MAX_SEQ if upto is None else upto},
                                         records=True))

    def load_many(self, games: Sequence[tuple[str, int | None]]) -> dict[str, LoadedTail]:
        """``EventStore.load_many`` in one round trip: each game's ``load`` (or ``read``
        after its ``after``) sent together (``sql.run_together``), each statement the
        prepared one it is alone and naming its one game. Games whose appends are held are
        written first, as for ``load``."""
        if not sql.enabled() or not games:
            return super().load_many(games)
        for game_id, _ in games:
            self._settle(game_id)
        ids = [str(game_id) for game_id, _ in games]
        statements = [(route(sql.LOAD_SQL, game), {"game": game, "upto": MAX_SEQ}) if after is None
                      else (route(_READ_SQL, game), (game, after, MAX_SEQ)) for game, (_, after) in zip(ids, games, strict=True)]
        out = {}
        for (game, (_, after)), rows in zip(zip(ids, games, strict=True), sql.run_together(statements, records=True),
                                             strict=True):
            if after is not None:
                out[game] = LoadedTail(None, [_raw_record(game, row) for row in rows])
                continue
            snapshot, records = None, []
            for part, *row in rows:
                if part == 0:
                    snapshot = Snapshot(game, row[0], row[2], sql.loads(row[3]), row[14])
                else:
                    records.append(_raw_record(game, row))
            out[game] = LoadedTail(snapshot, records)
        return out

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[StoredRecord]:
        self._settle(game_id)
        if sql.enabled():
            game = str(game_id)
            rows = sql.run(route(_READ_SQL, game), (game, after, MAX_SEQ if upto is None else upto), records=True)
            return [_raw_record(game, row) for row in rows]
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

    def read_events(self, game_id: str, after: int = 0, upto: int | None = None) -> list[LoggedEvent]:
        self._settle(game_id)
        if sql.enabled():
            loads = sql.loads
            rows = sql.run(route(_EVENTS_SQL, game_id), (str(game_id), after, MAX_SEQ if upto is None else upto))
            return [(seq, type_, loads(payload), version) for seq, type_, payload, version in rows]
        qs = Event.objects.filter(game_id=game_id, seq__gt=after, kind=str(RecordKind.EVENT))
        if upto is not None:
            qs = qs.filter(seq__lte=upto)
        return list(qs.order_by("seq").values_list("seq", "type", "payload", "schema_version"))

    def iter_events(
        self, game_id: str, after: int = 0, upto: int | None = None
    ) -> Generator[LoggedEvent, None, None]:
        self._settle(game_id)
        params = (str(game_id), after, MAX_SEQ if upto is None else upto)
        if not sql.enabled():
            yield from self.read_events(game_id, after=after, upto=upto)
            return
        loads = sql.loads
        for seq, type_, payload, version in sql.stream(route(_EVENTS_SQL, game_id), params):
            yield seq, type_, loads(payload), version

    def last_seq(self, game_id: str) -> int:
        self._settle(game_id)
        if sql.enabled():
            rows = sql.run(route(_LAST_SQL, game_id), (str(game_id),))
            return rows[0][0] if rows else 0
        row = Event.objects.filter(game_id=game_id).order_by("-seq").values_list("seq", flat=True).first()
        return row or 0

    def find_key(self, game_id: str, key: str, *, actor_kind: str, actor_seat: int | None) -> StoredRecord | None:
        self._settle(game_id)
        scope = key_scope(actor_kind, actor_seat)
        if sql.enabled():
            rows = sql.run(route(_KEY_SQL, game_id), (str(game_id), key, scope), records=True)
            return _raw_record(str(game_id), rows[0]) if rows else None
        rows = Event.objects.filter(game_id=game_id, idempotency_key=key)
        return next((_record(r) for r in rows if key_scope(r.actor_kind, r.actor_seat) == scope), None)

    def caused_by(self, game_id: str, seq: int) -> list[StoredRecord]:
        self._settle(game_id)
        return [_record(r) for r in Event.objects.filter(game_id=game_id, cause_seq=seq).order_by("seq")]

    def save_snapshot(self, snapshot: Snapshot) -> None:
        self._settle(snapshot.game_id)
        if sql.enabled():
            sql.run(route(_SNAPSHOT_SQL, snapshot.game_id), (snapshot.game_id, snapshot.seq, snapshot.ruleset_version,
                                    sql.dumps(snapshot.state), snapshot.state_hash))
            return
        SnapshotRow.objects.get_or_create(
            game_id=snapshot.game_id, seq=snapshot.seq,
            defaults={"ruleset_version": snapshot.ruleset_version, "state": snapshot.state,
                      "state_hash": snapshot.state_hash},
        )

    def latest_snapshot(self, game_id: str, upto: int | None = None) -> Snapshot | None:
        self._settle(game_id)
        qs = SnapshotRow.objects.filter(game_id=game_id)
        if upto is not None:
            qs = qs.filter(seq__lte=upto)
        row = qs.order_by("-seq").first()
        return self._snap(row) if row else None

    def snapshots(self, game_id: str) -> list[Snapshot]:
        self._settle(game_id)
        return [self._snap(r) for r in SnapshotRow.objects.filter(game_id=game_id).order_by("seq")]

    def drop_snapshot(self, game_id: str, seq: int) -> None:
        self._settle(game_id)
        SnapshotRow.objects.filter(game_id=game_id, seq=seq).delete()

    @staticmethod
    def _snap(row: SnapshotRow) -> Snapshot:
        return Snapshot(str(row.game_id), row.seq, row.ruleset_version, row.state, row.state_hash)
