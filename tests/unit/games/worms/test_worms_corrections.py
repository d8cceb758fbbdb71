"""Moderators' corrections: new orders that change the position, never edits of history."""

from __future__ import annotations

import pytest

from games.base import MODERATOR, Actor, RuleViolation
from games.dice import NoDice
from games.worms import RULESET
from games.worms.board import name
from games.worms.commands import ModeratorCorrection
from games.worms.events import WormDied
from tests.unit.games.worms.worms_helpers import started_game


def correct(state, **fields):
    events = RULESET.decide(state, ModeratorCorrection(actor=MODERATOR, **fields), NoDice())
    return RULESET.fold(state, events), events


def free_land(state):
    return next(
        (x, y) for y in range(15) for x in range(15)
        if not state.is_water((x, y)) and state.empty((x, y))
    )


def test_only_a_moderator_may_correct_the_game():
    state = started_game()
    worm = state.worms[0]
    with pytest.raises(RuleViolation, match="Only a moderator"):
        RULESET.decide(state, ModeratorCorrection(actor=Actor.player(worm.seat), action="set_health",
                                                  worm=worm.id, health=10), NoDice())


def test_a_miscounted_hit_is_corrected_by_setting_health():
    state = started_game()
    worm = state.worms[0]
    state, events = correct(state, action="set_health", worm=worm.id, health=95)
    assert state.worm(worm.id).health == 95
    state, _ = correct(state, action="set_health", worm=worm.id, health=140)
    assert state.worm(worm.id).health == 140


def test_a_misplaced_worm_is_moved_to_a_free_square_only():
    state = started_game()
    worm, other = state.worms[0], state.worms[1]
    target = free_land(state)
    state, _ = correct(state, action="move_worm", worm=worm.id, square=name(target))
    assert state.worm(worm.id).square == target
    with pytest.raises(RuleViolation, match="not free"):
        correct(state, action="move_worm", worm=worm.id, square=name(other.square))


def test_a_worm_wrongly_killed_is_restored():
    state = started_game()
    worm = state.worms[0]
    state = RULESET.fold(state, (WormDied(worm.id, "health"),))
    assert state.worm(worm.id) is None
    target = free_land(state)
    state, _ = correct(state, action="restore_worm", worm=worm.id, square=name(target), health=60)
    restored = state.worm(worm.id)
    assert (restored.seat, restored.square, restored.health) == (worm.seat, target, 60)
    with pytest.raises(RuleViolation, match="is alive"):
        correct(state, action="restore_worm", worm=worm.id, square=name(free_land(state)), health=60)


def test_wrongly_spent_ammunition_is_returned_privately():
    state = started_game()
    seat = state.worms[0].seat
    before = state.stock(seat, "bazooka") or 0
    state, events = correct(state, action="return_ammo", seat=seat, item="bazooka", count=1)
    assert state.stock(seat, "bazooka") == before + 1
    assert all(RULESET.event_audience(e).seat == seat for e in events)
    with pytest.raises(RuleViolation, match="not an item"):
        correct(state, action="return_ammo", seat=seat, item="prod", count=1)


def test_an_unknown_correction_is_refused():
    with pytest.raises(RuleViolation, match="one of"):
        correct(started_game(), action="rewind")
