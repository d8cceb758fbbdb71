"""Docker does not run on these machines, so the production shape is checked by reading
docker-compose.yml and comparing it with what the code really reads and runs."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[3]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
APP_SERVICES = ("migrate", "web", "worker", "beat")
SETTINGS_SOURCE = (ROOT / "config" / "settings.py").read_text()


def env_of(service: str) -> dict[str, str]:
    return {k: str(v) for k, v in SERVICES[service].get("environment", {}).items()}


def resolved(value: str) -> str:
    """Substitute ${VAR:-default} / ${VAR:?msg} the way compose does, with defaults or a dummy."""
    return re.sub(r"\$\{(\w+)(?::[-?]([^}]*))?\}", lambda m: os.environ.get(m[1], m[2] if m[2] and not m[0].count(":?") else "x" * 50), value)


def test_every_part_of_the_production_shape_is_there():
    assert {"db", "redis", "migrate", "web", "worker", "beat"} <= set(SERVICES)


@pytest.mark.parametrize("service", ["db", "redis", "web", "worker", "beat"])
def test_every_long_running_service_has_a_healthcheck(service):
    assert SERVICES[service]["healthcheck"]["test"]


@pytest.mark.parametrize("service", APP_SERVICES)
def test_each_variable_passed_is_one_the_settings_read(service):
    for name in env_of(service):
        assert f'"{name}"' in SETTINGS_SOURCE, f"{service} passes {name}, which settings.py never reads"


@pytest.mark.parametrize("service", APP_SERVICES)
def test_each_app_service_gets_what_production_needs(service):
    env = env_of(service)
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS"):
        assert name in env, f"{service} lacks {name}"
    assert env["DJANGO_DEBUG"] == "0"
    assert env["DATABASE_URL"].startswith("postgres://") and "@db:5432/" in env["DATABASE_URL"]
    assert env["CELERY_BROKER_URL"].startswith("redis://redis:6379")


def test_migrations_run_as_the_owner_and_the_service_as_a_role_that_owns_nothing():
    db = env_of("db")
    owner = f"postgres://{db['POSTGRES_USER']}:{resolved(db['POSTGRES_PASSWORD'])}@db:5432/{db['POSTGRES_DB']}"
    assert resolved(env_of("migrate")["DATABASE_URL"]) == owner
    app = f"postgres://referee_app:{resolved(db['REFEREE_APP_DB_PASSWORD'])}@db:5432/{db['POSTGRES_DB']}"
    for service in ("web", "worker", "beat"):
        assert resolved(env_of(service)["DATABASE_URL"]) == app, service
        assert env_of(service)["REFEREE_DB_APP_ROLE"] == "referee_app"


def test_the_database_creates_the_services_role_on_first_start():
    mounts = SERVICES["db"]["volumes"]
    assert "./deploy/postgres:/docker-entrypoint-initdb.d:ro" in mounts
    script = (ROOT / "deploy" / "postgres" / "10-app-role.sh").read_text()
    assert "CREATE ROLE referee_app LOGIN PASSWORD" in script and "REFEREE_APP_DB_PASSWORD" in script
    assert os.access(ROOT / "deploy" / "postgres" / "10-app-role.sh", os.X_OK)


def test_the_settings_really_read_the_compose_environment():
    env = {**os.environ, **{k: resolved(v) for k, v in env_of("web").items()}, "DJANGO_SETTINGS_MODULE": "config.settings"}
    env["REFEREE_VAR_DIR"] = str(ROOT / "var" / "compose-check")
    probe = (
        "import json; from django.conf import settings as s; "
        "print(json.dumps([s.DATABASES['default']['ENGINE'], s.DATABASES['default']['HOST'], s.CELERY_BROKER_URL, "
        "s.DEBUG, s.ALLOWED_HOSTS, len(s.SECRET_KEY)]))"
    )
    out = subprocess.run([sys.executable, "-c", probe], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    engine, host, broker, debug, hosts, key_length = json.loads(out.stdout)
    assert engine == "django.db.backends.postgresql" and host == "db"
    assert broker == "redis://redis:6379/0"
    assert debug is False and "localhost" in hosts and key_length >= 50


def test_production_refuses_to_start_without_a_secret_key():
    env = {**os.environ, "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "", "DJANGO_SETTINGS_MODULE": "config.settings"}
    out = subprocess.run([sys.executable, "-c", "from django.conf import settings; settings.DEBUG"],
                         env=env, cwd=ROOT, capture_output=True, text=True)
    assert out.returncode != 0 and "DJANGO_SECRET_KEY" in out.stderr


def test_the_web_command_serves_the_asgi_application_with_uvicorn_workers():
    command = SERVICES["web"]["command"]
    assert command[0] == "gunicorn"
    assert command[1] == "config.asgi:application"
    worker = command[command.index("--worker-class") + 1]
    module, _, attr = worker.rpartition(".")
    # In a fresh interpreter: importing the ASGI module sets up Django for the web server.
    probe = (
        f"import importlib; m = importlib.import_module('{module}'); w = getattr(m, '{attr}'); "
        "from uvicorn_worker import UvicornWorker; from config.asgi import application; "
        "assert issubclass(w, UvicornWorker) and callable(application); print('ok')"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "REFEREE_VAR_DIR": str(ROOT / "var" / "compose-check")}
    out = subprocess.run([sys.executable, "-c", probe], env=env, cwd=ROOT, capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr


def test_the_web_service_shares_its_cache_in_redis():
    env = {**os.environ, **{k: resolved(v) for k, v in env_of("web").items()}, "DJANGO_SETTINGS_MODULE": "config.settings",
           "REFEREE_VAR_DIR": str(ROOT / "var" / "compose-check")}
    probe = ("import json; from django.conf import settings as s; "
             "print(json.dumps([s.CACHES['default']['BACKEND'], s.CACHES['default']['LOCATION'], s.LIVE_REDIS_URL]))")
    out = subprocess.run([sys.executable, "-c", probe], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    backend, location, live = json.loads(out.stdout)
    assert backend == "django.core.cache.backends.redis.RedisCache"
    assert location.startswith("redis://redis:6379/") and live == location


@pytest.mark.parametrize(("service", "role"), [("worker", "worker"), ("beat", "beat")])
def test_celery_services_load_the_project_app(service, role):
    command = SERVICES[service]["command"]
    assert command[:4] == ["celery", "-A", "config", role]
    from config import celery_app

    assert celery_app.main == "referee"


def test_the_beat_schedule_includes_the_sweeper():
    from config.celery import app
    from referee.tasks import sweep_due_work

    tasks = {entry["task"] for entry in app.conf.beat_schedule.values()}
    assert sweep_due_work.name in tasks


def test_migrate_runs_a_real_management_command():
    assert SERVICES["migrate"]["command"] == ["python", "manage.py", "migrate", "--noinput"]
    assert SERVICES["web"]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_the_image_is_built_from_the_dockerfile_with_the_packages():
    dockerfile = (ROOT / "Dockerfile").read_text()
    for package in ("config", "referee", "games", "api", "frontend_templates", "notices", "game_pages"):
        assert f"COPY {package} {package}" in dockerfile
    assert "config.asgi:application" in dockerfile
