"""Random orders, good and bad, from every seat: the engine either refuses them with a
RuleViolation or applies them; every position reached is valid, and the log replays."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from parties_helpers import SEED, started_game

from games.base import REFEREE, SCHEDULER, Actor, Command, RuleViolation
from games.dice import RecordedDice, SeededDice
from games.parties import RULESET
from games.parties.board import CHOICES
from games.parties.bounds import counted
from games.parties.commands import Move, ResolveTick, SetAllyPolicy, StartTick
from games.parties.notation import format_position, parse, validate
from games.parties.state import ALLY_POLICIES, PartiesState


def _order(rng: random.Random, state: PartiesState) -> Command:
    # mostly bots that may move, so that ticks close with moves and bots meet
    movers = sorted(state.movers() - {s for s, _ in state.pending})
    seat = rng.choice(movers) if movers and rng.random() < 0.8 else rng.choice([*state.seats, 99])
    roll = rng.random()
    at = state.tick_start_ms + rng.randint(0, state.tick_ms + 2000)
    if roll < 0.75:
        direction = rng.choice([*CHOICES, "UP"]) if rng.random() < 0.98 else ""
        tick = rng.choice([None, None, state.tick, state.tick + 1])
        return Move(direction=direction, tick=tick, actor=Actor.player(seat), at_ms=at)
    if roll < 0.85:
        return SetAllyPolicy(policy=rng.choice([*ALLY_POLICIES, "sometimes"]), actor=Actor.player(seat), at_ms=at)
    if roll < 0.97:
        actor = rng.choice([SCHEDULER, SCHEDULER, REFEREE, Actor.player(seat)])
        return ResolveTick(tick=rng.choice([state.tick, state.tick, state.tick - 1]), actor=actor, at_ms=at)
    return StartTick(tick=1, actor=SCHEDULER, at_ms=at)


@pytest.mark.parametrize("game", [f"fuzz-{n}" for n in range(5)])
def test_random_orders_are_refused_or_applied_and_every_position_is_valid(game: str) -> None:
    rng = random.Random(game)
    start = started_game(rng.randint(2, 8), game, width=8, height=7, obstacle_percent=20, max_ticks=60)
    state = start
    log: list[tuple[Command, list, tuple]] = []
    applied = 0
    for seq in range(600):
        if RULESET.is_finished(state):
            break
        command = _order(rng, state)
        dice = SeededDice(SEED, game, seq)
        try:
            events = RULESET.decide(state, command, dice)
        except RuleViolation as exc:
            assert exc.message and exc.rule
            continue
        applied += 1
        log.append((command, list(dice.draws), events))
        state = RULESET.fold(state, events)
        assert not validate(state), f"{validate(state)} in {format_position(state)}"
        # The notation is the position; the orders counted this tick (P-R19) are bookkeeping.
        assert counted(parse(format_position(state))) == replace(state, moves_given=(), policies_given=())
    assert applied > 20
    replayed = start
    for command, draws, events in log:
        dice = RecordedDice(draws)
        assert RULESET.decide(replayed, command, dice) == events
        assert dice.unused == 0
        replayed = RULESET.fold(replayed, events)
    assert replayed == state
    assert RULESET.state_from_data(RULESET.state_to_data(state)) == state
