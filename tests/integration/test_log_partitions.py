"""With ``REFEREE_LOG_PARTITIONS`` set, the migrations make the log, the snapshots and the due
work tables partitioned by hash of their game, each partition with the append-only triggers
and the service role's revokes; with 0 they are plain tables. The same suite runs on both
layouts (scripts/test_partitioned.sh runs the store's contracts, whole games and the deadline
storm on 16 partitions)."""

from __future__ import annotations

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from referee.db_roles import app_role, grants_apply

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

TABLES = ("referee_event", "referee_snapshot", "referee_duework")


def _partitions(table: str) -> list[str]:
    with connection.cursor() as cur:
        cur.execute("SELECT inhrelid::regclass::text FROM pg_inherits WHERE inhparent = %s::regclass", [table])
        return [row[0] for row in cur.fetchall()]


def _triggers(table: str) -> set[str]:
    with connection.cursor() as cur:
        cur.execute("SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass AND NOT tgisinternal", [table])
        return {row[0] for row in cur.fetchall()}


def test_the_log_is_partitioned_by_hash_of_its_game_exactly_when_the_setting_says():
    with connection.cursor() as cur:
        cur.execute("SELECT partrelid::regclass::text, partstrat, "
                    "(SELECT attname FROM pg_attribute WHERE attrelid = partrelid AND attnum = partattrs[0]) "
                    "FROM pg_partitioned_table")
        partitioned = {table: (strategy, column) for table, strategy, column in cur.fetchall()}
    if settings.REFEREE_LOG_PARTITIONS:
        assert partitioned == {t: ("h", "game_id") for t in TABLES}
        assert all(len(_partitions(t)) == settings.REFEREE_LOG_PARTITIONS for t in TABLES)
    else:
        assert partitioned == {}


def test_every_partition_refuses_to_change_history():
    for table in ("referee_event", "referee_snapshot"):
        wanted = _triggers(table)
        assert wanted
        for partition in _partitions(table):
            assert _triggers(partition) == wanted, partition


def test_the_service_role_may_not_change_a_partition_of_the_log_by_its_own_name():
    with connection.cursor() as cur:
        cur.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [app_role()])
        if cur.fetchone() is None:
            cur.execute(f"CREATE ROLE {app_role()} LOGIN")
    assert grants_apply()
    s = connection.settings_dict
    with psycopg.connect(host=s["HOST"], port=s["PORT"], dbname=s["NAME"], user=app_role(), autocommit=True) as conn:
        for table, refused in (("referee_event", ("UPDATE", "DELETE", "TRUNCATE")),
                               ("referee_snapshot", ("UPDATE", "TRUNCATE"))):
            for name in [table, *_partitions(table)]:
                for privilege in refused:
                    allowed = conn.execute("SELECT has_table_privilege(%s, %s)", [name, privilege]).fetchone()[0]
                    assert not allowed, (name, privilege)
                assert conn.execute("SELECT has_table_privilege(%s, 'INSERT')", [name]).fetchone()[0]


def test_the_reads_that_come_with_a_games_lock_keep_their_plans_on_a_partitioned_log():
    # A SQL function is planned at every call, over every partition (the game is a
    # parameter); PL/pgSQL keeps a plan for the session that prunes to the game's partition.
    with connection.cursor() as cur:
        cur.execute("SELECT p.proname, l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang "
                    "WHERE p.proname IN ('referee_pending_due_work', 'referee_due_row')")
        languages = dict(cur.fetchall())
    expected = "plpgsql" if settings.REFEREE_LOG_PARTITIONS else "sql"
    assert languages == {"referee_pending_due_work": expected, "referee_due_row": expected}
