"""A game's statements addressed to its own partition, on a log partitioned by game.

With the log, the snapshots and the due work ``PARTITION BY HASH (game_id)`` (migration
0015), a prepared statement naming ``referee_event`` runs a generic plan that PostgreSQL 15
prunes to the game's partition only once it has locked every partition of every
partitioned table the plan names (17 locks a table, past the backend's 16 fast-path slots),
at every execution; a custom plan locks one but is planned at every call. Named by the
game's own partition (``referee_event_p7``, and the PL/pgSQL reads' per-partition variants
of migration 0018), the statement is planned once per connection and locks that partition
alone. ``route`` rewrites a statement's text so; on plain tables, or when the database's
partitions are not the ones migration 0015 makes, it gives the text back unchanged.

Which partition holds a game is PostgreSQL's own hash of its id (``uuid_hash_extended``
with the hash partitioning seed, ``hash_combine64`` into 0), computed here in Python: it
never changes for a game, so it costs no round trip. A partition given a row of another
game refuses it (its partition constraint), so a wrong computation fails loudly; the tests
check it against PostgreSQL's ``satisfies_hash_partition`` for many ids.
"""

from __future__ import annotations

import re
import struct
import uuid
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

TABLES = ("referee_event", "referee_snapshot", "referee_duework")
#: The PL/pgSQL reads with a variant per partition (migration 0018).
FUNCTIONS = ("referee_log_tail", "referee_pending_due_work")

_NAMES = re.compile(r"\b(?:" + "|".join(TABLES) + r")\b|\b(?:" + "|".join(FUNCTIONS) + r")(?=\()")
_BOUND = re.compile(r"FOR VALUES WITH \(modulus (\d+), remainder (\d+)\)")
_LAYOUT_SQL = (
    "SELECT p.relname::text, c.relname::text, pg_get_expr(c.relpartbound, c.oid) FROM pg_inherits i "
    "JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent "
    "WHERE i.inhparent = ANY(ARRAY[" + ", ".join(f"to_regclass('{t}')" for t in TABLES) + "]) "
    "UNION ALL SELECT 'function', p.proname::text, NULL FROM pg_proc p WHERE p.proname ~ "
    "'^(" + "|".join(FUNCTIONS) + ")_p[0-9]+$'"
)

#: Database name → the modulus its three tables are partitioned by (0: name the tables).
_LAYOUTS: dict[str, int] = {}
#: Game id → PostgreSQL's partitioning hash of it.
_HASHES: dict[str, int] = {}
#: (statement, partition suffix) → the statement naming that partition.
_ROUTED: dict[tuple[str, str], str] = {}
_KEPT = 50_000


def route(text: str, game_id: Any) -> str:
    """``text`` with the partitioned tables and the per-partition functions it names
    replaced by the game's own (``referee_event`` → ``referee_event_p7``); unchanged on plain
    tables. Names already routed are left alone, so a statement built of routed parts can be
    routed again."""
    suffix = suffix_of(game_id)
    if not suffix:
        return text
    key = (text, suffix)
    routed = _ROUTED.get(key)
    if routed is None:
        if len(_ROUTED) > _KEPT:
            _ROUTED.clear()
        routed = _ROUTED[key] = _NAMES.sub(lambda found: found[0] + suffix, text)
    return routed


#: Statements psycopg keeps prepared on a connection (its default), and how many more per
#: partition when they are routed: each of the store's statements is then one per partition
#: (166 texts of 13 statements after orders and storms on 16 partitions), and past the
#: limit psycopg deallocates the oldest, to be prepared and planned again at its next use.
PREPARED = 100
PREPARED_PER_PARTITION = 32


def prepared_max() -> int:
    """How many prepared statements a connection keeps (psycopg's ``prepared_max``)."""
    return PREPARED + PREPARED_PER_PARTITION * int(getattr(settings, "REFEREE_LOG_PARTITIONS", 0) or 0)


def suffix_of(game_id: Any) -> str:
    """``_p<remainder>`` of the game's partition, or "" when statements name the tables."""
    if not getattr(settings, "REFEREE_LOG_PARTITIONS", 0):
        return ""
    # The database's name from the settings (a plain dict): ``connections[alias]`` is a
    # thread-local lookup that cost more than the rest of the routing.
    name = connections.settings[DEFAULT_DB_ALIAS]["NAME"]
    modulus = _LAYOUTS.get(name)
    if modulus is None:
        modulus = _LAYOUTS[name] = _read_layout(connections[DEFAULT_DB_ALIAS])
    if not modulus:
        return ""
    game = game_id if game_id.__class__ is str else str(game_id)
    value = _HASHES.get(game)
    if value is None:
        if len(_HASHES) > _KEPT:
            _HASHES.clear()
        value = _HASHES[game] = partition_hash(uuid.UUID(game))
    return _SUFFIXES[value % modulus] if modulus <= len(_SUFFIXES) else f"_p{value % modulus}"


