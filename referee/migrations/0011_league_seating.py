from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('referee', '0010_ratings'),
    ]

    operations = [
        migrations.AddField(
            model_name='league',
            name='seating',
            field=models.CharField(choices=[('queue', 'first come'), ('rating', 'by rating')], default='queue',
                                   max_length=10),
        ),
    ]
