"""The embedded default's process supervision: web, Celery worker and beat as one service.

`manage.py run_embedded` (the README's `make run`) uses it. What a person running it needs:
a port that is taken is named before anything starts, "running" is printed only once the web
server answers, and if any of the three stops the others are stopped too, with the name of the
one that failed and the last lines it wrote (its own words for why).
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

#: The lines of each process's output kept to explain why it stopped.
TAIL_LINES = 20


class PortTaken(Exception):
    """The web server's port is in use: nothing has been started."""


def port_check(host: str, port: int) -> None:
    """Raise PortTaken with a sentence naming REFEREE_PORT when ``host:port`` cannot be bound."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # The same option uvicorn sets: a port left in TIME_WAIT by a previous run is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise PortTaken(
                f"Port {port} on {host} is already in use ({exc.strerror or exc}). Stop what holds it, "
                f"or choose another port: REFEREE_PORT={port + 1} make run"
            ) from exc


def public_address(host: str, port: int) -> str:
    """The address a browser on this machine uses for the server bound to ``host:port``."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else ("[::1]" if host == "::" else host)
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def secret_key(var_dir: Path) -> str:
    """The embedded default's secret key: made once, kept in ``var/`` (never in the repository)."""
    path = var_dir / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def child_environment(*, base: Mapping[str, str], host: str, port: int, var_dir: Path) -> dict[str, str]:
    """The environment of the three processes: debug off unless REFEREE_DEBUG=1, and the public
    address (links in forum posts and e-mails) the one actually served unless REFEREE_BASE_URL says."""
    env = dict(base)
    env.setdefault("REFEREE_LOG_FORMAT", "text")  # a person reads these lines, not a log collector
    debug = env.get("REFEREE_DEBUG", "0") == "1"
    env["DJANGO_DEBUG"] = "1" if debug else "0"
    if not env.get("DJANGO_SECRET_KEY"):
        env["DJANGO_SECRET_KEY"] = secret_key(var_dir)
    env.setdefault("REFEREE_BASE_URL", public_address(host, port))
    hosts = [h for h in env.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1").split(",") if h]
    if host not in ("0.0.0.0", "::", "") and host not in hosts:
        hosts.append(host)
    env["DJANGO_ALLOWED_HOSTS"] = ",".join(hosts)
    return env


def answers(url: str) -> bool:
    """Whether a web server answers at ``url`` (any HTTP status counts: it is up)."""
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


@dataclass
class Child:
    name: str
    describe: str
    process: subprocess.Popen[str]
    tail: deque[str] = field(default_factory=lambda: deque(maxlen=TAIL_LINES))
    echo: threading.Thread | None = None


@dataclass
class Failure:
    name: str
    describe: str
    returncode: int
    tail: tuple[str, ...]

    def sentence(self) -> str:
        said = "\n".join(f"    {line}" for line in self.tail) or "    (it wrote nothing)"
        return f"The {self.describe} ({self.name}) stopped with exit status {self.returncode}. It said:\n{said}"


class Supervisor:
    """Starts named commands, echoes what they write, and notices the first one to stop."""

    def __init__(self, *, out: IO[str] | None = None) -> None:
        self.children: dict[str, Child] = {}
        self._out = out or sys.stderr
        self._lock = threading.Lock()

    def start(self, name: str, describe: str, argv: Sequence[str], *, cwd: str | os.PathLike[str] | None = None,
              env: Mapping[str, str] | None = None) -> None:
        process = subprocess.Popen(list(argv), cwd=cwd, env=dict(env) if env is not None else None,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        child = Child(name, describe, process)
        self.children[name] = child
        child.echo = threading.Thread(target=self._echo, args=(child,), daemon=True, name=f"echo-{name}")
        child.echo.start()

    def _echo(self, child: Child) -> None:
        assert child.process.stdout is not None
        for line in child.process.stdout:
            line = line.rstrip("\n")
            child.tail.append(line)
            with self._lock:
                self._out.write(f"[{child.name}] {line}\n")
                self._out.flush()

    def failed(self) -> Failure | None:
        """The first child found stopped, with what it last wrote."""
        for child in self.children.values():
            code = child.process.poll()
            if code is not None:
                if child.echo is not None:  # what it wrote before it stopped is its reason
                    child.echo.join(timeout=1.0)
                return Failure(child.name, child.describe, code, tuple(child.tail))
        return None

    def wait_until(self, ready: Callable[[], bool], *, timeout: float, poll: float = 0.25) -> Failure | None | bool:
        """Poll ``ready`` until it holds (True), a child stops (its Failure) or ``timeout`` (False)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            failure = self.failed()
            if failure is not None:
                return failure
            if ready():
                return True
            time.sleep(poll)
        return False

    def stop(self, *, grace: float = 10.0) -> None:
        for child in self.children.values():
            if child.process.poll() is None:
                child.process.terminate()
        for child in self.children.values():
            try:
                child.process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                child.process.kill()
                child.process.wait()