_SUFFIXES = tuple(f"_p{n}" for n in range(256))


def _read_layout(conn: Any) -> int:
    """The modulus, if each of the three tables is in partitions ``<table>_p0`` ...
    ``_p<modulus - 1>`` by that remainder and each per-partition function is there; else 0.
    Read on the connection itself, outside Django's log of queries: once per process."""
    if conn.vendor != "postgresql":
        return 0
    if conn.connection is None:
        conn.ensure_connection()
    with conn.connection.cursor() as cur:
        cur.execute(_LAYOUT_SQL)
        rows = cur.fetchall()
    return layout_modulus(rows)


def layout_modulus(rows: list[tuple[str, str, str | None]]) -> int:
    """``_read_layout``'s decision from its rows (table, partition, bound; or
    ``"function"``, name, None)."""
    functions = {name for kind, name, _ in rows if kind == "function"}
    found: dict[str, dict[int, str]] = {table: {} for table in TABLES}
    moduli = set()
    for table, name, bound in rows:
        matched = _BOUND.fullmatch(bound or "") if table in found else None
        if matched is None:
            continue
        moduli.add(int(matched[1]))
        found[table][int(matched[2])] = name
    if len(moduli) != 1:
        return 0
    modulus = moduli.pop()
    for table, names in found.items():
        if names != {n: f"{table}_p{n}" for n in range(modulus)}:
            return 0
    if functions != {f"{f}_p{n}" for f in FUNCTIONS for n in range(modulus)}:
        return 0
    return modulus


def forget_layouts() -> None:
    """Read each database's layout again at its next statement (after a migration changed it)."""
    _LAYOUTS.clear()


# PostgreSQL's hash_bytes_extended (src/common/hashfn.c, Bob Jenkins' lookup3) for the 16
# bytes of a uuid on a little-endian server, seeded with HASH_PARTITION_SEED, then
# hash_combine64(0, hash) as compute_partition_hash_value does for a one-column key.
_MASK = 0xFFFFFFFF
_SEED = 0x7A5B22367996DCFD
_COMBINE = 0x49A0F4DD15E5A8E3


def _rot(x: int, k: int) -> int:
    return ((x << k) | (x >> (32 - k))) & _MASK


def _mix(a: int, b: int, c: int) -> tuple[int, int, int]:
    a = ((a - c) & _MASK) ^ _rot(c, 4)
    c = (c + b) & _MASK
    b = ((b - a) & _MASK) ^ _rot(a, 6)
    a = (a + c) & _MASK
    c = ((c - b) & _MASK) ^ _rot(b, 8)
    b = (b + a) & _MASK
    a = ((a - c) & _MASK) ^ _rot(c, 16)
    c = (c + b) & _MASK
    b = ((b - a) & _MASK) ^ _rot(a, 19)
    a = (a + c) & _MASK
    c = ((c - b) & _MASK) ^ _rot(b, 4)
    b = (b + a) & _MASK
    return a, b, c


def _final(a: int, b: int, c: int) -> tuple[int, int]:
    c = ((c ^ b) - _rot(b, 14)) & _MASK
    a = ((a ^ c) - _rot(c, 11)) & _MASK
    b = ((b ^ a) - _rot(a, 25)) & _MASK
    c = ((c ^ b) - _rot(b, 16)) & _MASK
    a = ((a ^ c) - _rot(c, 4)) & _MASK
    b = ((b ^ a) - _rot(a, 14)) & _MASK
    c = ((c ^ b) - _rot(b, 24)) & _MASK
    return b, c


def partition_hash(game: uuid.UUID) -> int:
    """The 64-bit value whose remainder by the modulus is the game's partition."""
    w0, w1, w2, w3 = struct.unpack("<4I", game.bytes)
    a = b = c = (0x9E3779B9 + 16 + 3923095) & _MASK
    a, b, c = _mix((a + (_SEED >> 32)) & _MASK, (b + (_SEED & _MASK)) & _MASK, c)
    a, b, c = _mix((a + w0) & _MASK, (b + w1) & _MASK, (c + w2) & _MASK)
    b, c = _final((a + w3) & _MASK, b, c)
    return (((b << 32) | c) + _COMBINE) & 0xFFFFFFFFFFFFFFFF
