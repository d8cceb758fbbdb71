"""The OpenAPI schema is the contract: valid, complete, and no input produces a 5xx."""

from __future__ import annotations

import io
import re

import pytest
import schemathesis
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, settings

from config.wsgi import application
from tests.factories import started_game

pytestmark = [pytest.mark.django_db]


def test_the_schema_is_valid_openapi_without_warnings():
    out = io.StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", "--format", "openapi-json", stdout=out)
    assert '"openapi": "3' in out.getvalue()


def _api_routes(resolver=None, prefix=""):
    resolver = resolver or get_resolver()
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            yield from _api_routes(p, prefix + str(p.pattern))
        elif isinstance(p, URLPattern) and p.name != "api-not-found":  # the catch-all 404
            yield prefix + str(p.pattern)


def test_every_api_route_is_in_the_schema(client):
    schema = client.get("/api/schema/?format=json").json()
    documented = set(schema["paths"])
    for route in _api_routes():
        if not route.startswith("api/") or route in ("api/schema/", "api/docs/"):
            continue
        path = "/" + re.sub(r"<\w+:(\w+)>", r"{\1}", route)
        assert path in documented, f"{path} is served but not documented"


def test_every_operation_documents_its_responses(client):
    schema = client.get("/api/schema/?format=json").json()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            assert operation.get("responses"), f"{method.upper()} {path} has no documented response"


def test_every_operation_documents_its_errors_as_problem_json(client):
    schema = client.get("/api/schema/?format=json").json()
    assert set(schema["components"]["schemas"]["Problem"]["required"]) == {"type", "title", "status", "detail"}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            errors = {code: r for code, r in operation["responses"].items() if code >= "400"}
            expected = {"400", "429", "500"} | ({"404"} if "{" in path else set())
            assert expected <= set(errors), f"{method.upper()} {path} documents only {sorted(errors)}"
            for code, response in errors.items():
                assert list(response["content"]) == ["application/problem+json"], (method, path, code)


def test_a_whole_turn_step_is_documented_as_the_rulesets_step_orders(client):
    schema = client.get("/api/schema/?format=json").json()
    steps = schema["components"]["schemas"]["GameTurnInput"]["properties"]["steps"]["items"]["anyOf"]
    worms = next(s for s in steps if "Worms" in s["title"])
    refs = {r["$ref"].rsplit("/", 1)[-1] for r in worms["anyOf"]}
    assert {"Worms_MoveWorm", "Worms_Fire", "Worms_EndTurn"} <= refs


schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)


@pytest.fixture
def seeded_game(db):
    """A game to aim at, and the WSGI app kept from closing the test's database connection
    after each request (what Django's own test client does)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield started_game()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_input_produces_a_server_error(case, seeded_game):
    if case.query and "wait" in case.query:
        case.query["wait"] = 0  # a long-poll only makes the run wait
    response = case.call()
    assert response.status_code < 500, (case.method, case.formatted_path, response.text[:500])
    if response.status_code >= 400:
        content_type = response.headers.get("Content-Type") or response.headers.get("content-type") or ""
        content_type = content_type[0] if isinstance(content_type, list) else content_type
        assert content_type == "application/problem+json", (case.method, case.formatted_path, response.text[:300])


def test_the_schema_copy_in_docs_is_current():
    from pathlib import Path

    out = io.StringIO()
    call_command("spectacular", stdout=out)
    copy = Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml"
    assert copy.read_text() == out.getvalue(), "run: manage.py spectacular --file docs/openapi.yaml"
