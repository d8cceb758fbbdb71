"""Random orders with utilities (§5) from every seat: refused with a RuleViolation or
applied; every position is valid, round-trips and replays; no seat's view or events ever
show another team's invisible worm (§11)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from worms_helpers import SEED, started_game

from games.base import Actor, Command, RuleViolation, Viewer
from games.dice import RecordedDice, SeededDice
from games.worms import RULESET
from games.worms.board import Direction
from games.worms.commands import EndTurn, Fire, MoveWorm, SubmitTurn, UseUtility
from games.worms.notation import format_position, parse, validate
from games.worms.state import Stock, WormsState
from tests.unit.games.worms.worms_helpers import random_square

UTILITIES = ("ninja_rope", "fast_walk", "teleport", "bubble_trouble", "invisibility", "parachute", "crate_spy")


_square = random_square


def _order(rng: random.Random, state: WormsState) -> Command:
    seat = state.seat if rng.random() < 0.9 else rng.choice([t.seat for t in state.teams])
    worms = state.worms_of(seat) or state.worms
    worm = rng.choice(worms) if worms else None
    worm_id, near = (worm.id, worm.square) if worm else ("A1", None)
    roll = rng.random()
    if roll < 0.4:
        path = tuple(_square(rng, near) for _ in range(rng.randint(1, 6)))
        command: Command = MoveWorm(worm=worm_id, path=path)
    elif roll < 0.65:
        utility = rng.choice(UTILITIES)
        command = UseUtility(worm=worm_id, utility=utility, target=_square(rng, None))
    elif roll < 0.8:
        weapon = rng.choice(("prod", "bazooka", "mine", "dynamite", "handgun"))
        target = rng.choice([d.value for d in Direction] + [_square(rng, near)])
        command = Fire(worm=worm_id, weapon=weapon, target=target)
    elif roll < 0.95:
        command = EndTurn()
    else:
        steps = tuple(_order(rng, state) for _ in range(rng.randint(1, 4)))
        kept = tuple(s for s in steps if isinstance(s, MoveWorm | Fire | UseUtility | EndTurn))
        command = SubmitTurn(steps=kept or (EndTurn(),))
    return replace(command, actor=Actor.player(seat))  # type: ignore[arg-type]


def _equipped(game: str, players: int) -> WormsState:
    state = started_game(players, game)
    extra = tuple(Stock(u, 3) for u in UTILITIES) + (Stock("bazooka", 3), Stock("mine", 2), Stock("dynamite", 1))
    teams = tuple(replace(t, inventory=(*t.inventory, *extra)) for t in state.teams)
    return replace(state, teams=teams)


def _check_secrets(state: WormsState, events: tuple) -> None:
    for team in state.teams:
        viewer = Viewer.for_seat(team.seat)
        view = RULESET.view(state, viewer)
        hidden = {w.id for w in state.worms if not w.visible and w.seat != team.seat}
        assert not hidden & {w["id"] for w in view["worms"]}
        for event in events:
            data = RULESET.view_event(event, viewer)
            if data is not None and getattr(event, "private_to", None) is not None:
                assert event.private_to == team.seat


@pytest.mark.parametrize("game", [f"utility-fuzz-{n}" for n in range(6)])
def test_random_utility_orders_keep_positions_valid_and_secrets_hidden(game: str) -> None:
    rng = random.Random(game)
    start = _equipped(game, rng.randint(2, 4))
    state = start
    log = []
    applied = 0
    for seq in range(400):
        if RULESET.is_finished(state):
            break
        work = RULESET.scheduled_work(state)
        command = work[0].command if work and work[0].when == "now" else _order(rng, state)
        dice = SeededDice(SEED, game, seq)
        try:
            events = RULESET.decide(state, command, dice)
        except RuleViolation as exc:
            assert exc.rule.startswith("§") and exc.message, exc
            continue
        applied += 1
        log.append((command, tuple(dice.draws), events))
        state = RULESET.fold(state, events)
        assert validate(state) == [], (validate(state), format_position(state))
        assert format_position(parse(format_position(state))) == format_position(state)
        _check_secrets(state, events)
    assert applied
    replayed = start
    for command, draws, events in log:
        assert RULESET.decide(replayed, command, RecordedDice(draws)) == events
        replayed = RULESET.fold(replayed, events)
