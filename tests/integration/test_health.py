"""/health/ says what the service needs: the database and the broker. Either one down is
a 503 (problem+json naming it), so a load balancer stops sending players there."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.django_db]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def own_redis(tmp_path):
    """A Redis of this test's own, so it can be stopped without harming anything else."""
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed: run the tests with scripts/test.sh, which installs it")
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
                             "--appendonly", "no", "--dir", str(tmp_path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0", proc
    if proc.poll() is None:
        proc.kill()
        proc.wait(timeout=10)


@pytest.mark.redis
def test_health_is_503_naming_the_broker_once_redis_stops(client, settings, own_redis):
    url, proc = own_redis
    settings.CELERY_BROKER_URL = url
    up = client.get("/health/")
    assert up.status_code == 200, up.content
    assert up.json()["broker"] == "ok" and up.json()["database"] == "ok"

    proc.terminate()
    proc.wait(timeout=10)
    down = client.get("/health/")
    assert down.status_code == 503
    assert down["Content-Type"] == "application/problem+json"
    body = down.json()
    assert body["broker"].startswith("down") and body["database"] == "ok"
    assert "broker" in body["detail"] and body["status"] == 503


def test_health_is_503_naming_the_database_when_it_does_not_answer(tmp_path):
    closed = free_port()  # nothing listens there
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "REFEREE_VAR_DIR": str(tmp_path),
           "DATABASE_URL": f"postgres://nobody@127.0.0.1:{closed}/nothing", "CACHE_URL": ""}
    probe = ("import json, django; django.setup(); from django.test import Client; "
             "r = Client(HTTP_HOST='localhost').get('/health/'); "
             "print(json.dumps([r.status_code, r['Content-Type'], r.json()]))")
    out = subprocess.run([sys.executable, "-c", probe], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    status, content_type, body = json.loads(out.stdout.strip().splitlines()[-1])
    assert status == 503 and content_type == "application/problem+json"
    assert body["database"].startswith("down") and body["broker"] == "ok"
    assert "database" in body["detail"]


def test_health_is_ok_with_everything_up(client):
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["database"] == "ok" and body["broker"] == "ok"
    assert body["live_readers"] == 0
