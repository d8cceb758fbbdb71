"""manage.py run_embedded: the whole service on the embedded default, from one command.

Migrates the SQLite database, makes sure a demo game and demo accounts exist, then starts
the web server (uvicorn serving referee/asgi.py), a Celery worker and Celery beat (kombu's filesystem broker: no server),
prints the URL and keeps all three running until Ctrl-C.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from referee.demo import demo_game_ensure
from referee.settings import served_base_url


class Command(BaseCommand):
    help = "Run web + Celery worker + beat on the embedded default, with a demo game."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("REFEREE_HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("REFEREE_PORT", "8000")))
        parser.add_argument("--check", action="store_true", help="start, wait until the web answers, then stop")

    def handle(self, *args, host: str, port: int, check: bool, **options):
        call_command("migrate", interactive=False, verbosity=0)
        game = demo_game_ensure()
        python = sys.executable
        celery = [python, "-m", "celery", "-A", "referee"]
        procs = {
            # ASGI, as in production: waiting readers (long-polls, event streams) hold no thread.
            "web": [python, "-m", "uvicorn", "referee.asgi:application", "--host", host, "--port", str(port),
                    "--log-level", "warning"],
            "worker": [*celery, "worker", "--pool", "solo", "--loglevel", "warning"],
            "beat": [*celery, "beat", "--loglevel", "warning", "--schedule", settings.CELERY_BEAT_SCHEDULE_FILENAME],
        }
        env = child_env(os.environ, host=host, port=port)
        running = {name: subprocess.Popen(cmd, cwd=settings.BASE_DIR, env=env) for name, cmd in procs.items()}
        url = f"http://{host}:{port}/"
        self.stdout.write(self.style.SUCCESS(
            f"\nThe referee is running at {url}\n"
            f"  demo game:   {url}games/{game.pk}/\n"
            f"  API docs:    {url}api/docs/\n"
            f"  sign in as alice, bob or moderator (password: demo)\n"
            f"  web, Celery worker and beat are running; Ctrl-C stops them all.\n"
        ))
        stop = False

        def _stop(*_: object) -> None:
            nonlocal stop
            stop = True

        signal.signal(signal.SIGINT, _stop)
        signal.signal(signal.SIGTERM, _stop)
        deadline = time.monotonic() + 30
        try:
            while not stop:
                dead = {n: p.returncode for n, p in running.items() if p.poll() is not None}
                if dead:
                    self.stderr.write(f"stopped unexpectedly: {dead}")
                    raise SystemExit(1)
                if check and _answers(url):
                    self.stdout.write("web answered; --check done")
                    break
                if check and time.monotonic() > deadline:
                    self.stderr.write("web did not answer within 30 s")
                    raise SystemExit(1)
                time.sleep(0.5)
        finally:
            for p in running.values():
                p.terminate()
            for p in running.values():
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()


def child_env(environ: Mapping[str, str], *, host: str, port: int) -> dict[str, str]:
    """The processes' environment: unless ``REFEREE_BASE_URL`` is set, links (the forum
    post's picture, e-mails) point at the host and port the web server is started on,
    which ``--port`` may have changed from ``REFEREE_PORT``."""
    env = dict(environ)
    if not env.get("REFEREE_BASE_URL"):
        env["REFEREE_BASE_URL"] = served_base_url({**env, "REFEREE_HOST": host, "REFEREE_PORT": str(port)})
    return env


def _answers(url: str) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(url + "health/", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False
