"""The event store's hot path in plain SQL on PostgreSQL.

Django's ORM costs more CPU per statement than PostgreSQL spends running it (query
compilation, model instances), and its psycopg cursors bind parameters on the client and
never prepare. The few statements of an order run here instead, on Django's own connection
(so they share its transaction and ``atomic`` blocks) through a psycopg cursor that binds on
the server and prepares the statement once per connection. Each one is logged where Django
logs queries, so ``CaptureQueriesContext`` counts them like any other.

Set ``REFEREE_PREPARED_SQL = False`` behind a transaction-pooling PgBouncer older than
1.21 (named prepared statements do not survive a change of server connection there).
"""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from threading import get_ident
from typing import TYPE_CHECKING, Any, cast

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import signals
from django.db.models.base import ModelState
from psycopg import capabilities, pq

from games.record.hashing import compact_encoder
from referee.store.base import key_scope
from referee.store.partitions import prepared_max, route

if TYPE_CHECKING:
    from referee.store.base import Snapshot, StoredRecord

# referee_event's columns as the store writes them, with the casts that let PostgreSQL type
# parameters that psycopg sends untyped (text for JSON, a string for the UUID).
EVENT_COLUMNS: tuple[tuple[str, str], ...] = (
    ("game_id", "uuid"), ("seq", "int4"), ("kind", "varchar"), ("type", "varchar"),
    ("schema_version", "int2"), ("payload", "jsonb"), ("audience_kind", "varchar"),
    ("audience_seat", "int2"), ("audience_seats", "jsonb"), ("record_version", "int2"),
    ("actor_kind", "varchar"), ("actor_seat", "int2"), ("idempotency_key", "varchar"),
    ("cause_seq", "int4"), ("draws", "jsonb"), ("created_at", "timestamptz"),
    ("prev_hash", "varchar"), ("hash", "varchar"),
)
_NAMES = ", ".join(name for name, _ in EVENT_COLUMNS)
_SELECT_ROW = ", ".join(f"%s::{cast}" for _, cast in EVENT_COLUMNS)
# Every column but the game's, from one JSON array of rows (``rest_params`` gives them in this
# order): one parameter that json.dumps writes and PostgreSQL parses, both in C, where one
# array per column cost psycopg's Python array dumpers more than the database spent inserting.
_ROW_COLUMNS = EVENT_COLUMNS[1:]
_FROM_JSON = (", ".join(f"(e->{i})" if cast == "jsonb" else f"(e->>{i})::{cast}"
                        for i, (_, cast) in enumerate(_ROW_COLUMNS))
              + " FROM jsonb_array_elements(%s::jsonb) AS e")

READ_COLUMNS = (
    "seq, kind, type, payload, audience_kind, audience_seat, actor_kind, actor_seat, schema_version, "
    "idempotency_key, cause_seq, draws, created_at, prev_hash, hash, audience_seats, record_version"
)


_TUPLES_OK = pq.ExecStatus.TUPLES_OK


def enabled() -> bool:
    """Whether the default database is PostgreSQL, known per engine: asking the connection
    goes through its thread-local lookup, a tenth of an append's own client time."""
    engine = connections.settings[DEFAULT_DB_ALIAS]["ENGINE"]
    on = _POSTGRES.get(engine)
    if on is None:
        on = _POSTGRES[engine] = connections[DEFAULT_DB_ALIAS].vendor == "postgresql"
    return on


_POSTGRES: dict[str, bool] = {}


#: ``json.dumps(value, separators=(",", ":"))``, with its encoder built once.
dumps: Callable[[Any], str] = compact_encoder(sort_keys=False, ensure_ascii=True)


_scan = json.JSONDecoder().scan_once


def loads(value: Any) -> Any:
    """Django registers a text loader for jsonb on its connections; parse it here.

    ``json.loads``'s own value, read with its C scanner alone: PostgreSQL writes jsonb with
    no white space around it, which ``json.loads`` looks for with two regular expressions
    and more calls than the parse of a small payload costs. Anything else (white space,
    trailing text, bad JSON) goes to ``json.loads``, which gives its value or its error."""
    if value.__class__ is str:
        try:
            parsed, end = _scan(value, 0)
        except StopIteration:
            return json.loads(value)
        return parsed if end == len(value) else json.loads(value)
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def run(sql: str, params: Sequence[Any] | dict[str, Any] = (), *, records: bool = False) -> list[tuple[Any, ...]]:
    """Execute on Django's connection, server-side bound and prepared; rows if any.

    The thread's connection is looked up once (each attribute of ``django.db.connection``
    is a lookup of its own), and the result's rows are fetched only when it has some.
    ``records``: rows of the log, whose times are read as ``_utc_times`` says."""
    return cast("list[tuple[Any, ...]]", _execute(sql, params, records, fetch=True))


