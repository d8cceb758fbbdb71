"""The seats a game e-mails, read with its lock, now carry their owners' e-mail choices.

A deadline job reads, with the game's lock, the seats it may e-mail (migration 0013). Which
of them gets a turn's e-mail also depends on whether the player's e-mail channel still
wants that notice; with each seat's choices (the ``wants`` of every e-mail channel of its
player) in the same read, the job needs no second read of its recipients. PostgreSQL only.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION referee_game_recipients(game uuid) RETURNS json
LANGUAGE sql VOLATILE AS $$
    SELECT coalesce(json_agg(json_build_array(s.number, s.name, u.email, (
        SELECT coalesce(json_agg(e.wants), '[]') FROM notices_channel e
        WHERE e.owner_id = u.id AND e.scope = 'player' AND e.kind = 'email')) ORDER BY s.number), '[]')
    FROM referee_seat s JOIN auth_user u ON u.id = s.user_id WHERE s.game_id = game AND s.reminders AND u.email <> ''
$$
"""

PREVIOUS = """
CREATE OR REPLACE FUNCTION referee_game_recipients(game uuid) RETURNS json
LANGUAGE sql VOLATILE AS $$
    SELECT coalesce(json_agg(json_build_array(s.number, s.name, u.email) ORDER BY s.number), '[]')
    FROM referee_seat s JOIN auth_user u ON u.id = s.user_id WHERE s.game_id = game AND s.reminders AND u.email <> ''
$$
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PREVIOUS)


class Migration(migrations.Migration):

    dependencies = [
        ('referee', '0015_log_partitions'),
        ('notices', '0003_channel_first_keys'),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
