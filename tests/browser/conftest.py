"""A real server in a subprocess on the test database, and Debian's Chromium driven by
Playwright. pytest-django's live_server cannot be used: its flush truncates the event
table, which the PostgreSQL trigger refuses; these tests commit for real instead."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# between browser steps are ordinary blocking calls, so Django's async guard is relaxed.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def committed(django_db_setup, django_db_blocker):
    """Writes that really commit (see tests/integration/conftest.py)."""
    from django.db import connection

    if not connection.settings_dict["NAME"].startswith("test_"):
        pytest.fail(
            "no test database was set up: pytest-django creates it only when a collected test "
            "uses the django_db mark; keep one in the module"
        )
    with django_db_blocker.unblock():
        yield


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(committed, tmp_path) -> Iterator[str]:
    from django.conf import settings

    db = settings.DATABASES["default"]
    port = _free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_TASK_ALWAYS_EAGER": "1",
        "REFEREE_VAR_DIR": str(tmp_path / "var"),
        # as ``make run`` binds it: links the pages write (the forum picture) point here
        "REFEREE_HOST": "127.0.0.1", "REFEREE_PORT": str(port),
    }
    env.pop("REFEREE_BASE_URL", None)
    log = (tmp_path / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        # a start on a loaded machine (CI shares two cores) can take far longer than usual
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                pytest.fail(f"the server exited: {(tmp_path / 'server.log').read_text()}")
            try:
                urllib.request.urlopen(url + "/health/", timeout=5)
                break
            except urllib.error.HTTPError:
                break  # it answers; the health of its dependencies is not this fixture's business
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail(f"the server did not answer: {(tmp_path / 'server.log').read_text()}")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()
        time.sleep(0.5)  # let PostgreSQL close the server's session before the test database is dropped


@pytest.fixture
def browser():
    """Chromium from Debian; the test fails (never skips) when it is missing."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: the test command installs Debian's chromium (scripts/with_servers.sh)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            yield b
        finally:
            b.close()
            # ORM calls made inside Playwright's context opened their own connection:
            # close it, or the test database cannot be dropped at the end of the run.
            from django.db import connections

            connections.close_all()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
