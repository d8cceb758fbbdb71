"""manage.py run_embedded: the whole service on the embedded default, from one command.

Migrates the SQLite database, makes sure a demo game and demo accounts exist, then starts
the web server (uvicorn serving the project's ASGI application), Celery workers and Celery beat
(kombu's filesystem broker: no server), says it is running once the web server answers, and
keeps them all running until Ctrl-C. Debug pages are off unless REFEREE_DEBUG=1 (a wrong address shows
a plain "not found", not the URLconf); see referee/embedded.py for the supervision.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from referee.demo import demo_game_ensure
from referee.embedded import (
    Failure,
    PortTaken,
    Supervisor,
    answers,
    child_environment,
    port_check,
    public_address,
)

#: How long the web server may take to answer before the start counts as failed.
START_TIMEOUT_SECONDS = 60


class Command(BaseCommand):
    help = "Run web + Celery worker + beat on the embedded default, with a demo game."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("REFEREE_HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("REFEREE_PORT", "8000")))
        parser.add_argument("--check", action="store_true", help="start, wait until the web answers, then stop")

    def handle(self, *args, host: str, port: int, check: bool, **options):
        try:
            port_check(host, port)
        except PortTaken as exc:
            raise CommandError(str(exc)) from exc
        call_command("migrate", interactive=False, verbosity=0)
        game = demo_game_ensure()
        env = child_environment(base=os.environ, host=host, port=port, var_dir=settings.VAR_DIR)
        # The metrics of a previous run (its counters, its readers) are not this run's.
        shutil.rmtree(settings.PROMETHEUS_MULTIPROC_DIR, ignore_errors=True)
        os.makedirs(settings.PROMETHEUS_MULTIPROC_DIR, exist_ok=True)
        python = sys.executable
        # What the settings name: the ASGI application, and the project package beside it that
        # holds the Celery app (Celery's -A finds it there).
        asgi_module, _, asgi_name = settings.ASGI_APPLICATION.rpartition(".")
        celery = [python, "-m", "celery", "-A", asgi_module.partition(".")[0]]
        supervisor = Supervisor(out=sys.stderr)
        # ASGI, as in production: waiting readers (long-polls, event streams) hold no thread.
        supervisor.start("web", "web server", [python, "-m", "uvicorn", f"{asgi_module}:{asgi_name}", "--host", host,
                                               "--port", str(port), "--log-level", "warning"],
                         cwd=settings.BASE_DIR, env=env)
        supervisor.start("worker", "Celery worker", [*celery, "worker", "--pool", "solo", "--loglevel", "warning"],
                         cwd=settings.BASE_DIR, env=env)
        # Each queue the settings route tasks to on a worker of its own (notices to chat services
        # and bots: a slow endpoint never holds up a deadline).
        for queue in sorted({route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}):
            supervisor.start(queue, f"{queue} worker", [*celery, "worker", "--pool", "solo", "--loglevel", "warning",
                                                        "-Q", queue, "-n", f"{queue}@%h"],
                             cwd=settings.BASE_DIR, env=env)
        supervisor.start("beat", "Celery beat", [*celery, "beat", "--loglevel", "warning", "--schedule",
                                                 settings.CELERY_BEAT_SCHEDULE_FILENAME],
                         cwd=settings.BASE_DIR, env=env)
        local = public_address(host, port) + "/"
        stop = False

        def _stop(*_: object) -> None:
            nonlocal stop
            stop = True

        signal.signal(signal.SIGINT, _stop)
        signal.signal(signal.SIGTERM, _stop)
        try:
            started = supervisor.wait_until(lambda: stop or answers(local + "health/"), timeout=START_TIMEOUT_SECONDS)
            if isinstance(started, Failure):
                raise CommandError(_failed(started))
            if stop:
                return
            if started is False:
                raise CommandError(f"The web server did not answer at {local} within {START_TIMEOUT_SECONDS} s; "
                                   "the worker and beat have been stopped.")
            url = env["REFEREE_BASE_URL"].rstrip("/") + "/"
            self.stdout.write(self.style.SUCCESS(
                f"\nThe referee is running at {url}\n"
                f"  demo game:   {url}games/{game.pk}/\n"
                f"  API docs:    {url}api/docs/\n"
                f"  sign in as alice, bob or moderator (password: demo)\n"
                f"  web, the Celery workers and beat are running; Ctrl-C stops them all.\n"
            ))
            if check:
                self.stdout.write("web answered; --check done")
                return
            while not stop:
                failure = supervisor.failed()
                if failure is not None:
                    raise CommandError(_failed(failure))
                time.sleep(0.5)
        finally:
            supervisor.stop()


def _failed(failure: Failure) -> str:
    others = "the other processes have been stopped"
    return f"{failure.sentence()}\n{others}."
