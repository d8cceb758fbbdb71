"""The log, the snapshots and the due work partitioned by hash of their game, when
``REFEREE_LOG_PARTITIONS`` (the number of partitions) is set before ``migrate``.

Each table is rebuilt as ``PARTITION BY HASH (game_id)`` with N partitions and its rows
copied over; its constraints, indexes and triggers are made again with the names they had
(every key and unique constraint holds the game since migration 0014, as a partitioned table
requires). The append-only row triggers are cloned by PostgreSQL onto every partition; a
statement trigger (the log's refusal of TRUNCATE) is not, so it is made on each partition
too. The service role's grants and revokes cover every partition (``referee/db_roles.py``).
The functions returning due-work rows depend on the table's row type: they are made again,
on partitions in PL/pgSQL. A SQL function's query is planned at every call, and planned
over every partition, since the game is a parameter then (1.6 ms a call against 0.45 on a
plain table, measured on 16 partitions); PL/pgSQL keeps its plan for the session and
prunes to the game's partition (0.47). Both are VOLATILE: each query takes a new snapshot
when it runs, so the reads still see what the game lock's last holder committed.

With 0 (the default) nothing changes; migrating back to 0014 makes plain tables again.
PostgreSQL only: SQLite (the embedded default) is never partitioned.
"""

import importlib
import re

from django.conf import settings
from django.db import migrations

TABLES = ("referee_event", "referee_snapshot", "referee_duework")
#: The functions of migration 0013 whose type is a due-work row.
_ROW_FUNCTIONS = ("referee_pending_due_work(uuid)", "referee_due_row(uuid, varchar, varchar)")


def _partitions() -> int:
    return int(getattr(settings, "REFEREE_LOG_PARTITIONS", 0) or 0)


def _rows(cur, sql: str, params: list) -> list[tuple]:
    cur.execute(sql, params)
    return cur.fetchall()


def relayout(schema_editor, table: str, partitions: int) -> None:
    """Rebuild ``table`` as N hash partitions of its game (0: one plain table)."""
    with schema_editor.connection.cursor() as cur:
        # Foreign keys last: they need the unique keys they point to (none point here).
        constraints = _rows(cur, "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                                 "WHERE conrelid = %s::regclass AND contype <> 'n' AND conparentid = 0 "
                                 "ORDER BY contype = 'f', conname", [table])
        indexes = [r[0] for r in _rows(cur, "SELECT pg_get_indexdef(indexrelid) FROM pg_index i "
                                            "WHERE indrelid = %s::regclass AND NOT EXISTS "
                                            "(SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid "
                                            "AND c.conrelid = i.indrelid)", [table])]
        triggers = _rows(cur, "SELECT tgname, pg_get_triggerdef(oid), (tgtype & 1) = 0 FROM pg_trigger "
                              "WHERE tgrelid = %s::regclass AND NOT tgisinternal AND tgparentid = 0", [table])
        old = f"{table}__plain"
        cur.execute(f'ALTER TABLE "{table}" RENAME TO "{old}"')
        layout = " PARTITION BY HASH (game_id)" if partitions else ""
        cur.execute(f'CREATE TABLE "{table}" (LIKE "{old}" INCLUDING DEFAULTS INCLUDING IDENTITY '
                    f'INCLUDING STORAGE){layout}')
        names = [f"{table}_p{n}" for n in range(partitions)]
        for n, name in enumerate(names):
            cur.execute(f'CREATE TABLE "{name}" PARTITION OF "{table}" '
                        f"FOR VALUES WITH (MODULUS {partitions}, REMAINDER {n})")
        cur.execute(f'INSERT INTO "{table}" SELECT * FROM "{old}"')
        cur.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f'coalesce((SELECT max(id) FROM "{old}"), 0) + 1, false)')
        cur.execute(f'DROP TABLE "{old}"')
        for name, definition in constraints:
            cur.execute(f'ALTER TABLE "{table}" ADD CONSTRAINT "{name}" {definition}')
        for definition in indexes:
            cur.execute(definition)
        for _name, definition, per_statement in triggers:
            cur.execute(definition)
            if per_statement:  # PostgreSQL clones row triggers onto partitions, not these
                for partition in names:
                    cur.execute(re.sub(rf' ON (public\.)?"?{table}"? ', f' ON "{partition}" ', definition, count=1))


#: The same reads as migration 0013's, in PL/pgSQL (for a partitioned due-work table).
PARTITIONED_FUNCTIONS = (
    """
CREATE FUNCTION referee_pending_due_work(game uuid) RETURNS SETOF referee_duework
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    RETURN QUERY SELECT * FROM referee_duework WHERE game_id = game AND status = 'pending';
END
$$
""",
    """
CREATE FUNCTION referee_due_row(game uuid, work_key varchar, work_kind varchar) RETURNS SETOF referee_duework
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    RETURN QUERY SELECT * FROM (SELECT * FROM referee_duework WHERE game_id = game AND key = work_key
                                AND status = 'pending' AND (work_kind = '' OR kind = work_kind) OFFSET 0) AS d
                 ORDER BY due_at, id LIMIT 1;
END
$$
""",
)


def _functions(schema_editor, create: bool, partitioned: bool = False) -> None:
    functions = importlib.import_module("referee.migrations.0013_reads_with_the_game_lock")
    if create:
        statements = PARTITIONED_FUNCTIONS if partitioned else [
            statement for statement in functions.CREATE if "SETOF referee_duework" in statement]
        for statement in statements:
            schema_editor.execute(statement)
    else:
        for function in _ROW_FUNCTIONS:
            schema_editor.execute(f"DROP FUNCTION IF EXISTS {function}")


def _partitioned(schema_editor, table: str) -> bool:
    with schema_editor.connection.cursor() as cur:
        cur.execute("SELECT 1 FROM pg_partitioned_table WHERE partrelid = %s::regclass", [table])
        return cur.fetchone() is not None


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql" or not _partitions():
        return
    _functions(schema_editor, create=False)
    for table in TABLES:
        relayout(schema_editor, table, _partitions())
    _functions(schema_editor, create=True, partitioned=True)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    tables = [t for t in TABLES if _partitioned(schema_editor, t)]
    if tables:
        _functions(schema_editor, create=False)
        for table in tables:
            relayout(schema_editor, table, 0)
        _functions(schema_editor, create=True)


class Migration(migrations.Migration):

    dependencies = [("referee", "0014_game_first_keys")]

    operations = [migrations.RunPython(forwards, backwards)]
