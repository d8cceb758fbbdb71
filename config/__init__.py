"""The Django project: settings, URLs, the ASGI and WSGI entry points, the Celery app and
gunicorn's settings. It wires the packages together and sits above all of them; nothing
imports it but the entry points (manage.py, the servers, the workers, the tests' settings)."""

# The Celery app is made (and made current) whenever the settings are loaded, so
# ``celery.current_app`` in the core and the apps is this one.
from config.celery import app as celery_app

__all__ = ("celery_app",)
