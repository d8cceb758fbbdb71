"""On PostgreSQL, refuse UPDATE on snapshots.

A plain UPDATE of a snapshot row once put a weapon in a team's inventory, and the next order
played from it. Snapshots are now written once, like the events. DELETE and TRUNCATE stay
allowed on purpose: a snapshot is a disposable cache of the fold of the log (verify drops one
that disagrees with the log, and a missing one only means a longer fold), so removing one can
never change a game, while changing one in place could. An append + tombstone scheme would
keep the history of dropped caches, which nobody needs. SQLite relies on the code paths: no
code updates a snapshot (they are inserted with ON CONFLICT DO NOTHING, or dropped).
"""

from django.db import migrations

INSTALL = """
CREATE OR REPLACE FUNCTION referee_snapshot_write_once() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'referee_snapshot is append-only: % refused (drop the snapshot instead)', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER referee_snapshot_no_update
    BEFORE UPDATE ON referee_snapshot
    FOR EACH ROW EXECUTE FUNCTION referee_snapshot_write_once();
"""

REMOVE = """
DROP TRIGGER IF EXISTS referee_snapshot_no_update ON referee_snapshot;
DROP FUNCTION IF EXISTS referee_snapshot_write_once();
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(INSTALL, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(REMOVE, params=None)


class Migration(migrations.Migration):
    dependencies = [("referee", "0007_invitation")]
    operations = [migrations.RunPython(install, remove)]
