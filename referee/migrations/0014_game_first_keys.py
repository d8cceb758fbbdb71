"""Every table of a game's rows has its game in every key (what a table partitioned by hash
of ``game_id`` and a Citus table distributed by ``game_id`` both require).

On PostgreSQL the primary key of each such table becomes ``(id, game_id)`` (a user's
idempotent answers: ``(id, user_id)``, the column those rows are distributed by), every
unique constraint already leads with the game, and a foreign key from one game's table to
another names the game: a vacation's seat is ``(game_id, seat_id)``, a rating change's rated
game ``(game_id, rated_game_id)``. Django's own state keeps ``id`` as the primary key (a
foreign key cannot point to a composite key in the ORM): ``id`` still comes from one
sequence and is unique. ``id`` leads the key on purpose: the ORM's updates by ``id`` find
their row by it, and an index leading with ``game_id`` beside the composite unique ones
(``(game_id, seq)``, ...) is the choice a planner without statistics gets wrong (migration
0012: it filtered a game's whole log for one record). The two foreign keys from reference tables
into game tables (a league's last game, a channel's game) are not constraints any more: the
ORM still cascades and nulls them, and nothing deletes a game that has a log.

SQLite (the embedded default) keeps the single-column keys: it is never partitioned.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

#: (table, the primary key's columns)
KEYED = (
    ("referee_event", "id, game_id"),
    ("referee_snapshot", "id, game_id"),
    ("referee_duework", "id, game_id"),
    ("referee_seat", "id, game_id"),
    ("referee_vacation", "id, game_id"),
    ("referee_invitation", "id, game_id"),
    ("referee_ratedgame", "id, game_id"),
    ("referee_ratingchange", "id, game_id"),
    ("referee_idempotentrequest", "id, user_id"),
)

#: (table, columns, referenced table, referenced columns): foreign keys that carry the game.
GAME_FOREIGN_KEYS = (
    ("referee_vacation", "game_id, seat_id", "referee_seat", "game_id, id"),
    ("referee_ratingchange", "game_id, rated_game_id", "referee_ratedgame", "game_id, id"),
)


def _fk_name(table: str) -> str:
    return f"{table}_game_first_fk"


def keys_forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, columns in KEYED:
        schema_editor.execute(f'ALTER TABLE "{table}" DROP CONSTRAINT "{table}_pkey"')
        schema_editor.execute(f'ALTER TABLE "{table}" ADD CONSTRAINT "{table}_pkey" PRIMARY KEY ({columns})')
    for table, columns, target, target_columns in GAME_FOREIGN_KEYS:
        schema_editor.execute(
            f'ALTER TABLE "{table}" ADD CONSTRAINT "{_fk_name(table)}" FOREIGN KEY ({columns}) '
            f'REFERENCES "{target}" ({target_columns}) DEFERRABLE INITIALLY DEFERRED')


def keys_backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, _, _, _ in GAME_FOREIGN_KEYS:
        schema_editor.execute(f'ALTER TABLE "{table}" DROP CONSTRAINT "{_fk_name(table)}"')
    for table, _ in KEYED:
        schema_editor.execute(f'ALTER TABLE "{table}" DROP CONSTRAINT "{table}_pkey"')
        schema_editor.execute(f'ALTER TABLE "{table}" ADD CONSTRAINT "{table}_pkey" PRIMARY KEY ("id")')


def games_of_rows(apps, schema_editor):
    Vacation = apps.get_model("referee", "Vacation")
    RatingChange = apps.get_model("referee", "RatingChange")
    for vacation in Vacation.objects.select_related("seat").filter(game__isnull=True):
        Vacation.objects.filter(pk=vacation.pk).update(game_id=vacation.seat.game_id)
    for change in RatingChange.objects.select_related("rated_game").filter(game__isnull=True):
        RatingChange.objects.filter(pk=change.pk).update(game_id=change.rated_game.game_id)
    if schema_editor.connection.vendor == "postgresql":
        # The deferred checks of those updates run now: ALTER TABLE refuses pending ones.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def _game(null: bool) -> models.ForeignKey:
    return models.ForeignKey(db_index=False, null=null, on_delete=django.db.models.deletion.CASCADE,
                             related_name="+", to="referee.game")


class Migration(migrations.Migration):

    dependencies = [
        ("referee", "0013_reads_with_the_game_lock"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(model_name="vacation", name="game", field=_game(null=True)),
        migrations.AddField(model_name="ratingchange", name="game", field=_game(null=True)),
        migrations.RunPython(games_of_rows, migrations.RunPython.noop),
        migrations.AlterField(model_name="vacation", name="game", field=_game(null=False)),
        migrations.AlterField(model_name="ratingchange", name="game", field=_game(null=False)),
        migrations.RemoveConstraint(model_name="ratingchange", name="rating_change_unique"),
        migrations.AddConstraint(
            model_name="ratingchange",
            constraint=models.UniqueConstraint(fields=("game", "rated_game", "user"), name="rating_change_unique"),
        ),
        migrations.AlterField(
            model_name="league",
            name="last_game",
            field=models.ForeignKey(blank=True, db_constraint=False, null=True,
                                    on_delete=django.db.models.deletion.SET_NULL, related_name="+",
                                    to="referee.game"),
        ),
        migrations.AlterField(
            model_name="ratingchange",
            name="rated_game",
            field=models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.CASCADE,
                                    related_name="changes", to="referee.ratedgame"),
        ),
        migrations.AlterField(
            model_name="vacation",
            name="seat",
            field=models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.CASCADE,
                                    related_name="vacations", to="referee.seat"),
        ),
        migrations.RunPython(keys_forwards, keys_backwards),
    ]