def run_together(statements: Sequence[tuple[str, Any]], *, records: bool = False) -> list[list[tuple[Any, ...]]]:
    """Execute several statements in one round trip (psycopg's pipeline mode), each bound on
    the server and prepared as ``run`` prepares it, and return each one's rows. They run in
    order in the caller's transaction; the first that fails raises (the rest do not run),
    and the caller's savepoint or transaction is then to be rolled back. Each is logged where
    Django logs queries, marked with the round trip it shared (``"together"``)."""
    conn, prepare = _connection()
    raw = conn.connection
    started = time.monotonic()
    cursors = _cursors(conn, records, len(statements))
    with conn.wrap_database_errors:
        with raw.pipeline():
            for cur, (text, params) in zip(cursors, statements, strict=True):
                cur.execute(text, params, prepare=prepare or None)
        out = []
        for cur in cursors:
            result = cur.pgresult
            out.append(cur.fetchall() if result is not None and result.status == _TUPLES_OK else [])
    if conn.queries_logged:
        took, trip = f"{time.monotonic() - started:.3f}", id(cursors)
        conn.queries_log.extend({"sql": text, "time": took, "together": trip} for text, _ in statements)
    return out


def count(sql: str, params: Sequence[Any] = ()) -> int:
    """``run`` for a statement whose rows are not wanted, only how many it wrote or gave
    (its command tag): none are loaded into Python."""
    return cast("int", _execute(sql, params, False, fetch=False))


def _connection() -> tuple[Any, bool]:
    """Django's connection for this thread, open and usable, and whether to prepare."""
    conn = connections[DEFAULT_DB_ALIAS]
    if conn.connection is None:
        conn.ensure_connection()
    if conn.needs_rollback:
        conn.validate_no_broken_transaction()
    prepare = _prepare()
    if prepare and conn.connection.prepare_threshold is None:
        # Django turns psycopg's preparation off (threshold None), which also ignores an
        # explicit prepare=True. A threshold no statement reaches turns it back on for
        # these statements only: Django's own cursors bind on the client and never prepare.
        conn.connection.prepare_threshold = 2**31 - 1
        conn.connection.prepared_max = prepared_max()
    return conn, prepare


def _execute(sql: str, params: Sequence[Any] | dict[str, Any], records: bool, *, fetch: bool) -> list[tuple[Any, ...]] | int:
    conn, prepare = _connection()
    cur = _cursor(conn, records)
    logged = conn.queries_logged
    started = time.monotonic() if logged else 0.0
    with conn.wrap_database_errors:
        cur.execute(sql, params, prepare=prepare)
        if fetch:
            result = cur.pgresult
            out: list[tuple[Any, ...]] | int = (
                cur.fetchall() if result is not None and result.status == _TUPLES_OK else [])
            if len(out) > _KEPT_ROWS:
                _drop_cursor(conn, records)
        else:
            out = cur.rowcount
    if logged:
        conn.queries_log.append({"sql": sql, "time": f"{time.monotonic() - started:.3f}"})
    return out


#: A kept cursor holds its last result (libpq's copy of the rows) until its next statement:
#: one that read more rows than this is let go instead.
_KEPT_ROWS = 100


def _cursor(conn: Any, records: bool) -> psycopg.Cursor[Any]:
    """A cursor of the connection's, kept on Django's wrapper between statements (one for
    rows of the log, one for the rest). A new cursor per statement built its adapters anew
    and looked up the dumper of every parameter's type again, which cost an append more
    client time than its parameters' encoding."""
    raw, thread = conn.connection, get_ident()
    kept = conn.__dict__.get("_referee_cursors")
    # Per thread too: a connection shared between threads must not share a result.
    if kept is None or kept[0] is not raw or kept[1] != thread:
        kept = conn.__dict__["_referee_cursors"] = [raw, thread, None, None]
    cur = kept[2 + records]
    if cur is None:
        cur = kept[2 + records] = psycopg.Cursor(raw)
        if records:
            _utc_times(cur)
    return cur


