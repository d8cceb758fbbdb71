"""On a log partitioned by game (migration 0015), what lets a statement name the game's own
partition (``referee_event_p7``) rather than the partitioned table.

PostgreSQL 15 locks every partition of a table a generic plan names, each time the plan
runs, though it scans one; named by its partition, a statement plans and locks that one
(``referee/store/partitions.py``). For that:

- each partition's ``id`` takes its number from the partitioned table's identity sequence
  when a row goes in through the partition (PostgreSQL 15 gives a partition no identity of
  its own, so a row inserted there had no id);
- the PL/pgSQL reads that come with a game's lock get a variant per partition, reading
  only it: ``referee_log_tail_pN`` (migration 0017) and ``referee_pending_due_work_pN``
  (migration 0015), N the partition's remainder, the same for the three tables.

Nothing on plain tables, or on SQLite. Migrating back drops them (before 0015 can undo the
partitions).
"""

import importlib
import re

from django.db import migrations

TABLES = ("referee_event", "referee_snapshot", "referee_duework")
_BOUND = re.compile(r"FOR VALUES WITH \(modulus (\d+), remainder (\d+)\)")
_PARTITIONS = ("SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) FROM pg_inherits i "
               "JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = to_regclass(%s)")


def _remainders(cur, table: str) -> list[int]:
    """The remainders of ``table``'s partitions named ``<table>_p<remainder>`` (none if plain)."""
    cur.execute(_PARTITIONS, [table])
    out = []
    for name, bound in cur.fetchall():
        found = _BOUND.fullmatch(bound or "")
        if found and name == f"{table}_p{found[2]}":
            out.append(int(found[2]))
    return sorted(out)


def _tail_function(n: int) -> str:
    create = importlib.import_module("referee.migrations.0017_log_tail_with_the_game_lock").CREATE
    return (create.replace("FUNCTION referee_log_tail(", f"FUNCTION referee_log_tail_p{n}(")
            .replace("FROM referee_snapshot s", f"FROM referee_snapshot_p{n} s")
            .replace("FROM referee_event e", f"FROM referee_event_p{n} e"))


def _pending_function(n: int) -> str:
    create = importlib.import_module("referee.migrations.0015_log_partitions").PARTITIONED_FUNCTIONS[0]
    return (create.replace("FUNCTION referee_pending_due_work(", f"FUNCTION referee_pending_due_work_p{n}(")
            .replace("FROM referee_duework WHERE", f"FROM referee_duework_p{n} WHERE"))


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cur:
        remainders = {table: _remainders(cur, table) for table in TABLES}
        for table, found in remainders.items():
            if not found:
                continue
            cur.execute("SELECT pg_get_serial_sequence(%s, 'id')", [table])
            sequence = cur.fetchone()[0]
            for n in found:
                cur.execute(f'ALTER TABLE "{table}_p{n}" ALTER COLUMN id SET DEFAULT nextval(\'{sequence}\'::regclass)')
        for n in set(remainders["referee_event"]) & set(remainders["referee_snapshot"]):
            cur.execute(_tail_function(n))
        for n in remainders["referee_duework"]:
            cur.execute(_pending_function(n))


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cur:
        for table in TABLES:
            for n in _remainders(cur, table):
                cur.execute(f'ALTER TABLE "{table}_p{n}" ALTER COLUMN id DROP DEFAULT')
        cur.execute("SELECT p.oid::regprocedure::text FROM pg_proc p WHERE p.proname ~ "
                    "'^referee_(log_tail|pending_due_work)_p[0-9]+$'")
        for (function,) in cur.fetchall():
            cur.execute(f"DROP FUNCTION IF EXISTS {function}")


class Migration(migrations.Migration):

    dependencies = [("referee", "0017_log_tail_with_the_game_lock")]

    operations = [migrations.RunPython(forwards, backwards)]
