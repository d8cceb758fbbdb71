"""An order's body read without the serializer (``api.views.play.plain_order``) gives
exactly what the serializer gives, or leaves the body to the serializer."""

from __future__ import annotations

import pytest

from api.views.play import GameCommandApi, plain_order

BODIES = [
    {"type": "Roll"},
    {"type": "Roll", "payload": {}},
    {"type": "MoveWorm", "payload": {"worm": "A1", "path": ["c5"]}, "expected_seq": 7},
    {"type": "Hold", "payload": {}, "expected_seq": 0},
    {"type": "Hold", "unknown": 1},
    {"type": " Hold "},
    {"type": ""},
    {"type": "   "},
    {"type": "x" * 80},
    {"type": "x" * 81},
    {"type": "Hold\x00"},
    {"type": "Höld"},
    {"type": 5},
    {"type": True},
    {"type": None},
    {"payload": {}},
    {"type": "Hold", "payload": None},
    {"type": "Hold", "payload": []},
    {"type": "Hold", "payload": "x"},
    {"type": "Hold", "expected_seq": -1},
    {"type": "Hold", "expected_seq": None},
    {"type": "Hold", "expected_seq": True},
    {"type": "Hold", "expected_seq": "3"},
    {"type": "Hold", "expected_seq": 3.0},
    {"type": "Hold", "expected_seq": 10**20},
    [],
    "Hold",
]


def _by_the_serializer(body: object) -> tuple[str, dict, int | None] | None:
    data = GameCommandApi.InputSerializer(data=body)
    if not data.is_valid():
        return None
    d = data.validated_data
    return d["type"], d["payload"], d.get("expected_seq")


@pytest.mark.parametrize("body", BODIES, ids=repr)
def test_a_body_read_without_the_serializer_is_read_as_the_serializer_reads_it(body):
    plain = plain_order(body)
    if plain is not None:
        assert plain == _by_the_serializer(body)
        assert type(plain[1]) is dict


def test_the_usual_bodies_are_read_without_the_serializer():
    assert plain_order({"type": "Roll", "payload": {}}) == ("Roll", {}, None)
    assert plain_order({"type": "Hold", "payload": {"a": [1]}, "expected_seq": 4}) == ("Hold", {"a": [1]}, 4)
