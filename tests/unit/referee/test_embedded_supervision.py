"""The embedded default's supervision (`make run`): a taken port is named before anything
starts, and a process that stops takes the others down with its own words for why."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

from referee.embedded import (
    Failure,
    PortTaken,
    Supervisor,
    child_environment,
    port_check,
    public_address,
)


def test_a_taken_port_is_refused_with_a_sentence_naming_referee_port():
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        with pytest.raises(PortTaken) as refused:
            port_check("127.0.0.1", port)
    assert f"Port {port} on 127.0.0.1 is already in use" in str(refused.value)
    assert "REFEREE_PORT=" in str(refused.value)


def test_a_free_port_passes_the_check():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    port_check("127.0.0.1", port)


def test_a_process_that_stops_is_named_with_what_it_said_and_the_others_are_stopped():
    supervisor = Supervisor(out=open("/dev/null", "w"))  # noqa: SIM115 - closed with the process
    supervisor.start("sleeper", "long runner", [sys.executable, "-c", "import time; time.sleep(60)"])
    supervisor.start("web", "web server", [sys.executable, "-c",
                                           "import sys; print('address already in use'); sys.exit(3)"])
    try:
        outcome = supervisor.wait_until(lambda: False, timeout=30, poll=0.05)
    finally:
        supervisor.stop(grace=5)
    assert isinstance(outcome, Failure)
    assert outcome.name == "web" and outcome.returncode == 3
    assert "The web server (web) stopped with exit status 3" in outcome.sentence()
    assert "address already in use" in outcome.sentence()
    assert supervisor.children["sleeper"].process.poll() is not None


def test_debug_is_off_unless_referee_debug_says_so(tmp_path: Path):
    env = child_environment(base={}, host="127.0.0.1", port=8123, var_dir=tmp_path)
    assert env["DJANGO_DEBUG"] == "0"
    assert env["DJANGO_SECRET_KEY"] and env["DJANGO_SECRET_KEY"] == (tmp_path / "secret_key").read_text()
    assert child_environment(base={"REFEREE_DEBUG": "1"}, host="127.0.0.1", port=8123,
                             var_dir=tmp_path)["DJANGO_DEBUG"] == "1"


def test_forum_links_point_at_the_port_actually_served(tmp_path: Path):
    env = child_environment(base={}, host="127.0.0.1", port=8123, var_dir=tmp_path)
    assert env["REFEREE_BASE_URL"] == "http://127.0.0.1:8123"
    told = child_environment(base={"REFEREE_BASE_URL": "https://worms.example.org"}, host="127.0.0.1",
                             port=8123, var_dir=tmp_path)
    assert told["REFEREE_BASE_URL"] == "https://worms.example.org"


def test_a_server_on_every_address_is_reached_through_loopback():
    assert public_address("0.0.0.0", 9000) == "http://127.0.0.1:9000"
    assert public_address("::", 9000) == "http://[::1]:9000"
