"""How the schema is distributed when one PostgreSQL is not enough (Citus), and a check of
the live schema against Citus's rules.

Every table of a game's rows is distributed by its game and co-located with
``referee_game``, so all the statements of an order or a deadline job land on one shard and
its transaction never crosses nodes. Users, leagues, tokens, channels and Django's own
tables are reference tables (a copy on every node). Two per-owner tables are distributed by
their owner in groups of their own: a user's idempotent answers and a channel's deliveries.

``CITUS_CALLS`` is what to run on the coordinator after ``migrate`` (docs/scaling.md), in
this order: a table is distributed or made a reference table only after the tables its
foreign keys point to. ``layout_problems`` reads the catalogue and lists every way the
schema breaks Citus's rules; ``tests/integration/test_citus_layout.py`` asserts there is none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.backends.base.base import BaseDatabaseWrapper

#: Copied to every node; no foreign key from them into a distributed table. In call order.
REFERENCE = (
    "django_content_type", "auth_permission", "auth_group", "auth_group_permissions", "auth_user",
    "auth_user_groups", "auth_user_user_permissions", "django_admin_log", "django_session",
    "django_migrations", "authtoken_token", "referee_league", "referee_leagueentry", "referee_rating",
    "referee_schedulerheartbeat", "notices_channel",
)


@dataclass(frozen=True)
class Distributed:
    table: str
    column: str
    #: The table whose shards these rows sit beside (None: the first of its group).
    colocate_with: str | None


#: In call order: the first of each group, then the tables co-located with it.
DISTRIBUTED = (
    Distributed("referee_game", "id", None),
    Distributed("referee_seat", "game_id", "referee_game"),
    Distributed("referee_event", "game_id", "referee_game"),
    Distributed("referee_snapshot", "game_id", "referee_game"),
    Distributed("referee_duework", "game_id", "referee_game"),
    Distributed("referee_vacation", "game_id", "referee_game"),
    Distributed("referee_invitation", "game_id", "referee_game"),
    Distributed("referee_ratedgame", "game_id", "referee_game"),
    Distributed("referee_ratingchange", "game_id", "referee_game"),
    Distributed("notices_leaguegame", "game_id", "referee_game"),
    Distributed("referee_idempotentrequest", "user_id", None),
    Distributed("notices_delivery", "channel_id", None),
)


def citus_calls() -> list[str]:
    """The statements that distribute the schema, in the order they must run."""
    calls = [f"SELECT create_reference_table('{table}');" for table in REFERENCE]
    for d in DISTRIBUTED:
        colocation = f", colocate_with => '{d.colocate_with}'" if d.colocate_with else ", colocate_with => 'none'"
        calls.append(f"SELECT create_distributed_table('{d.table}', '{d.column}'{colocation});")
    return calls


def _group(table: str) -> str:
    by_table = {d.table: d for d in DISTRIBUTED}
    while by_table[table].colocate_with:
        table = by_table[table].colocate_with  # type: ignore[assignment]
    return table


_TABLES = """
SELECT c.relname FROM pg_class c
WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
"""
# Unique constraints and unique indexes alike (an index with expressions counts only its
# plain columns): the columns each one makes unique, on tables that are not partitions.
_UNIQUES = """
SELECT t.relname, i.relname, array_agg(a.attname::text ORDER BY a.attname)
FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = ANY(x.indkey) AND a.attnum > 0
WHERE x.indisunique AND t.relnamespace = 'public'::regnamespace AND NOT t.relispartition
GROUP BY t.relname, i.relname
"""
_FOREIGN_KEYS = """
SELECT c.conname, t.relname, r.relname,
       ARRAY(SELECT attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, o)
             JOIN pg_attribute ON attrelid = c.conrelid AND attnum = k.n ORDER BY k.o),
       ARRAY(SELECT attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, o)
             JOIN pg_attribute ON attrelid = c.confrelid AND attnum = k.n ORDER BY k.o)
FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
WHERE c.contype = 'f' AND t.relnamespace = 'public'::regnamespace AND NOT t.relispartition
  AND c.conparentid = 0
"""
_NOT_NULL = """
SELECT attnotnull FROM pg_attribute WHERE attrelid = %s::regclass AND attname = %s
"""


def layout_problems(connection: BaseDatabaseWrapper) -> list[str]:
    """Every way the live schema breaks Citus's rules for the layout above (none: it can be
    distributed as docs/scaling.md says). PostgreSQL only."""
    problems: list[str] = []
    distributed = {d.table: d for d in DISTRIBUTED}
    order = {table: n for n, table in enumerate([*REFERENCE, *(d.table for d in DISTRIBUTED)])}
    with connection.cursor() as cur:
        cur.execute(_TABLES)
        tables = {row[0] for row in cur.fetchall()}
        problems += [f"{t}: neither distributed nor a reference table" for t in sorted(tables - set(order))]
        problems += [f"{t}: listed but not in the schema" for t in sorted(set(order) - tables)]
        for d in DISTRIBUTED:
            if d.table in tables:
                cur.execute(_NOT_NULL, [d.table, d.column])
                row = cur.fetchone()
                if row is None or not row[0]:
                    problems.append(f"{d.table}.{d.column}: the distribution column may be null")
        cur.execute(_UNIQUES)
        for table, index, columns in cur.fetchall():
            d = distributed.get(table)
            if d is not None and d.column not in _names(columns):
                problems.append(f"{table}: unique {index} ({', '.join(_names(columns))}) lacks {d.column}")
        cur.execute(_FOREIGN_KEYS)
        for name, table, target, columns, target_columns in cur.fetchall():
            problems += _foreign_key_problems(name, table, target, list(columns), list(target_columns),
                                              distributed, order)
    return problems


def _names(columns: Sequence[str | None]) -> list[str]:
    return [c for c in columns if c is not None]


def _foreign_key_problems(name: str, table: str, target: str, columns: list[str], target_columns: list[str],
                          distributed: dict[str, Distributed], order: dict[str, int]) -> list[str]:
    problems = []
    if table in order and target in order and table != target and order[target] > order[table]:
        problems.append(f"{table}: foreign key {name} points to {target}, which is distributed after it")
    source, dest = distributed.get(table), distributed.get(target)
    if source is None and dest is not None:
        problems.append(f"{table}: reference table with foreign key {name} into distributed {target}")
    elif source is not None and dest is not None:
        if _group(table) != _group(target):
            problems.append(f"{table}: foreign key {name} into {target}, which is not co-located with it")
        elif (source.column, dest.column) not in zip(columns, target_columns, strict=True):
            problems.append(f"{table}: foreign key {name} ({', '.join(columns)}) -> {target} "
                            f"({', '.join(target_columns)}) does not match {source.column} to {dest.column}")
    return problems