def _cursors(conn: Any, records: bool, count: int) -> list[psycopg.Cursor[Any]]:
    """``count`` cursors of the connection's for statements sent together (one per result),
    kept between calls as ``_cursor`` keeps its one: a new cursor set up its loaders anew
    for every column of its result, a tenth of a millisecond a statement."""
    raw, thread = conn.connection, get_ident()
    kept = conn.__dict__.get("_referee_together")
    if kept is None or kept[0] is not raw or kept[1] != thread:
        kept = conn.__dict__["_referee_together"] = [raw, thread, [], []]
    pool: list[psycopg.Cursor[Any]] = kept[2 + records]
    while len(pool) < count:
        cur = psycopg.Cursor(raw)
        if records:
            _utc_times(cur)
        pool.append(cur)
    return pool[:count]


def _drop_cursor(conn: Any, records: bool) -> None:
    kept = conn.__dict__["_referee_cursors"]
    kept[2 + records].close()
    kept[2 + records] = None


_TIMESTAMPTZ = psycopg.adapters.types["timestamptz"].oid
#: psycopg's own loader (in C with psycopg's binary build), from its default adapters.
_TZ_LOADER = psycopg.adapters.get_loader(_TIMESTAMPTZ, pq.Format.TEXT)


def _utc_times(cur: psycopg.Cursor[Any]) -> None:
    """Read timestamps with psycopg's own loader rather than Django's, which parses them in
    Python (a tenth of a millisecond per ten records read back, the most of any column) to
    give them its time zone. With the session in UTC, as Django keeps it (``USE_TZ``), both
    give the same aware UTC datetimes; in any other zone Django's loader is kept."""
    if cur.connection.info.timezone is dt.UTC:
        cur.adapters.register_loader(_TIMESTAMPTZ, _TZ_LOADER)


#: Rows per chunk of a streamed read: large enough that the per-chunk cost vanishes, small
#: enough that a chunk's rows are a bounded amount of memory however long the log.
STREAM_CHUNK = 1_000


def stream(sql: str, params: Sequence[Any] = ()) -> Iterator[tuple[Any, ...]]:
    """Execute on Django's connection and yield the rows as they arrive, a chunk at a time
    (libpq's chunked-rows mode, or row by row on an older libpq): one round trip, and never
    the whole result in memory, neither Python's nor libpq's. The connection runs nothing
    else until the iterator is exhausted or closed. Not prepared: it runs once per replay."""
    conn = connections[DEFAULT_DB_ALIAS]
    if conn.connection is None:
        conn.ensure_connection()
    if conn.needs_rollback:
        conn.validate_no_broken_transaction()
    size = STREAM_CHUNK if capabilities.has_stream_chunked() else 1
    if conn.queries_logged:
        conn.queries_log.append({"sql": sql, "time": "0.000"})
    with conn.wrap_database_errors, psycopg.Cursor(conn.connection) as cur:
        yield from cur.stream(sql, params, size=size)


def _prepare() -> bool:
    return bool(getattr(settings, "REFEREE_PREPARED_SQL", True))


def array(values: Sequence[int | str]) -> str:
    """An array parameter as PostgreSQL's array literal (for a ``%s::int8[]`` or
    ``%s::varchar[]``), sent as text: psycopg's Python array dumper cost a deadline job more
    client time (about 0.05 ms an array) than its statement's parse of the literal."""
    return "{" + ",".join(str(v) if v.__class__ is int else
                          '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"' for v in values) + "}"


def rest_params(game_id: str, rows: Sequence[Sequence[Any]]) -> list[Any]:
    """The parameters of the ``rest`` insert: the game, then the rows (every column but the
    game's, JSON columns as values, times as ISO 8601) as one JSON array."""
    return [game_id, dumps(rows)]


#: ``store.base.key_scope`` in SQL: the same expression as the unique index of keys.
KEY_SCOPE = "(CASE WHEN actor_kind = 'player' AND actor_seat IS NOT NULL THEN actor_seat ELSE -1 END)"


