"""The hot statements' plans do not depend on the tables' statistics.

On a table that was never analysed PostgreSQL guesses, and a prepared statement may keep a
generic plan made on a guess: with a redundant one-column ``game_id`` index beside the
unique ``(game_id, seq)`` it picked the one-column index for the append and filtered every
record of the game to find one predecessor. Here every statement an order and a deadline
job send through ``store.sql.run`` or ``count`` is, just before it runs, explained with both a generic
and a custom plan (``EXPLAIN ANALYZE`` in a savepoint rolled back), on a game of a few
thousand records and a thousand finished due-work rows whose tables look never analysed:
each scan of the log and of the due work goes through a composite index and touches a
handful of rows, not the game.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from django.db import connection, transaction

from referee import scheduling, services
from referee.core import POSITIONS
from referee.models import DueWork
from referee.store import sql as store_sql
from referee.store.base import NewRecord, RecordKind
from tests.factories import acting_seat, started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

RECORDS = 3000  # padding records behind the game's head
FINISHED_DUE_ROWS = 5000
#: rows one scan may read (returned, filtered out, rechecked) whatever the game's length
MOST_ROWS_PER_SCAN = 30
HOT_TABLES = ("referee_event", "referee_duework", "referee_snapshot", "referee_seat")
COMPOSITE = {
    "referee_event": {"event_seq_unique", "event_idempotency_key_per_scope"},
    "referee_duework": {"due_work_key_kind_unique", "due_work_game_pending_idx", "referee_duework_pkey"},
    "referee_snapshot": {"snapshot_seq_unique"},
    "referee_seat": {"seat_number_unique", "seat_user_unique"},
}


def _numbered(sql: str, params: Any) -> tuple[str, list[Any]]:
    """``sql`` with psycopg's placeholders as PREPARE's ``$n``, and the values in order."""
    if isinstance(params, dict):
        names: list[str] = []

        def named(m: re.Match[str]) -> str:
            if m.group(1) not in names:
                names.append(m.group(1))
            return f"${names.index(m.group(1)) + 1}"

        return re.sub(r"%\((\w+)\)s", named, sql), [params[n] for n in names]
    parts = sql.split("%s")
    return "".join(p + (f"${i + 1}" if i < len(parts) - 1 else "") for i, p in enumerate(parts)), list(params)


def _nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", ()):
        yield from _nodes(child)


def _explain(sql: str, params: Any, mode: str) -> list[dict[str, Any]]:
    text, values = _numbered(sql, params)
    with transaction.atomic(), connection.cursor() as cur:
        cur.execute(f"SET LOCAL plan_cache_mode = {mode}")
        cur.execute(f"PREPARE hot AS {text}")
        cur.execute("EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE hot(" + ", ".join(["%s"] * len(values)) + ")",
                    [json.dumps(v) if isinstance(v, dict) else v for v in values])
        found = cur.fetchone()[0]
        cur.execute("DEALLOCATE hot")
        transaction.set_rollback(True)  # an explained write is undone; the statement itself runs next
    return list(_nodes((json.loads(found) if isinstance(found, str) else found)[0]["Plan"]))


@pytest.fixture
def explained(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """Every statement sent through ``store.sql.run`` or ``store.sql.count`` while the
    fixture is on, explained just before it runs (the tables then as the statement finds them)."""
    seen: list[tuple[str, str, list[dict[str, Any]]]] = []

    def explaining(send: Any) -> Any:
        def explained_first(sql: str, params: Sequence[Any] = (), **options: Any) -> Any:
            if any(table in sql for table in HOT_TABLES):
                for mode in ("force_generic_plan", "force_custom_plan"):
                    seen.append((sql, mode, _explain(sql, params, mode)))
            return send(sql, params, **options)

        return explained_first

    monkeypatch.setattr(store_sql, "run", explaining(store_sql.run))
    monkeypatch.setattr(store_sql, "count", explaining(store_sql.count))
    return seen


def _never_analysed() -> None:
    """The tables as a fresh database has them: no statistics, no row estimate (undone with
    the test's transaction)."""
    with connection.cursor() as cur:
        cur.execute("SELECT oid FROM pg_class WHERE relname = ANY(%s)", [list(HOT_TABLES)])
        oids = [row[0] for row in cur.fetchall()]
        cur.execute("DELETE FROM pg_statistic WHERE starelid = ANY(%s::oid[])", [oids])
        cur.execute("UPDATE pg_class SET reltuples = -1, relpages = 0 WHERE oid = ANY(%s::oid[])", [oids])


def _long_game() -> tuple[Any, list[Any]]:
    """A Pig game with ``RECORDS`` notices (which change no position) and
    ``FINISHED_DUE_ROWS`` finished due rows behind its head."""
    game, seats = started_game(settings={"target": 1000})
    gid = str(game.pk)
    referee = services.referee_get()
    now = dt.datetime.now(dt.UTC)
    for _ in range(RECORDS // 100):
        referee.store.append(gid, referee.store.last_seq(gid) + 1, [
            NewRecord(kind=RecordKind.NOTICE, type="Padding", payload={"i": i}, actor_kind="referee")
            for i in range(100)
        ], now)
    DueWork.objects.bulk_create([
        DueWork(game=game, key=f"old:{i}", kind="now", status="done", created_at=now, done_at=now, due_at=now)
        for i in range(FINISHED_DUE_ROWS)
    ])
    state, _ = referee.current(gid)  # cached at the head, as in a process that serves the game
    info = referee.store.get_game(gid)
    referee._maybe_snapshot(info, referee.ruleset_for(info), state, referee.store.last_seq(gid))
    _never_analysed()
    return game, seats


def _parents() -> dict[str, str]:
    """Each partition of a partitioned table, and each index of a partition, by the name of
    the table or index it is a partition of (nothing on plain tables)."""
    with connection.cursor() as cur:
        cur.execute("SELECT c.relname, p.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                    "JOIN pg_class p ON p.oid = i.inhparent")
        return dict(cur.fetchall())


def _scans(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The scans of the hot tables, a partition's named as its table's (``Relation Name``,
    ``Index Name``), the partition kept as ``Partition``."""
    parents = _parents()
    found = []
    for node in nodes:
        relation = node.get("Relation Name")
        table = parents.get(relation, relation)
        if table in HOT_TABLES and "Scan" in node["Node Type"]:
            found.append({**node, "Relation Name": table, "Partition": relation,
                          "Index Name": parents.get(node.get("Index Name"), node.get("Index Name"))})
            for child in _nodes(found[-1]):
                if child is not node and "Index Name" in child:
                    child["Index Name"] = parents.get(child["Index Name"], child["Index Name"])
    return found


def _rows(node: dict[str, Any]) -> int:
    per_loop = (node.get("Actual Rows", 0) + node.get("Rows Removed by Filter", 0)
                + node.get("Rows Removed by Index Recheck", 0))
    return per_loop * max(node.get("Actual Loops", 1), 1)


def _check(seen: list[tuple[str, str, list[dict[str, Any]]]]) -> None:
    assert seen, "no statement went through store.sql.run"
    for sql, mode, nodes in seen:
        for scan in _scans(nodes):
            where = (f"{scan['Node Type']} on {scan['Relation Name']} by {scan.get('Index Name')} "
                     f"({scan.get('Index Cond')}; filter {scan.get('Filter')}; {mode}) in: {sql[:160]}")
            if scan["Relation Name"] in ("referee_event", "referee_duework"):
                assert scan["Node Type"] != "Seq Scan", where
                if scan["Node Type"] == "Bitmap Heap Scan":  # its indexes are the Bitmap Index Scans below
                    used = {n["Index Name"] for n in _nodes(scan) if n["Node Type"] == "Bitmap Index Scan"}
                else:
                    used = {scan.get("Index Name")}
                assert used <= COMPOSITE[scan["Relation Name"]], f"{used}: {where}"
            assert _rows(scan) <= MOST_ROWS_PER_SCAN, f"{_rows(scan)} rows: {where}"


def test_an_orders_statements_use_the_composite_indexes_on_a_never_analysed_database(explained):
    game, seats = _long_game()
    explained.clear()
    seat = acting_seat(game, seats)
    for command in ("Roll", "Hold"):
        seat = acting_seat(game, seats)
        services.command_handle(game_id=str(game.pk), user=seat.user, command_type=command, payload={})
        services.game_run_pending(game_id=str(game.pk))
    _check(explained)
    assert any("INSERT INTO referee_event" in sql for sql, _, _ in explained)


def test_a_deadline_jobs_statements_use_the_composite_indexes_on_a_never_analysed_database(explained):
    game, _seats = _long_game()
    row = DueWork.objects.get(game=game, kind="deadline", status="pending")
    POSITIONS.clear()  # a worker new to the game: it reads the latest snapshot and the tail
    explained.clear()
    result = scheduling.due_work_run(game_id=str(game.pk), key=row.key, kind="deadline",
                                     now=row.due_at + dt.timedelta(minutes=1))
    assert result.startswith("referee played"), result
    _check(explained)
    assert any("referee_duework" in sql for sql, _, _ in explained)


def test_an_appends_plan_made_while_the_log_was_small_stays_right_as_the_log_grows():
    """The plan a connection made for the append while the table was small (a fresh
    deployment) is the one it keeps: a generic plan is not made again as the table grows
    (only ``ANALYZE`` or a schema change would). Here the log is a temporary copy of the
    table (same columns and indexes; a temporary table is never analysed), empty when the
    plan is made and 5,000 records long when it is used."""
    game, _seats = started_game(settings={"target": 1000})
    gid = str(game.pk)
    insert, _ = _numbered(store_sql.insert_sql(1, check_predecessor=True), ())
    columns = ", ".join(name for name, _ in store_sql.EVENT_COLUMNS)

    def values(seq: int) -> list[Any]:
        return [gid, seq, "event", "Padding", 1, "{}", "all", None, "[]", 2, "referee", None, None, None, "[]",
                dt.datetime.now(dt.UTC), f"h{seq - 1}", f"h{seq}", gid, seq - 1, f"h{seq - 1}"]

    def execute(cur: Any, seq: int, explain: str = "") -> None:
        cur.execute(f"{explain}EXECUTE append(" + ", ".join(["%s"] * 21) + ")", values(seq))

    with connection.cursor() as cur:
        cur.execute("CREATE TEMPORARY TABLE referee_event (LIKE public.referee_event INCLUDING ALL)")
        cur.execute(f"INSERT INTO pg_temp.referee_event ({columns}) VALUES (%s, 1, 'event', 'Padding', 1, '{{}}', "
                    "'all', NULL, '[]', 2, 'referee', NULL, NULL, NULL, '[]', now(), 'h0', 'h1')", [gid])
        cur.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        cur.execute(f"PREPARE append AS {insert}")
        for seq in range(2, 7):
            execute(cur, seq)
        cur.execute(f"INSERT INTO pg_temp.referee_event ({columns}) SELECT %s, n, 'event', 'Padding', 1, '{{}}', "
                    "'all', NULL, '[]', 2, 'referee', NULL, NULL, NULL, '[]', now(), 'h' || (n - 1), 'h' || n "
                    "FROM generate_series(7, 5006) AS n", [gid])
        execute(cur, 5007, "EXPLAIN (ANALYZE, FORMAT JSON) ")
        found = cur.fetchone()[0]
        cur.execute("DEALLOCATE append")
    nodes = list(_nodes((json.loads(found) if isinstance(found, str) else found)[0]["Plan"]))
    scans = [n for n in nodes if n.get("Relation Name") == "referee_event" and "Scan" in n["Node Type"]]
    assert scans, nodes
    for scan in scans:
        assert _rows(scan) <= MOST_ROWS_PER_SCAN, f"{_rows(scan)} rows by {scan.get('Index Name')}: {scan}"


PARTITIONED = ("referee_event", "referee_duework", "referee_snapshot")


def _partitioned() -> bool:
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM pg_partitioned_table WHERE partrelid = ANY(%s::regclass[])",
                    [list(PARTITIONED)])
        return cur.fetchone()[0] == len(PARTITIONED)


def test_on_a_log_partitioned_by_game_each_statement_reads_one_partition_with_the_plan_it_is_given(explained):
    """On the partitioned layout (``scripts/test_partitioned.sh``) the service's connections
    ask for generic plans (config/settings.py), which PostgreSQL prunes to the game's
    partition when they run: every statement of an order and of a deadline job, generic or
    custom, scans one partition of each table it reads, never the others. On plain tables
    (``make test``'s first run) the connections keep PostgreSQL's own choice of plan and
    every scan reads the table itself. The partition is the game's own, as PostgreSQL placed
    its rows, and the statements name it (``referee/store/partitions.py``), so a generic plan
    locks that partition alone."""
    partitioned = _partitioned()
    with connection.cursor() as cur:
        cur.execute("SHOW plan_cache_mode")
        assert cur.fetchone()[0] == ("force_generic_plan" if partitioned else "auto")
    game, seats = _long_game()
    explained.clear()
    for command in ("Roll", "Hold"):
        seat = acting_seat(game, seats)
        services.command_handle(game_id=str(game.pk), user=seat.user, command_type=command, payload={})
        services.game_run_pending(game_id=str(game.pk))
    row = DueWork.objects.get(game=game, kind="deadline", status="pending")
    scheduling.due_work_run(game_id=str(game.pk), key=row.key, kind="deadline", now=row.due_at + dt.timedelta(minutes=1))
    with connection.cursor() as cur:
        cur.execute("SELECT tableoid::regclass::text FROM referee_event WHERE game_id = %s LIMIT 1", [str(game.pk)])
        own = cur.fetchone()[0].removeprefix("referee_event")
    read = 0
    for sql, mode, nodes in explained:
        partitions: dict[str, set[str]] = {}
        for scan in _scans(nodes):
            if scan["Relation Name"] in PARTITIONED:
                partitions.setdefault(scan["Relation Name"], set()).add(scan["Partition"])
        for table, names in partitions.items():
            if partitioned:
                assert names == {table + own}, f"{table}: {sorted(names)} ({mode}) in: {sql[:160]}"
                assert re.search(rf"\b{table}{own}\b", sql), f"{table}: the game's partition is not named in: {sql[:160]}"
            else:
                assert names == {table}, f"{table}: {sorted(names)} ({mode}) in: {sql[:160]}"
        read += bool(partitions)
    assert read, "no statement read a partition"


def test_the_log_tail_read_with_the_lock_uses_the_composite_indexes_on_a_never_analysed_database():
    """``referee_log_tail`` (migration 0017) runs inside the lock's statement, where an
    EXPLAIN of that statement shows only a function scan: its own queries are explained as
    they run (``auto_explain`` of nested statements, its plans sent to this client), warm
    (the records from a cached head on) and cold (the latest snapshot and the records from it)."""
    game, _seats = _long_game()
    head = services.referee_get().store.last_seq(str(game.pk))
    plans: list[str] = []
    connection.ensure_connection()
    connection.connection.add_notice_handler(lambda notice: plans.append(notice.message_primary or ""))
    seen: list[tuple[str, str, list[dict[str, Any]]]] = []
    with transaction.atomic(), connection.cursor() as cur:
        cur.execute("LOAD 'auto_explain'")
        for setting in ("log_min_duration = 0", "log_nested_statements = on", "log_analyze = on",
                        "log_format = json"):
            cur.execute(f"SET LOCAL auto_explain.{setting}")
        cur.execute("SET LOCAL client_min_messages = log")
        for mode in ("force_generic_plan", "force_custom_plan"):
            cur.execute(f"SET LOCAL plan_cache_mode = {mode}")
            for after in (head, None):
                del plans[:]
                cur.execute("SELECT * FROM referee_log_tail(%s::uuid, %s::int4)", [str(game.pk), after])
                assert cur.fetchall()
                for text in plans:
                    if '"Query Text"' in text:
                        explained = json.loads(text[text.index("{"):])
                        seen.append((explained["Query Text"], mode, list(_nodes(explained["Plan"]))))
    _check(seen)
    assert {"referee_event", "referee_snapshot"} <= {s["Relation Name"] for _, _, nodes in seen for s in _scans(nodes)}
