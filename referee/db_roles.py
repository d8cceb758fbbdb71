"""Two database roles on PostgreSQL: migrations run as the role that owns the tables; the
service (web and workers) runs as ``REFEREE_DB_APP_ROLE``, which owns nothing. That role
may read and write the game tables but may only SELECT and INSERT on the event log (and
never UPDATE a snapshot): it cannot alter, disable or drop the append-only trigger, or
change history with it in place, whatever the code does.

The grants are applied after every ``migrate`` (a ``post_migrate`` handler) by the owning
role, so tables added by later migrations are covered too. Nothing happens on SQLite or
when the app role does not exist (a single-role installation keeps working)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import connections

#: What the service may not do to the log and the snapshots (the owner still may), on the
#: table and on each of its partitions when it is partitioned (a partition can be named).
LOG_REVOKES = (
    ("referee_event", "REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON {table} FROM {role}"),
    ("referee_snapshot", "REVOKE UPDATE, TRUNCATE, REFERENCES, TRIGGER ON {table} FROM {role}"),
)
_PARTITIONS = "SELECT inhrelid::regclass::text FROM pg_inherits WHERE inhparent = %s::regclass ORDER BY 1"


def app_role() -> str:
    return getattr(settings, "REFEREE_DB_APP_ROLE", "referee_app")


def grants_apply(using: str = "default") -> bool:
    """Grant the app role what the service needs; True if there was a role to grant to."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return False
    role = app_role()
    with connection.cursor() as cur:
        cur.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role])
        if cur.fetchone() is None:
            return False
        cur.execute("SELECT current_user")
        if cur.fetchone()[0] == role:
            return False  # the service itself cannot grant to itself: nothing to do
        quoted = connection.ops.quote_name(role)
        cur.execute(f"GRANT USAGE ON SCHEMA public TO {quoted}")
        cur.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {quoted}")
        cur.execute(f"GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO {quoted}")
        for table, statement in LOG_REVOKES:
            cur.execute(_PARTITIONS, [table])
            for name in [table, *(row[0] for row in cur.fetchall())]:
                cur.execute(statement.format(table=connection.ops.quote_name(name), role=quoted))
    return True


def after_migrate(sender: Any, using: str = "default", **kwargs: Any) -> None:
    # post_migrate is sent once per app, after every app's migrations ran: act once.
    if getattr(sender, "label", "") == "referee":
        grants_apply(using)
        # A migration may have made or undone the partitions the store's statements name.
        from referee.store import partitions

        partitions.forget_layouts()
