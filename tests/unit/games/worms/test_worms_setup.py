"""Sign-up and the start (§2, §4, §6, §7): settings, worms per team, map, placement, order."""

from __future__ import annotations

import pytest
from worms_helpers import SEED, new_game, started_game

from games.base import SCHEDULER, Actor, RuleViolation, SeatInfo, Viewer
from games.dice import ForcedDice, SeededDice
from games.registry import default_registry
from games.worms import RULESET
from games.worms.board import SIZE
from games.worms.commands import StartGame, StartTurn, SubmitShoppingList
from games.worms.mapgen import generate
from games.worms.signup import worms_per_team
from games.worms.state import Phase, Settings, Stage, Stock


def test_ruleset_is_worms_2_1_1_with_2_1_kept_for_old_games() -> None:
    assert (RULESET.name, RULESET.version) == ("worms", "2.1.1")
    assert default_registry().get("worms").version == "2.1.1"
    assert default_registry().get("worms", "2.1").version == "2.1"


@pytest.mark.parametrize(("players", "each"), [(2, 4), (3, 4), (4, 4), (5, 3), (6, 3), (7, 2), (8, 2)])
def test_w_r1_four_worms_a_team_but_never_more_than_eighteen(players: int, each: int) -> None:
    assert worms_per_team(Settings(), players) == each
    assert players * each <= 18


def test_a_game_needs_two_to_eight_players() -> None:
    with pytest.raises(RuleViolation) as info:
        RULESET.setup(Settings(), [SeatInfo(1, "alone")], ForcedDice())
    assert info.value.rule == "§2"


def test_unknown_or_bad_settings_are_refused() -> None:
    with pytest.raises(RuleViolation, match="Unknown setting"):
        RULESET.parse_settings({"lives": 3})
    with pytest.raises(RuleViolation, match="mines must be"):
        RULESET.parse_settings({"mines": -1})
    assert RULESET.parse_settings({"sudden_death_after": 8}).sudden_death_after == 8


def test_the_game_waits_for_every_shopping_list() -> None:
    state = new_game(3)
    assert RULESET.to_act(state) == {1, 2, 3}
    assert RULESET.scheduled_work(state) == ()
    with pytest.raises(RuleViolation, match="Waiting for the shopping lists"):
        RULESET.decide(state, StartGame(actor=SCHEDULER), ForcedDice())


def test_a_shopping_list_is_private_to_its_seat() -> None:
    state = new_game(2)
    order = SubmitShoppingList(actor=Actor.player(1), team_weapon="minigun", items=(Stock("bazooka", 1),))
    (event,) = RULESET.decide(state, order, ForcedDice())
    assert RULESET.view_event(event, Viewer.for_seat(2)) is None
    assert RULESET.view_event(event, Viewer.for_seat(1)) is not None
    state = RULESET.fold(state, [event])
    assert RULESET.view(state, Viewer.for_seat(2))["shopping"] == []
    assert RULESET.view(state, Viewer.for_seat(1))["shopping"][0]["seat"] == 1


def test_starting_places_everything_on_free_land() -> None:
    state = started_game(4)
    assert state.phase is Phase.PLAYING
    assert len(state.worms) == 16
    assert all(w.health == 150 for w in state.worms)
    assert len(state.mines) == 25
    assert len(state.drums) == 4
    squares = [w.square for w in state.worms] + [m.square for m in state.mines] + [d.square for d in state.drums]
    assert len(set(squares)) == len(squares)
    assert all(state.height(s) > 0 for s in squares)
    assert {m.type for m in state.mines} == {"d", "s", "p"}


def test_starting_gives_each_team_its_list_and_a_random_order() -> None:
    state = started_game(3)
    assert sorted(state.order) == [1, 2, 3]
    assert state.seat == state.order[0]
    team = state.team(1)
    assert team is not None
    assert [s.item for s in team.inventory] == ["prod", "handgun", "minigun", "bazooka", "parachute"]
    assert state.shopping == ()
    assert state.sudden_death_after == 10


def test_after_the_start_the_scheduler_runs_the_turn_start() -> None:
    state = started_game(2)
    assert RULESET.to_act(state) == frozenset()
    (work,) = RULESET.scheduled_work(state)
    assert work.key == ("turn", 1, "start") and work.when == "now"
    assert isinstance(work.command, StartTurn) and work.command.turn == 1
    state = RULESET.fold(state, RULESET.decide(state, work.command, SeededDice(SEED, "t", 7)))
    assert state.stage is Stage.ACTING
    assert RULESET.to_act(state) == {state.seat}
    (deadline,) = RULESET.scheduled_work(state)
    assert (deadline.key, deadline.when, deadline.seats) == (("turn", 1, "deadline"), "deadline", (state.seat,))


def test_a_turn_start_delivered_twice_is_refused() -> None:
    state = started_game(2)
    start = StartTurn(actor=SCHEDULER, turn=1)
    state = RULESET.fold(state, RULESET.decide(state, start, SeededDice(SEED, "t", 7)))
    with pytest.raises(RuleViolation, match="No turn is waiting"):
        RULESET.decide(state, start, ForcedDice())


@pytest.mark.parametrize("game", [f"map-{n}" for n in range(12)])
def test_w_r4_generated_maps_are_playable(game: str) -> None:
    heights = generate(SeededDice(SEED, game, 1), 90)
    assert len(heights) == SIZE * SIZE
    assert all(0 <= h <= 10 for h in heights)
    land = sum(1 for h in heights if h > 0)
    assert land >= 90
    assert land < SIZE * SIZE  # some water
    assert max(heights) >= 4


def test_map_generation_is_a_function_of_the_dice() -> None:
    a, b = SeededDice(SEED, "same", 1), SeededDice(SEED, "same", 1)
    assert generate(a, 90) == generate(b, 90)
    assert a.draws == b.draws
    assert all(d.purpose for d in a.draws)
