"""Idempotency keys unique per game and scope instead of per game.

A player's key now belongs to its seat alone, so reusing another seat's key neither refuses
the order nor tells the seat that the key was used; the referee, the scheduler and
moderators keep one shared scope (their work keys must still run once). Only the index
changes: every record keeps its key as written and its hash, and any log that satisfied the
old index satisfies this weaker one, so old logs still verify.
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('referee', '0008_snapshot_no_update'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='event',
            name='event_idempotency_key_unique',
        ),
        migrations.AddConstraint(
            model_name='event',
            constraint=models.UniqueConstraint(models.F('game'), models.F('idempotency_key'), models.Case(models.When(actor_kind='player', actor_seat__isnull=False, then=models.F('actor_seat')), default=models.Value(-1), output_field=models.IntegerField()), condition=models.Q(('idempotency_key__isnull', False)), name='event_idempotency_key_per_scope'),
        ),
    ]
