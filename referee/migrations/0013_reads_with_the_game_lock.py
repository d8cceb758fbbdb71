"""Reads that come along with a game's lock, each with a snapshot of its own.

An order locks its game and then reads the game's pending due rows; a deadline job locks
the game and reads its own due row, the game's vacations and the seats to e-mail. In the
lock's statement such a read would use the statement's snapshot, taken before the lock was
waited for, and miss what the lock's previous holder committed meanwhile. A VOLATILE SQL
function takes a new snapshot for its query when it runs, and a lateral call on the locked
row runs once the lock is held: one round trip, and the reads are as fresh as a second
statement's. PostgreSQL only (the embedded SQLite path reads with the ORM).
"""

from django.db import migrations

CREATE = (
    """
CREATE FUNCTION referee_pending_due_work(game uuid) RETURNS SETOF referee_duework
LANGUAGE sql VOLATILE AS $$
    SELECT * FROM referee_duework WHERE game_id = game AND status = 'pending'
$$
""",
    # The first pending row of a key (of a kind, or any), by the key's index: ordered only
    # once found (OFFSET 0), never by walking every game's pending rows in due order.
    """
CREATE FUNCTION referee_due_row(game uuid, work_key varchar, work_kind varchar) RETURNS SETOF referee_duework
LANGUAGE sql VOLATILE AS $$
    SELECT * FROM (SELECT * FROM referee_duework WHERE game_id = game AND key = work_key AND status = 'pending'
                   AND (work_kind = '' OR kind = work_kind) OFFSET 0) AS d
    ORDER BY due_at, id LIMIT 1
$$
""",
    """
CREATE FUNCTION referee_game_vacations(game uuid, after timestamptz) RETURNS json
LANGUAGE sql VOLATILE AS $$
    SELECT coalesce(json_agg(json_build_array(s.number, v.starts_at, v.ends_at)), '[]')
    FROM referee_vacation v JOIN referee_seat s ON s.id = v.seat_id WHERE s.game_id = game AND v.ends_at > after
$$
""",
    """
CREATE FUNCTION referee_game_recipients(game uuid) RETURNS json
LANGUAGE sql VOLATILE AS $$
    SELECT coalesce(json_agg(json_build_array(s.number, s.name, u.email) ORDER BY s.number), '[]')
    FROM referee_seat s JOIN auth_user u ON u.id = s.user_id WHERE s.game_id = game AND s.reminders AND u.email <> ''
$$
""",
)
DROP = ("referee_pending_due_work(uuid)", "referee_due_row(uuid, varchar, varchar)",
        "referee_game_vacations(uuid, timestamptz)", "referee_game_recipients(uuid)")


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in CREATE:
            schema_editor.execute(statement)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for function in DROP:
            schema_editor.execute(f"DROP FUNCTION IF EXISTS {function}")


class Migration(migrations.Migration):

    dependencies = [
        ('referee', '0012_drop_indexes_composites_cover'),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
