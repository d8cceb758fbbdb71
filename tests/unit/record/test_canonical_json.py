"""The canonical JSON that every record's hash covers is byte for byte what ``json.dumps``
writes with the recipe's options, however it is produced (logs written before stay valid)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.record.hashing import canonical, compact_encoder

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
