"""Orders are bounded before the referee sees them: nothing a player sends can be big
enough to grow the append-only log at will."""

from __future__ import annotations

import pytest

from games.base import RuleViolation
from referee.limits import MAX_LIST, MAX_STRING, order_check


def test_an_ordinary_order_passes():
    order_check("MoveWorm", {"worm": "A1", "path": ["c5", "c6"]})


@pytest.mark.parametrize(("payload", "words"), [
    ({"target": "x" * (MAX_STRING + 1)}, "characters long"),
    ({"path": ["c5"] * (MAX_LIST + 1)}, "at most 200 items"),
    ({"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {"i": 1}}}}}}}}}, "deep"),
    ({f"k{i}": "x" * 400 for i in range(60)}, "at most 16 KB"),
])
def test_an_order_over_a_bound_is_refused_in_plain_words(payload, words):
    with pytest.raises(RuleViolation) as refused:
        order_check("Fire", payload)
    assert refused.value.rule == "order" and words in refused.value.message


def test_an_order_type_is_a_short_name():
    with pytest.raises(RuleViolation, match="1 to 80 characters"):
        order_check("X" * 81, {})
