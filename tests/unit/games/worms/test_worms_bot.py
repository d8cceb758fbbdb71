"""The ``bot`` deadline policy plays a fair turn that is never refused."""

from __future__ import annotations

import pytest
from worms_helpers import SEED, started_game

from games.base import RuleViolation
from games.dice import NoDice, SeededDice
from games.worms import RULESET
from games.worms.commands import EndTurn, Fire, MoveWorm, SubmitTurn
from games.worms.notation import format_position, parse, validate

FLAT = "/".join(["5{15}"] * 15)


def test_the_bot_prods_an_enemy_into_the_water() -> None:
    board = FLAT.split("/")
    board[4] = "5550" + "5{11}"  # d5 is water
    state = parse(f"{'/'.join(board)} 0 - 2/10 3:1 A1,B2 A1@a3:150,B1@c5:150 - - - - A:prod*;B:prod* -")
    command = RULESET.deadline_command(state, (1,), "bot")
    assert isinstance(command, SubmitTurn)
    assert command.steps[-2] == Fire(worm="A1", weapon="prod", target="E")
    after = RULESET.fold(state, RULESET.decide(state, command, NoDice()))
    assert after.worm("B1") is None
    assert after.winner == 1


def test_the_bot_walks_to_a_crate_and_avoids_mines() -> None:
    state = parse(f"{FLAT} 0 - 2/10 3:1 A1,B2 A1@c3:150,B1@k11:150 c4d - d4h - A:prod*;B:prod* -")
    command = RULESET.deadline_command(state, (1,), "bot")
    assert isinstance(command, SubmitTurn)
    move = command.steps[0]
    assert isinstance(move, MoveWorm) and move.path == ("d3", "d4")
    assert command.steps[-1] == EndTurn()
    after = RULESET.fold(state, RULESET.decide(state, command, NoDice()))
    assert after.worm("A1").health == 180


@pytest.mark.parametrize("game", ["bot-1", "bot-2", "bot-3", "bot-4"])
def test_bots_play_whole_games_without_a_refused_order(game: str) -> None:
    state = started_game(4, game)
    for seq in range(600):
        if RULESET.is_finished(state):
            break
        work = RULESET.scheduled_work(state)
        if work[0].when == "now":
            command = work[0].command
        else:
            command = RULESET.deadline_command(state, work[0].seats, "bot")
        try:
            events = RULESET.decide(state, command, SeededDice(SEED, game, seq))
        except RuleViolation as exc:  # pragma: no cover - the failure message is the point
            raise AssertionError(f"{exc} for {command} in {format_position(state)}") from exc
        state = RULESET.fold(state, events)
        assert validate(state) == []
    assert RULESET.is_finished(state)


def test_the_referee_plays_the_bot_turn_under_its_own_name() -> None:
    from dataclasses import replace

    from games.base import REFEREE

    state = parse(f"{FLAT} 0 - 2/10 3:1 A1,B2 A1@c3:150,B1@k11:150 c4d - d4h - A:prod*;B:prod* -")
    command = RULESET.deadline_command(state, (1,), "bot")
    data = RULESET.command_to_data(command)
    stamped = replace(RULESET.command_from_data(type(command).__name__, data), actor=REFEREE)
    after = RULESET.fold(state, RULESET.decide(state, stamped, NoDice()))
    assert after.worm("A1").square == (3, 3)
    assert after.seat == 2


def test_the_bot_shoots_a_visible_enemy_in_reach_with_what_the_team_owns() -> None:
    state = parse(f"{FLAT} 0 - 2/10 3:1 A1,B2 A1@c3:150,B1@c8:150 - - - - A:prod*+handgun*+shotgun1;B:prod* -")
    command = RULESET.deadline_command(state, (1,), "bot")
    assert isinstance(command, SubmitTurn)
    assert command.steps[-2] == Fire(worm="A1", weapon="shotgun", target="c8")
    after = RULESET.fold(state, RULESET.decide(state, command, NoDice()))
    assert after.worm("B1").health == 125


def test_the_bot_does_not_shoot_through_its_own_team() -> None:
    state = parse(f"{FLAT} 0 - 2/10 3:1 A1,B2 A1@c3:150,A2@d8:150,B1@d9:150 - - - - A:prod*;B:prod* -")
    command = RULESET.deadline_command(state, (1,), "bot")
    assert isinstance(command, SubmitTurn)
    for step in command.steps:
        assert not (isinstance(step, Fire) and step.target == "d8")


def test_the_bot_walks_towards_an_enemy_it_cannot_reach() -> None:
    state = parse(f"{FLAT} 0 - 2/10 3:1 A1,B2 A1@a1:150,B1@o15:150 - - - - A:prod*;B:prod* -")
    command = RULESET.deadline_command(state, (1,), "bot")
    assert isinstance(command, SubmitTurn)
    move = command.steps[0]
    assert isinstance(move, MoveWorm) and len(move.path) == 3
    after = RULESET.fold(state, RULESET.decide(state, command, NoDice()))
    worm = after.worm("A1")
    assert worm.x + worm.y == 3


def test_the_bot_is_deterministic_given_the_position() -> None:
    text = f"{FLAT} 0 E2 2/10 3:1 A1,B2 A1@c3:150,A2@h8:150,B1@e6:150,B2@k8:150 - - - - A:prod*+handgun*+bazooka3+grenade1;B:prod* -"
    first = RULESET.deadline_command(parse(text), (1,), "bot")
    assert first == RULESET.deadline_command(parse(text), (1,), "bot")
    assert isinstance(first, SubmitTurn) and isinstance(first.steps[-2], Fire)
