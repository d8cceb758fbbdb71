"""On PostgreSQL, refuse UPDATE, DELETE and TRUNCATE on the event log.

A row trigger covers UPDATE and DELETE, a statement trigger covers TRUNCATE. Only a
database superuser who disables the triggers can change history, and verify_log then
finds the change through the hash chain. SQLite (the embedded default) relies on the
code paths alone: no code updates or deletes an event.
"""

from django.db import migrations

INSTALL = """
CREATE OR REPLACE FUNCTION referee_event_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'referee_event is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER referee_event_no_update_delete
    BEFORE UPDATE OR DELETE ON referee_event
    FOR EACH ROW EXECUTE FUNCTION referee_event_append_only();

CREATE TRIGGER referee_event_no_truncate
    BEFORE TRUNCATE ON referee_event
    FOR EACH STATEMENT EXECUTE FUNCTION referee_event_append_only();
"""

REMOVE = """
DROP TRIGGER IF EXISTS referee_event_no_truncate ON referee_event;
DROP TRIGGER IF EXISTS referee_event_no_update_delete ON referee_event;
DROP FUNCTION IF EXISTS referee_event_append_only();
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(INSTALL, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(REMOVE, params=None)


class Migration(migrations.Migration):
    dependencies = [("referee", "0001_initial")]
    operations = [migrations.RunPython(install, remove)]
