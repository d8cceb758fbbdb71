"""P-R4: a tick is the game's turn limit; ``clock_settings`` makes the two one figure."""

from __future__ import annotations

import pytest

from games.base import RuleViolation
from games.parties import RULESET


def test_the_turn_limit_becomes_the_tick():
    assert RULESET.clock_settings({"width": 8}, 20) == ({"width": 8, "tick_seconds": 20}, 20)


def test_a_tick_alone_becomes_the_turn_limit():
    assert RULESET.clock_settings({"tick_seconds": 45}, None) == ({"tick_seconds": 45}, 45)


def test_the_same_figure_twice_is_accepted():
    assert RULESET.clock_settings({"tick_seconds": 30}, 30) == ({"tick_seconds": 30}, 30)


def test_a_tick_and_a_turn_limit_that_disagree_are_refused():
    with pytest.raises(RuleViolation) as refused:
        RULESET.clock_settings({"tick_seconds": 45}, 20)
    assert refused.value.rule == "P-R4"


def test_neither_given_leaves_the_defaults_which_agree():
    settings, limit = RULESET.clock_settings({}, None)
    assert limit is None
    assert RULESET.parse_settings(settings).tick_seconds == RULESET.turn_limits.default
