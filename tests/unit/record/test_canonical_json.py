"""The canonical JSON that every record's hash covers is byte for byte what ``json.dumps``
writes with the recipe's options, however it is produced (logs written before stay valid)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.record.hashing import (
    GENESIS,
    canonical,
    chain_hash,
    compact_encoder,
    hash_body,
    record_hash,
    v2_body_json,
)

VALUES: list[Any] = [
    {"b": 1, "a": [1.5, None, True, False, 'quote " backslash \\ tab \t', "é ü 日本", "\u2028"]},
    {"z": {"y": {"x": []}}, "n": -0.0, "big": 10**30, "small": 1e-7, "inf": float("inf")},
    {"seat": 2, "value": 6}, [], {}, "bare string", 3, None, [[1, [2, [3]]], {"k": "v"}],
]


@pytest.mark.parametrize("value", VALUES)
def test_canonical_json_is_json_dumps_with_sorted_keys_no_spaces_and_utf8(value: Any) -> None:
    assert canonical(value) == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("value", VALUES)
def test_the_compact_ascii_encoding_is_json_dumps_without_spaces(value: Any) -> None:
    assert compact_encoder(sort_keys=False, ensure_ascii=True)(value) == json.dumps(value, separators=(",", ":"))


def test_a_value_that_is_not_json_is_refused_as_json_dumps_refuses_it() -> None:
    with pytest.raises(TypeError, match="not JSON serializable"):
        canonical({"when": object()})


class Tagged(str):
    pass


BODIES: list[dict[str, Any]] = [
    {"game": "6f1c2a7e-3c57-4c4b-9d7a-0c1f9d2f7a11", "seq": 1, "kind": "event", "type": "DieRolled",
     "schema_version": 1, "payload": {"value": 6, "seat": 2}, "audience_kind": "everyone", "audience_seats": (),
     "actor_kind": "referee", "actor_seat": None, "idempotency_key": None, "cause_seq": None, "draws": (),
     "created_at": "2026-12-01T15:00:00.123456+00:00"},
    {"game": "g", "seq": 123456, "kind": "command", "type": "Orders", "schema_version": 3,
     "payload": {"text": 'é "quoted" \\ \n', "nested": {"b": [1, 2.5, None], "a": True}}, "audience_kind": "seats",
     "audience_seats": (1, 3), "actor_kind": "player", "actor_seat": 3, "idempotency_key": "key-ü\"1",
     "cause_seq": 7, "draws": ({"purpose": "d6", "value": 4}, {"purpose": "é", "value": 1}),
     "created_at": "2026-12-01T15:00:00+00:00"},
    # types the frame does not write itself: the general path, the same text
    {"game": Tagged("g"), "seq": True, "kind": "event", "type": "T", "schema_version": 1, "payload": {},
     "audience_kind": "everyone", "audience_seats": (), "actor_kind": "referee", "actor_seat": False,
     "idempotency_key": None, "cause_seq": None, "draws": (), "created_at": "now"},
]


@pytest.mark.parametrize("fields", BODIES)
def test_a_version_2_body_written_into_its_frame_is_its_canonical_json(fields: dict[str, Any]) -> None:
    body = hash_body(record_version=2, audience_seat=None, **fields)
    assert v2_body_json(**fields) == canonical(body)
    assert chain_hash(GENESIS, v2_body_json(**fields)) == record_hash(GENESIS, body)
