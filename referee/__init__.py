"""The referee: Django project and the core (event store, referee service, replay, jobs)."""

from referee.celery import app as celery_app

__all__ = ("celery_app",)
