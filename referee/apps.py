from django.apps import AppConfig


class RefereeConfig(AppConfig):
    name = "referee"
    default_auto_field = "django.db.models.BigAutoField"