def insert_sql(count: int, check_predecessor: bool, snapshot: bool = False, later_keys: bool = False, *,
               rows: bool = False) -> str:
    """One statement that writes ``count`` records or none (``_insert_sql``): its text is
    the same for any count above one, and is built once. ``rows``: in the form that gives
    a row per record written even for one record (the held records' CTEs need it)."""
    return _insert_sql(count > 1, check_predecessor, snapshot, later_keys, rows)


@cache
def _insert_sql(many: bool, check_predecessor: bool, snapshot: bool, later_keys: bool, rows: bool = False) -> str:
    """One statement that writes ``count`` records or none.

    The first record is inserted ``ON CONFLICT DO NOTHING`` (taken seq, or a used
    idempotency key: a lost race) and only if its predecessor is there with the hash the
    caller chained to; the others only if the first went in. A lost race therefore writes
    nothing and raises nothing, so the caller's transaction stays usable for a retry without
    a savepoint; the unique (game, seq) is still what refuses it. A snapshot of the position
    after the records goes in with them (and only with them). Gives one row per record
    written (a single record without a snapshot is a plain INSERT, which gives none: count
    it by its command tag, ``count``)."""
    conditions = []
    if check_predecessor:
        conditions.append("EXISTS (SELECT 1 FROM referee_event WHERE game_id = %s::uuid AND seq = %s::int4"
                          " AND hash = %s::varchar)")
    if later_keys:  # a key on a later record (an order after a notice) is checked here, not by a conflict
        conditions.append("NOT EXISTS (SELECT 1 FROM referee_event WHERE game_id = %s::uuid"
                          f" AND (idempotency_key, {KEY_SCOPE}) IN"
                          " (SELECT * FROM unnest(%s::varchar[], %s::int4[])))")
    guard = (" WHERE " + " AND ".join(conditions)) if conditions else ""
    if not many and not snapshot and not rows:
        # One record: a plain INSERT (its command tag says whether it went in).
        return f"INSERT INTO referee_event ({_NAMES}) SELECT {_SELECT_ROW}{guard} ON CONFLICT DO NOTHING"
    ctes = [f"first AS (INSERT INTO referee_event ({_NAMES}) SELECT {_SELECT_ROW}{guard} "
            "ON CONFLICT DO NOTHING RETURNING seq)"]
    result = "SELECT seq FROM first"
    if many:
        # The other records as one JSON array (the statement's text, and so its prepared
        # plan, is the same for any number of records; binding is one string).
        ctes.append(f"rest AS (INSERT INTO referee_event ({_NAMES}) SELECT %s::uuid, {_FROM_JSON} "
                    "WHERE EXISTS (SELECT 1 FROM first) RETURNING seq)")
        result += " UNION ALL SELECT seq FROM rest"
    if snapshot:
        ctes.append("snap AS (INSERT INTO referee_snapshot (game_id, seq, ruleset_version, state, state_hash, "
                    "created_at) SELECT %s::uuid, %s::int4, %s::varchar, %s::jsonb, %s::varchar, now() "
                    "WHERE EXISTS (SELECT 1 FROM first) ON CONFLICT DO NOTHING)")
    return f"WITH {', '.join(ctes)} {result}"


def insert_statement(game_id: str, expected_seq: int, prev_hash: str, stored: Sequence[StoredRecord],
                     snapshot: Snapshot | None, *, rows: bool = False) -> tuple[str, list[Any]]:
    """``insert_sql`` for records already numbered, chained and hashed, with its parameters."""
    r = stored[0]
    params: list[Any] = [
        game_id, r.seq, str(r.kind), r.type, r.schema_version, dumps(r.payload), r.audience_kind,
        r.audience_seat, dumps(r.audience_seats) if r.audience_seats else "[]", r.record_version, r.actor_kind,
        r.actor_seat, r.idempotency_key, r.cause_seq, dumps(r.draws) if r.draws else "[]", r.created_at,
        r.prev_hash, r.hash,
    ]
    if expected_seq > 1:
        params += (game_id, expected_seq - 1, prev_hash)
    later = [(r.idempotency_key, key_scope(r.actor_kind, r.actor_seat)) for r in stored[1:] if r.idempotency_key]
    if later:
        params += (game_id, array([k for k, _ in later]), array([scope for _, scope in later]))
    if len(stored) > 1:
        params += rest_params(game_id, [
            (r.seq, str(r.kind), r.type, r.schema_version, r.payload, r.audience_kind, r.audience_seat,
             list(r.audience_seats), r.record_version, r.actor_kind, r.actor_seat, r.idempotency_key,
             r.cause_seq, list(r.draws), r.created_at.isoformat(), r.prev_hash, r.hash)
            for r in stored[1:]
        ])
    if snapshot is not None:
        params += (snapshot.game_id, snapshot.seq, snapshot.ruleset_version, dumps(snapshot.state),
                   snapshot.state_hash)
    text = insert_sql(len(stored), expected_seq > 1, snapshot is not None, bool(later), rows=rows)
    return route(text, game_id), params


