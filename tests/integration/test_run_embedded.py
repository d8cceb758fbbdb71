"""`make run` as a person meets it: "running" only once the server answers, debug pages off,
a taken port named before anything starts."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _embedded_env(var_dir: Path) -> dict[str, str]:
    # the embedded default: no database or broker from the test command's servers
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REFEREE_APP_DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "CACHE_URL",
                        "DJANGO_SETTINGS_MODULE", "DJANGO_DEBUG", "REFEREE_BASE_URL", "REFEREE_DEBUG")}
    env["REFEREE_VAR_DIR"] = str(var_dir)
    return env


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_taken_port_stops_the_start_with_a_sentence_and_nothing_runs(tmp_path: Path):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = subprocess.run([sys.executable, "manage.py", "run_embedded", "--port", str(port), "--check"],
                              cwd=ROOT, env=_embedded_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "REFEREE_PORT=" in done.stderr and "already in use" in done.stderr
    assert "is running" not in done.stdout


def test_the_service_says_running_once_it_answers_and_shows_no_debug_pages(tmp_path: Path):
    port = _free_port()
    service = subprocess.Popen([sys.executable, "manage.py", "run_embedded", "--port", str(port)], cwd=ROOT,
                               env=_embedded_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    try:
        assert service.stdout is not None
        seen = []
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            line = service.stdout.readline()
            if not line:
                break
            seen.append(line)
            if "The referee is running at" in line:
                break
        assert any(f"The referee is running at http://127.0.0.1:{port}/" in line for line in seen), "".join(seen)
        # it said running: it answers now, not eventually
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/", timeout=10) as response:
            assert response.status == 200
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/no-such-page/", timeout=10)
        assert missing.value.code == 404
        page = missing.value.read().decode()
        assert "URLconf" not in page and "DEBUG = True" not in page
    finally:
        service.send_signal(signal.SIGINT)
        try:
            service.wait(timeout=60)
        except subprocess.TimeoutExpired:
            service.kill()
            raise
