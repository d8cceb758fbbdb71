"""The examples of docs/api.md run: every ```http block is sent, in order, to the real views
and its answer must match the status and the JSON pattern the block shows. Each request's
operation must be in the schema, and each error it shows must be documented there."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

pytestmark = [pytest.mark.django_db]

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
BLOCK = re.compile(r"```http\n(.*?)```", re.S)
PLACEHOLDER = re.compile(r"\{(\w+)\}")


@dataclass
class Example:
    method: str
    path: str
    headers: dict[str, str]
    body: str
    status: int
    expected: str
    line: int = 0
    raw: str = field(default="", repr=False)


def examples() -> list[Example]:
    text = DOC.read_text()
    found = []
    for match in BLOCK.finditer(text):
        block = match.group(1)
        request, _, answer = block.partition("\nHTTP ")
        lines = request.strip("\n").split("\n")
        method, path = lines[0].split(" ", 1)
        headers, body_lines = {}, []
        for line in lines[1:]:
            if not body_lines and re.match(r"^[A-Za-z-]+: ", line):
                name, value = line.split(": ", 1)
                headers[name] = value
            elif line.strip():
                body_lines.append(line)
        status, _, expected = answer.partition("\n")
        found.append(Example(method, path.strip(), headers, "\n".join(body_lines), int(status.strip()),
                             expected.strip(), text[:match.start()].count("\n") + 1, block))
    return found


def fill(text: str, known: dict[str, str]) -> str:
    return PLACEHOLDER.sub(lambda m: known.get(m[1], m[0]), text)


def match(expected: Any, actual: Any, known: dict[str, str], where: str = "") -> None:
    if isinstance(expected, str) and (m := re.fullmatch(r"\{(\w+)\}", expected)):
        name = m[1]
        if name in known:
            assert str(actual) == known[name], f"{where}: {actual!r} is not {{{name}}} = {known[name]!r}"
        else:
            known[name] = str(actual)
        return
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{where}: no field {key!r} in {sorted(actual)}"
            match(value, actual[key], known, f"{where}.{key}")
        return
    if isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) >= len(expected), f"{where}: {actual!r}"
        for i, value in enumerate(expected):
            match(value, actual[i], known, f"{where}[{i}]")
        return
    assert actual == expected, f"{where}: {actual!r} != {expected!r}"


def send(client: APIClient, example: Example, known: dict[str, str]) -> Any:
    extra = {"HTTP_" + k.upper().replace("-", "_"): fill(v, known) for k, v in example.headers.items()}
    path = fill(example.path, known)
    body = fill(example.body, known)
    if body:
        return client.generic(example.method, path, body.encode(), content_type="application/json", **extra)
    return client.generic(example.method, path, **extra)


def streamed_text(response: Any, expected: str) -> str:
    """The first chunks of an event stream, until they hold what the example shows."""
    text = ""
    for chunk in response.streaming_content:
        text += chunk.decode()
        if expected in text or text.count("\n\n") > 5:
            break
    # Left open: the test client's wrapper closes it when it is collected, without letting
    # request_finished close the test's database connection (response.close() here would).
    return text


def schema_operation(schema: dict[str, Any], method: str, path: str) -> dict[str, Any] | None:
    bare = path.split("?", 1)[0]
    for template, operations in schema["paths"].items():
        pattern = "^" + re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, bare):
            return operations.get(method.lower())
    return None


def test_the_examples_in_docs_api_md_run_as_shown():
    cases = examples()
    assert len(cases) >= 10, "the examples of docs/api.md were not found"
    schema = APIClient().get("/api/schema/?format=json").json()
    known: dict[str, str] = {}
    client = APIClient()
    for example in cases:
        where = f"docs/api.md:{example.line} {example.method} {example.path}"
        operation = schema_operation(schema, example.method, fill(example.path, known))
        assert operation is not None, f"{where}: not in the schema"
        assert str(example.status) in operation["responses"], f"{where}: {example.status} is not documented"
        response = send(client, example, known)
        assert response.status_code == example.status, (where, response.status_code, response.content[:500])
        if getattr(response, "streaming", False):
            text = streamed_text(response, example.expected)
            assert example.expected in text, (where, text[:500])
            continue
        if example.status >= 400:
            assert response["Content-Type"] == "application/problem+json", where
        if example.expected:
            match(json.loads(fill(example.expected, {})), response.json(), known, where)
