from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"

    def ready(self) -> None:
        # Live readers learn of scheduled work's appends too, in every process that runs jobs
        # (the worker, or the web process itself when tasks run eagerly).
        from celery.signals import task_postrun

        from referee.live import notify_after_due_work

        task_postrun.connect(notify_after_due_work, weak=False, dispatch_uid="referee.live.due_work")
