from django.apps import AppConfig


class RefereeConfig(AppConfig):
    name = "referee"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from referee.db_roles import after_migrate

        # After every app's migrations (not only this app's): the grants cover all tables.
        post_migrate.connect(after_migrate, dispatch_uid="referee-db-roles")
