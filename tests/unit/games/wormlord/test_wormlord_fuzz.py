"""Random orders at random arrival times: never a crash, replay equals live play, every
position reached is valid and prints as notation that reads back the same."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from wormlord_helpers import play_random

from games.base import PUBLIC
from games.wormlord import RULESET
from games.wormlord.bounds import counted
from games.wormlord.notation import format_position, parse, validate

VARIANTS = [
    (2, {}),
    (3, {"map": "Mountain King"}),
    (4, {"map": "musical-chairs", "time_limit": True, "round_seconds": 60}),
    (4, {"teams": True, "knot_interval_ms": 500}),
    (8, {"teams": True, "map": "Into the Woods", "untie_ms": 0}),
    (2, {"map": "duel", "knot_interval_ms": 0, "countdown_ms": 0, "break_ms": 0}),
]


@pytest.mark.parametrize(("seats", "settings"), VARIANTS)
@pytest.mark.parametrize("seed", range(3))
def test_random_orders_never_crash_and_replay_equals_live_play(seats: int, settings: dict, seed: int) -> None:
    played = play_random(seed, seats, 400, **settings)
    assert played.accepted > 0 and played.refused > 0
    assert RULESET.fold(RULESET.initial_state(), played.events) == played.state
    assert validate(played.state) == [], repr(played.state)
    text = format_position(played.state)
    assert format_position(parse(text)) == text
    # The notation is the position; the orders counted this round (WL-R18) are bookkeeping.
    assert counted(parse(text)) == replace(played.state, hq_moves=(), said=())


def test_random_play_finishes_games() -> None:
    finished = [RULESET.is_finished(play_random(seed, 2, 3000).state) for seed in range(3)]
    assert any(finished)


def test_every_position_after_an_order_of_a_random_game_is_valid_and_round_trips() -> None:
    played = play_random(7, 3, 300)
    assert len(played.states) > 50
    for state in played.states:
        assert validate(state) == [], repr(state)
        json.dumps([RULESET.view(state, PUBLIC), RULESET.state_to_data(state)])
        RULESET.result(state)
        assert counted(parse(format_position(state))) == replace(state, hq_moves=(), said=())
