"""On a log partitioned by game, a game's statements name its own partition
(``referee/store/partitions.py``): the partition computed in Python is PostgreSQL's, a
partition refuses another game's rows and its own are still append-only, and an order locks
one partition of each table, not all of them (PostgreSQL 15 locks every partition a generic
plan names). The checks that need partitions skip on plain tables; ``scripts/test_partitioned.sh``
runs them on 16."""

from __future__ import annotations

import re
import uuid

import pytest
from django.conf import settings
from django.db import DatabaseError, connection, transaction

from referee import services
from referee.core import POSITIONS
from referee.store import partitions
from referee.store import sql as store_sql
from tests.factories import acting_seat, started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

partitioned_only = pytest.mark.skipif(not settings.REFEREE_LOG_PARTITIONS,
                                      reason="the log is in plain tables (scripts/test_partitioned.sh partitions it)")


def test_the_partition_of_a_game_is_the_one_postgresql_puts_its_rows_in_for_any_modulus():
    ids = [uuid.UUID(int=n) for n in range(64)] + [uuid.uuid4() for _ in range(3000)]
    with connection.cursor() as cur:
        cur.execute("CREATE TEMPORARY TABLE routed (game_id uuid) PARTITION BY HASH (game_id)")
        for modulus in (16, 7, 1, 64):
            cur.execute("SELECT count(*) FROM unnest(%s::uuid[], %s::int4[]) AS g(id, remainder) "
                        "WHERE NOT satisfies_hash_partition('routed'::regclass, %s, remainder, id)",
                        [[str(i) for i in ids], [partitions.partition_hash(i) % modulus for i in ids], modulus])
            assert cur.fetchone()[0] == 0, f"modulus {modulus}"


def test_a_statement_is_routed_to_the_partition_of_its_game_by_name_and_only_its_tables():
    text = ("WITH l AS (SELECT 1) SELECT * FROM referee_event e, referee_snapshot, referee_duework_p3, "
            "referee_pending_due_work(l.id), referee_log_tail(l.id, 1), referee_eventual, referee_game")
    suffix = partitions.suffix_of(uuid.UUID(int=5))
    routed = partitions.route(text, str(uuid.UUID(int=5)))
    if not suffix:
        assert routed == text
        return
    assert routed == text.replace("referee_event ", f"referee_event{suffix} ").replace(
        "referee_snapshot,", f"referee_snapshot{suffix},").replace(
        "referee_pending_due_work(", f"referee_pending_due_work{suffix}(").replace(
        "referee_log_tail(", f"referee_log_tail{suffix}(")
    assert partitions.route(routed, str(uuid.UUID(int=5))) == routed


def test_the_layout_is_used_only_when_every_table_and_function_is_in_place():
    rows = [(t, f"{t}_p{n}", f"FOR VALUES WITH (modulus 2, remainder {n})") for t in partitions.TABLES
            for n in range(2)] + [("function", f"{f}_p{n}", None) for f in partitions.FUNCTIONS for n in range(2)]
    assert partitions.layout_modulus(rows) == 2
    assert partitions.layout_modulus(rows[1:]) == 0  # a partition missing
    assert partitions.layout_modulus(rows[:-1]) == 0  # a function missing
    renamed = [("referee_event", "referee_event_other", rows[0][2]), *rows[1:]]
    assert partitions.layout_modulus(renamed) == 0
    assert partitions.layout_modulus([]) == 0


@partitioned_only
def test_the_service_names_the_partitions_on_this_database():
    assert partitions.suffix_of(uuid.uuid4()).startswith("_p")


@partitioned_only
def test_a_partition_refuses_a_record_of_a_game_that_is_not_its_own_and_keeps_its_own_append_only():
    game, _seats = started_game()
    gid = str(game.pk)
    own = partitions.suffix_of(gid)
    other = f"_p{(int(own[2:]) + 1) % settings.REFEREE_LOG_PARTITIONS}"
    columns = ", ".join(name for name, _ in store_sql.EVENT_COLUMNS)
    values = ("%s, 999, 'notice', 'Stray', 1, '{}', 'all', NULL, '[]', 2, 'referee', NULL, NULL, NULL, '[]', "
              "now(), 'x', 'y'")
    with pytest.raises(DatabaseError, match="partition constraint"), transaction.atomic(), connection.cursor() as cur:
        cur.execute(f"INSERT INTO referee_event{other} ({columns}) VALUES ({values})", [gid])
    with transaction.atomic(), connection.cursor() as cur:
        cur.execute(f"INSERT INTO referee_event{own} ({columns}) VALUES ({values}) RETURNING id", [gid])
        assert cur.fetchone()[0] is not None  # numbered by the table's identity
        transaction.set_rollback(True)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cur:
        cur.execute(f"UPDATE referee_event{own} SET type = 'Changed' WHERE game_id = %s", [gid])


def _partitions_locked() -> set[str]:
    with connection.cursor() as cur:
        cur.execute("SELECT c.relname FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
                    "WHERE l.pid = pg_backend_pid() AND c.relkind = 'r'")
        return {name for (name,) in cur.fetchall() if re.fullmatch(r"referee_(event|snapshot|duework)_p\d+", name)}


@partitioned_only
def test_an_order_locks_its_games_partition_of_each_table_and_no_other():
    game, seats = started_game()
    own = partitions.suffix_of(str(game.pk))
    allowed = {f"{table}{own}" for table in partitions.TABLES}
    for command, cached in (("Roll", True), ("Hold", False)):
        if not cached:
            POSITIONS.clear()  # the lock's statement then reads the snapshot and the log's tail
        with transaction.atomic():
            seat = acting_seat(game, seats)
            services.command_handle(game_id=str(game.pk), user=seat.user, command_type=command, payload={})
            locked = _partitions_locked()
        assert locked and locked <= allowed, sorted(locked)


def test_a_connection_keeps_a_prepared_statement_per_partition_it_routes_to():
    """psycopg deallocates the oldest prepared statement past its ``prepared_max`` (100):
    routed, each of the store's statements is one per partition, and a connection that kept
    only 100 planned them again and again (a storm on 16 partitions used 166)."""
    services.referee_get().store.last_seq(str(uuid.uuid4()))
    expected = partitions.PREPARED + partitions.PREPARED_PER_PARTITION * settings.REFEREE_LOG_PARTITIONS
    assert connection.connection.prepared_max == expected
