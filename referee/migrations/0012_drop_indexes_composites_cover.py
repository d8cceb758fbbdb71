"""Drop the one-column ``game_id`` indexes that a unique composite index already leads with.

``referee_event(game_id)`` beside the unique ``(game_id, seq)``: on a table that was never
analysed PostgreSQL estimates both alike and may pick the one-column index for the
append's predecessor check (a prepared statement then keeps that generic plan), which
scans every record of the game to find one: an append slowed down as the log grew. With
only the composite index there is no choice to get wrong. The same holds for snapshots
``(game, seq)``, due work ``(game, key, kind)`` and seats ``(game, number)``.

Only the indexes go (the foreign keys stay as they are: re-adding a constraint would
validate every row of the log). Django generates these names from the table and column.
"""

from django.db import migrations, models

# (model, table, the index Django made for the foreign key)
_DROPPED = (
    ("duework", "referee_duework", "referee_duework_game_id_3cf57f91"),
    ("event", "referee_event", "referee_event_game_id_6560ee66"),
    ("seat", "referee_seat", "referee_seat_game_id_f1e401f9"),
    ("snapshot", "referee_snapshot", "referee_snapshot_game_id_00dec398"),
)
_RELATED = {"duework": ("due_work", models.CASCADE), "event": ("events", models.PROTECT),
            "seat": ("seats", models.CASCADE), "snapshot": ("snapshots", models.CASCADE)}


def _field(model: str) -> models.ForeignKey:
    related_name, on_delete = _RELATED[model]
    return models.ForeignKey(db_index=False, on_delete=on_delete, related_name=related_name, to="referee.game")


class Migration(migrations.Migration):

    dependencies = [
        ('referee', '0011_league_seating'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(f'DROP INDEX IF EXISTS "{index}"',
                                  reverse_sql=f'CREATE INDEX "{index}" ON "{table}" ("game_id")')
                for _, table, index in _DROPPED
            ],
            state_operations=[
                migrations.AlterField(model_name=model, name="game", field=_field(model))
                for model, _, _ in _DROPPED
            ],
        ),
    ]