@dataclass(frozen=True)
class HeldInsert:
    """Held records as CTEs for another statement: ``ctes`` (named parameters ``params``)
    and ``written``, a SELECT of one row per record that went in."""

    ctes: str
    params: dict[str, Any]
    written: str
    count: int
    first_seq: int


def held_insert(game_id: str, expected_seq: int, prev_hash: str, stored: Sequence[StoredRecord],
                snapshot: Snapshot | None) -> HeldInsert:
    """``insert_statement`` as CTEs with named parameters (``ev0``, ``ev1`` ...), to go in
    front of a statement with named parameters of its own."""
    text, values = insert_statement(game_id, expected_seq, prev_hash, stored, snapshot, rows=True)
    pieces = text.removeprefix("WITH ").split("%s")
    named = pieces[0] + "".join(f"%(ev{i})s{piece}" for i, piece in enumerate(pieces[1:]))
    ctes, _, written = named.partition(" SELECT seq FROM first")
    return HeldInsert(ctes, {f"ev{i}": v for i, v in enumerate(values)}, "SELECT seq FROM first" + written,
                      len(stored), expected_seq)


# The latest snapshot (at or before ``upto``) and every record from its seq on, in one round
# trip: the snapshot's own record comes along because it carries the hash of the head when
# nothing follows it. Part 0 is the snapshot (seq, ruleset version in ``type``, state in
# ``payload``, its hash in ``hash``), part 1 the records.
LOAD_SQL = f"""
WITH snap AS (
    SELECT seq, ruleset_version, state, state_hash FROM referee_snapshot
    WHERE game_id = %(game)s::uuid AND seq <= %(upto)s::int4 ORDER BY seq DESC LIMIT 1
)
SELECT 1 AS part, {READ_COLUMNS} FROM referee_event
WHERE game_id = %(game)s::uuid AND seq >= COALESCE((SELECT seq FROM snap), 0) AND seq <= %(upto)s::int4
UNION ALL
SELECT 0, seq, NULL, ruleset_version, state, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
       state_hash, NULL, NULL FROM snap
ORDER BY part, seq
"""


def columns(model: Any, alias: str = "") -> str:
    """The model's concrete columns, for a SELECT whose rows ``instances`` turns into models."""
    prefix = f"{alias}." if alias else ""
    return ", ".join(f'{prefix}"{f.column}"' for f in model._meta.concrete_fields)


def instances(model: Any, rows: Sequence[Sequence[Any]]) -> list[Any]:
    """Model instances from rows of ``columns(model)`` (as the ORM would load them: JSON
    fields parsed, the instance marked as loaded from the database)."""
    fields = model._meta.concrete_fields
    names = [f.attname for f in fields]
    json_at = [i for i, f in enumerate(fields) if f.get_internal_type() == "JSONField"]
    # What ``Model.__init__`` leaves with every field given by position, without its walk over
    # the fields: the same attributes and state, where no pre_init or post_init receiver
    # would miss it (the lock's rows are an order's most built instances).
    direct = not (signals.pre_init.has_listeners(model) or signals.post_init.has_listeners(model))
    alias = connection.alias
    out = []
    for row in rows:
        values = list(row)
        for i in json_at:
            if values[i] is not None:
                values[i] = loads(values[i])
        if not direct:
            out.append(model.from_db(alias, names, values))
            continue
        instance = model.__new__(model)
        state = instance._state = ModelState()
        state.adding, state.db = False, alias
        instance.__dict__.update(zip(names, values, strict=True))
        out.append(instance)
    return out
