"""Turn limits in seconds (a real-time round is minutes, a tick seconds), and due-work rows
told apart by kind instead of a "|remind" / "|notify" suffix on the key."""

from django.db import migrations, models


def forwards(apps, schema_editor):
    for model in ("Game", "League"):
        cls = apps.get_model("referee", model)
        for row in cls.objects.only("pk", "turn_limit_hours"):
            cls.objects.filter(pk=row.pk).update(turn_limit_seconds=row.turn_limit_hours * 3600)
    due = apps.get_model("referee", "DueWork")
    for row in due.objects.filter(key__contains="|").only("pk", "key"):
        due.objects.filter(pk=row.pk).update(key=row.key.split("|", 1)[0])


def backwards(apps, schema_editor):
    for model in ("Game", "League"):
        cls = apps.get_model("referee", model)
        for row in cls.objects.only("pk", "turn_limit_seconds"):
            cls.objects.filter(pk=row.pk).update(turn_limit_hours=max(1, row.turn_limit_seconds // 3600))
    due = apps.get_model("referee", "DueWork")
    for row in due.objects.filter(kind__in=["remind", "notify"]).only("pk", "key", "kind"):
        due.objects.filter(pk=row.pk).update(key=f"{row.key}|{row.kind}")


class Migration(migrations.Migration):
    dependencies = [("referee", "0004_record_v2_audience_seats")]

    operations = [
        migrations.RemoveConstraint(model_name="duework", name="due_work_key_unique"),
        migrations.AddField(model_name="game", name="turn_limit_seconds",
                            field=models.PositiveIntegerField(default=129600)),
        migrations.AddField(model_name="league", name="turn_limit_seconds",
                            field=models.PositiveIntegerField(default=129600)),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(model_name="game", name="turn_limit_hours"),
        migrations.RemoveField(model_name="league", name="turn_limit_hours"),
        migrations.AddConstraint(
            model_name="duework",
            constraint=models.UniqueConstraint(fields=("game", "key", "kind"), name="due_work_key_kind_unique"),
        ),
    ]
