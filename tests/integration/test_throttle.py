"""Throttle counters live in the shared cache, so a limit holds across web processes:
with 5 requests a minute, two processes together answer 5, not 10."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import json, os, django; django.setup(); from django.test import Client; "
    "c = Client(HTTP_HOST='localhost', REMOTE_ADDR=os.environ['PROBE_IP']); "
    "print(json.dumps([c.get('/api/rulesets/').status_code for _ in range(int(os.environ['PROBE_N']))]))"
)


def web_process(var_dir: Path, cache_url: str, ip: str, n: int) -> list[int]:
    """A separate interpreter with the production settings, as each gunicorn worker is."""
    env = {
        **os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "REFEREE_VAR_DIR": str(var_dir),
        "DATABASE_URL": f"sqlite:///{var_dir / 'db.sqlite3'}", "CACHE_URL": cache_url,
        "REFEREE_THROTTLE_ANON": "5/min", "PROBE_IP": ip, "PROBE_N": str(n),
    }
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def fresh_ip() -> str:
    b = uuid.uuid4().bytes
    return f"10.{b[0]}.{b[1]}.{b[2]}"


def test_two_processes_share_the_count_in_the_embedded_file_cache(tmp_path):
    ip = fresh_ip()
    first = web_process(tmp_path, "", ip, 3)
    second = web_process(tmp_path, "", ip, 3)
    assert first == [200, 200, 200]
    assert second == [200, 200, 429]


@pytest.mark.redis
def test_two_processes_share_the_count_in_redis(tmp_path):
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        pytest.fail("needs the Redis that scripts/test.sh starts (REDIS_URL is not set)")
    ip = fresh_ip()
    first = web_process(tmp_path / "a", redis_url, ip, 3)
    second = web_process(tmp_path / "b", redis_url, ip, 3)  # no shared directory: only Redis
    assert first == [200, 200, 200]
    assert second == [200, 200, 429]


def test_requests_go_through_when_the_cache_is_down(client, settings):
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there now
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{port}/0",
                                   "OPTIONS": {"socket_connect_timeout": 0.5}}}
    response = client.get("/api/rulesets/")
    assert response.status_code == 200
