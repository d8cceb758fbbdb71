"""``referee_pending_due_work(game)``: a game's pending due rows, read with a snapshot of
their own.

An order locks its game and then reads the game's pending due rows. In one statement the
read would use the statement's snapshot, taken before the lock was waited for, and miss
what the lock's previous holder committed meanwhile. A VOLATILE SQL function takes a new
snapshot for its query when it runs, and a lateral call on the locked row runs once the
lock is held: one round trip for both, and the read is as fresh as a second statement's.
PostgreSQL only (the embedded SQLite path reads the rows with the ORM).
"""

from django.db import migrations

CREATE = """
CREATE FUNCTION referee_pending_due_work(game uuid) RETURNS SETOF referee_duework
LANGUAGE sql VOLATILE AS $$
    SELECT * FROM referee_duework WHERE game_id = game AND status = 'pending'
$$
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP FUNCTION IF EXISTS referee_pending_due_work(uuid)")


class Migration(migrations.Migration):

    dependencies = [
        ('referee', '0010_drop_indexes_composites_cover'),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
