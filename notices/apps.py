from django.apps import AppConfig


class NoticesConfig(AppConfig):
    name = "notices"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Notices: players' own channels, game channels and bot webhooks"

    def ready(self) -> None:
        from notices import record
        from referee import noticeboard

        # What the core tells (a game over, a turn begun...) is recorded for the channels here.
        noticeboard.plug(record)
