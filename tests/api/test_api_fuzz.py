"""Fuzzing the API: stateful schemathesis runs (create a game, then use its id, following
the schema's links) and hand-written hostile bodies against every write. No answer may be
a 5xx, and every error must be problem+json.

The default run sends a few hundred requests; ``REFEREE_FUZZ_REQUESTS=10000`` sends at least
that many (what the reliability table in docs/architecture.md reports)."""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.wsgi import application
from tests.factories import ModeratorFactory, started_game

pytestmark = [pytest.mark.django_db]

TARGET = int(os.environ.get("REFEREE_FUZZ_REQUESTS", "300"))
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)


class Tally:
    """Every answer seen, and the ones that break the rule."""

    def __init__(self) -> None:
        self.statuses: Counter[int] = Counter()
        self.broken: list[str] = []

    def see(self, what: str, status: int, content_type: str, text: str) -> None:
        self.statuses[status] += 1
        if status >= 500:
            self.broken.append(f"{what} -> {status}: {text[:300]}")
        elif status >= 400 and not content_type.startswith("application/problem+json"):
            self.broken.append(f"{what} -> {status} as {content_type}: {text[:200]}")

    @property
    def total(self) -> int:
        return sum(self.statuses.values())

    def report(self, name: str) -> None:
        print(f"\n{name}: {self.total} requests, statuses {dict(sorted(self.statuses.items()))}")
        assert not self.broken, "\n".join(self.broken[:20])


def header(response: Any, name: str) -> str:
    for key, value in response.headers.items():
        if key.lower() == name:
            return value[0] if isinstance(value, list) else str(value)
    return ""


@pytest.fixture
def wsgi_in_test_transaction():
    """Keep the WSGI app from closing the test's connection after each request (what
    Django's test client does), so schemathesis' calls see the test's data."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def test_stateful_runs_never_answer_5xx_and_every_error_is_problem_json(wsgi_in_test_transaction):
    game, seats = started_game()
    player = Token.objects.create(user=seats[0].user).key
    moderator = Token.objects.create(user=ModeratorFactory()).key
    tally = Tally()
    steps = 10
    scenarios = max(4, TARGET // 2 // steps)

    class Workflow(schema.as_state_machine()):  # type: ignore[misc]
        def setup(self) -> None:
            self.turn = 0

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            self.turn += 1
            token = (player, moderator, None)[self.turn % 3]  # a player, a moderator, a stranger
            headers = {"Authorization": f"Token {token}"} if token else {}
            if case.query and "wait" in case.query:
                case.query["wait"] = 0  # a long-poll would only make the run wait (test_streams covers it)
            if "{game_id}" in case.path and self.turn % 4 == 0:
                case.path_parameters = {**(case.path_parameters or {}), "game_id": str(game.pk)}
            return {"headers": headers}

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            tally.see(f"{case.method} {case.formatted_path}", response.status_code, header(response, "content-type"),
                      response.text)

    run_state_machine_as_test(Workflow, settings=settings(
        max_examples=scenarios, stateful_step_count=steps, deadline=None, derandomize=True,
        suppress_health_check=list(HealthCheck), database=None))
    tally.report("stateful")


HOSTILE: list[tuple[str, bytes, str]] = [
    ("nested arrays", b"[" * 50_000 + b"]" * 50_000, "application/json"),
    ("nested objects", b'{"a":' * 5_000 + b"1" + b"}" * 5_000, "application/json"),
    ("a lone surrogate in a value", b'{"type": "WriteNote", "payload": {"text": "\\ud800"}, "name": "\\udfff"}',
     "application/json"),
    ("a lone surrogate in a key", b'{"\\ud800": 1, "settings": {"\\udbff": 2}}', "application/json"),
    ("a 5,000-digit number", b'{"seats": ' + b"9" * 5_000 + b', "expected_seq": 1}', "application/json"),
    ("a number beyond a double", b'{"seats": 1e400, "settings": {"target": 1e400}, "payload": {"x": -1e999}}',
     "application/json"),
    ("NaN and Infinity", b'{"settings": {"target": NaN}, "payload": {"x": Infinity}}', "application/json"),
    ("a 1 MB string", b'{"name": "' + b"x" * 1_000_000 + b'", "type": "' + b"y" * 1000 + b'"}', "application/json"),
    ("a long list", b'{"steps": [' + b"{}," * 100_000 + b"{}]}", "application/json"),
    ("not UTF-8", b'{"name": "\xff\xfe\xfa"}', "application/json"),
    ("a byte-order mark", b'\xef\xbb\xbf{"name": "x"}', "application/json"),
    ("not JSON", b"{'name': 'x',", "application/json"),
    ("a bare value", b'"just a string"', "application/json"),
    ("null", b"null", "application/json"),
    ("an array", b'[{"type": "EndTurn"}]', "application/json"),
    ("empty", b"", "application/json"),
    ("duplicate keys", b'{"type": "EndTurn", "type": "Roll", "payload": {}, "payload": []}', "application/json"),
    ("a NUL escape", b'{"name": "a\\u0000b"}', "application/json"),
    ("wrong types everywhere", b'{"name": [], "ruleset": {}, "seats": "two", "settings": "x", "type": 5, '
     b'"payload": [1], "steps": {"a": 1}, "enabled": "yes", "signup_order": 7, "expected_seq": -1}',
     "application/json"),
    ("a sign-up order that is no order", b'{"name": "T", "signup_order": {"type": "\\ud800", "payload": "x"}}',
     "application/json"),
    ("form fields", b"name=%ED%A0%80&payload=%00&type=%FF", "application/x-www-form-urlencoded"),
    ("a broken multipart body", b"--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1", "multipart/form-data"),
    ("multipart without a boundary", b"garbage", "multipart/form-data"),
    ("text", b"hello", "text/plain"),
    ("XML", b"<order/>", "application/xml"),
]


def write_operations(game_id: str, league_id: int) -> list[tuple[str, str]]:
    spec = APIClient().get("/api/schema/?format=json").json()
    found = []
    for path, operations in spec["paths"].items():
        for method in operations:
            if method in ("post", "put", "patch"):
                found.append((method.upper(), path.replace("{game_id}", game_id).replace("{league_id}", str(league_id))))
    return found


def test_hostile_bodies_against_every_write_get_4xx_problem_json():
    from referee import lobby

    game, seats = started_game()
    moderator = ModeratorFactory()
    league = lobby.league_create(moderator=moderator, name="L", ruleset="pig", seats_per_game=2, game_settings={},
                                 turn_limit_seconds=None)
    clients = [APIClient(), APIClient(), APIClient()]
    clients[1].force_authenticate(seats[0].user)
    clients[2].force_authenticate(moderator)
    operations = write_operations(str(game.pk), league.pk)
    tally = Tally()
    rounds = max(1, math.ceil(TARGET / 2 / (len(operations) * len(HOSTILE))))
    for r in range(rounds):
        for method, path in operations:
            for i, (name, body, content_type) in enumerate(HOSTILE):
                client = clients[(r + i) % len(clients)]
                headers = {"HTTP_IDEMPOTENCY_KEY": f"k{r}-{i}"} if i % 2 else {}
                response = client.generic(method, path, body, content_type=content_type, **headers)
                tally.see(f"{method} {path} [{name}]", response.status_code, response.get("Content-Type", ""),
                          response.content.decode(errors="replace"))
                assert response.status_code < 500 or not json.loads(response.content or b"{}").get("a")
    tally.report("hostile bodies")
