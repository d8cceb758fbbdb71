"""Deliveries keyed with their channel; a channel's game is not a database constraint.

A delivery belongs to one channel (a test notice has no game), so on PostgreSQL its primary
key becomes ``(id, channel_id)``, with the column its rows are distributed by, and the
unique ``(channel, notice, game, key)`` already leads with it; ``id`` first, so the worker's
updates by ``id`` find their row by the key. Channels are a reference table (copied to every node when
distributed), which may not hold a foreign key into a table distributed by game: the ORM
still deletes a game's channels with it. SQLite keeps the single-column key.
"""

import django.db.models.deletion
from django.db import migrations, models


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute('ALTER TABLE "notices_delivery" DROP CONSTRAINT "notices_delivery_pkey"')
        schema_editor.execute('ALTER TABLE "notices_delivery" ADD CONSTRAINT "notices_delivery_pkey" '
                              'PRIMARY KEY ("id", "channel_id")')


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute('ALTER TABLE "notices_delivery" DROP CONSTRAINT "notices_delivery_pkey"')
        schema_editor.execute('ALTER TABLE "notices_delivery" ADD CONSTRAINT "notices_delivery_pkey" PRIMARY KEY ("id")')


class Migration(migrations.Migration):

    dependencies = [
        ("notices", "0002_league_channel"),
        ("referee", "0014_game_first_keys"),
    ]

    operations = [
        migrations.AlterField(
            model_name="channel",
            name="game",
            field=models.ForeignKey(blank=True, db_constraint=False, null=True,
                                    on_delete=django.db.models.deletion.CASCADE, related_name="+",
                                    to="referee.game"),
        ),
        migrations.RunPython(forwards, backwards),
    ]
