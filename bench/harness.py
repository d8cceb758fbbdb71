"""What the benches that time the referee through Django share: the environment set before
Django starts, a migrated PostgreSQL (they refuse to run without one), players with
token-authenticated test clients, a Pig game, an order through the API, and the bare DRF
POST an order is compared with (bench/bare.py).

A script puts the repository on ``sys.path`` itself (it runs as ``python bench/x.py``), then
calls ``django_environment()`` before anything imports Django."""

from __future__ import annotations

import os
import sys
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from django.test import Client

#: the rounds a bench interleaves its sides over (default and minimum 3; see bench/README.md)
ROUNDS = max(3, int(os.environ.get("BENCH_ROUNDS", "3")))
#: how much each round does (1: the figures bench/README.md gives; less for a quick look)
SCALE = float(os.environ.get("BENCH_SCALE", "1"))


def django_environment() -> None:
    """``tests.settings`` (the Pig ruleset registered), DEBUG off (Django would keep every
    query), no e-mail; orders nudge the broker after commit, as in production, and no worker
    listens: a bench runs each game's turn start itself, outside its timings."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    os.environ.setdefault("DJANGO_DEBUG", "0")
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-a-secret")
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "0"
    os.environ["EMAIL_BACKEND"] = "django.core.mail.backends.dummy.EmailBackend"
    if os.environ.get("REDIS_URL"):
        os.environ.setdefault("CELERY_BROKER_URL", os.environ["REDIS_URL"])


def postgres_url(script: str) -> str:
    """DATABASE_URL, or the end of the run: the figures mean nothing on another database."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit(f"{script} needs PostgreSQL: run it through scripts/with_servers.sh (make bench).")
    return url


def start_django(*, api: bool = True, one_connection: bool = False) -> None:
    """Django set up and the database migrated. ``api``: the API and the bare POST mounted
    (bench/urls.py) for the test client; ``one_connection``: the connection is never closed
    between requests (``CONN_MAX_AGE`` unlimited), so its prepared statements live on."""
    import django
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    django.setup()
    if api:
        settings.ROOT_URLCONF = "bench.urls"
        settings.ALLOWED_HOSTS = ["*"]
    if one_connection:
        settings.DATABASES["default"]["CONN_MAX_AGE"] = None
        connection.settings_dict["CONN_MAX_AGE"] = None
    call_command("migrate", interactive=False, verbosity=0)
    quiet_access_log()


def quiet_access_log() -> None:
    """The access line of every request (``referee.access``, INFO in JSON) still formatted
    and written, at the same level and by the same formatter, but to a null stream rather
    than stderr: an order and a bare POST go through the same middleware, so both still pay
    for their line alike, and the run's output is the figures."""
    import logging

    access = logging.getLogger("referee.access")
    null = open(os.devnull, "w")  # noqa: SIM115 (open for the life of the process)
    handlers: list[logging.Handler] = []
    for console in logging.getLogger().handlers:
        handler = logging.StreamHandler(null)
        handler.setLevel(console.level)
        handler.setFormatter(console.formatter)
        handlers.append(handler)
    access.handlers = handlers
    access.propagate = False


def players(prefix: str, n: int = 2) -> tuple[list[Any], list[Client]]:
    """``n`` new users and, for each, a test client that authenticates with its token."""
    from django.contrib.auth import get_user_model
    from django.test import Client
    from rest_framework.authtoken.models import Token

    users = [get_user_model().objects.create_user(f"{prefix}-{i}", password="x") for i in range(n)]
    clients = [Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=u).key}") for u in users]
    return users, clients


def pig_game(users: list[Any], clients: list[Client]) -> tuple[str, dict[int, Client]]:
    """A started Pig game of ``users`` whose first turn has begun; its id and each seat's client."""
    from referee import services

    game = services.game_create(name="bench", ruleset="pig", settings={"target": 1000})
    seats = {services.seat_add(game=game, user=u, name=u.username).number: c
             for u, c in zip(users, clients, strict=True)}
    services.game_start(game=game)
    gid = str(game.pk)
    services.game_run_pending(game_id=gid)
    return gid, seats


def post_order(client: Client, gid: str, kind: str) -> tuple[float, int]:
    """One order with no fields through the API: the seconds it took and its seq."""
    t0 = time.perf_counter()
    response = client.post(f"/api/games/{gid}/commands/", {"type": kind, "payload": {}},
                           content_type="application/json")
    elapsed = time.perf_counter() - t0
    assert response.status_code == 201, response.content
    return elapsed, response.json()["seq"]


def bare_posts(client: Client, n: int) -> list[float]:
    """The seconds each of ``n`` bare DRF POSTs took (bench/bare.py: one row written)."""
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        response = client.post("/bench/bare/", {"n": i}, content_type="application/json")
        times.append(time.perf_counter() - t0)
        assert response.status_code == 201
    return times
