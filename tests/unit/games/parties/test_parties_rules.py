"""Settings, set-up, scheduling, results and the order/event shapes of Parties."""

from __future__ import annotations

import dataclasses
import random

import pytest
from parties_helpers import SEED, started_game

from games.base import REFEREE, SCHEDULER, Actor, RuleViolation, SeatInfo
from games.dice import ForcedDice, SeededDice
from games.parties import RULESET
from games.parties.board import Terrain, adjacent, connected, near_any
from games.parties.commands import Move, ResolveTick, StartTick
from games.parties.encounters import battle
from games.parties.maps import MAPS
from games.parties.notation import parse, parse_grid, validate
from games.parties.settings import PartiesSettings
from games.parties.state import PartiesState
from games.serialization import DataError


def test_default_settings_are_a_sixteen_by_twelve_grid_with_ten_second_ticks() -> None:
    settings = RULESET.parse_settings({})
    assert settings == PartiesSettings()
    assert (settings.width, settings.height, settings.tick_seconds) == (16, 12, 10)


def test_unknown_settings_are_refused_by_name() -> None:
    with pytest.raises(RuleViolation, match="grid_size"):
        RULESET.parse_settings({"grid_size": 10})


@pytest.mark.parametrize(
    "raw",
    [{"width": 5}, {"height": 27}, {"obstacle_percent": 31}, {"start_strength": 0}, {"strength_spread": -1},
     {"tick_seconds": 1}, {"tick_seconds": 48 * 3600 + 1}, {"max_ticks": 0}, {"width": "12"}, {"max_ticks": True}],
)
def test_settings_out_of_bounds_or_of_the_wrong_type_are_refused(raw: dict) -> None:
    with pytest.raises(RuleViolation) as info:
        RULESET.parse_settings(raw)
    assert info.value.rule == "settings"


def test_tick_length_bounds_match_the_turn_limits() -> None:
    limits = RULESET.turn_limits
    assert (limits.minimum, limits.maximum, limits.default, limits.unit) == (2, 48 * 3600, 10, "seconds")
    RULESET.parse_settings({"tick_seconds": limits.minimum})
    RULESET.parse_settings({"tick_seconds": limits.maximum})


def test_eight_bots_start_apart_on_connected_open_ground_with_every_draw_explained() -> None:
    dice = SeededDice(SEED, "setup", 1)
    settings = RULESET.parse_settings({"obstacle_percent": 30})
    events = RULESET.setup(settings, [SeatInfo(n, f"b{n}") for n in range(1, 9)], dice)
    state = RULESET.fold(RULESET.initial_state(), events)
    assert not validate(state)
    assert connected(Terrain(state.rows))
    squares = [b.square for b in state.bots]
    for i, square in enumerate(squares):
        assert not near_any(square, squares[:i], 2)
    assert all(10 <= b.strength <= 20 for b in state.bots)
    assert all(d.purpose for d in dice.draws)
    assert any("strength bonus" in d.purpose for d in dice.draws)


def test_before_the_first_tick_the_scheduler_starts_it_now() -> None:
    dice = SeededDice(SEED, "s", 1)
    state = RULESET.fold(RULESET.initial_state(), RULESET.setup(PartiesSettings(), [SeatInfo(1, "a"), SeatInfo(2, "b")], dice))
    (work,) = RULESET.scheduled_work(state)
    assert (work.key, work.when, work.command) == (("start",), "now", StartTick(tick=1))
    assert RULESET.to_act(state) == frozenset()


def test_each_tick_is_closed_at_its_deadline_by_at_work_with_a_new_key() -> None:
    state = started_game(3, "w", tick_seconds=7)
    (work,) = RULESET.scheduled_work(state)
    assert (work.key, work.when, work.at_ms, work.command) == (("tick", 1), "at", 7000, ResolveTick(tick=1))
    after = RULESET.fold(state, RULESET.decide(state, ResolveTick(tick=1, actor=SCHEDULER, at_ms=7400), NoDiceIfQuiet()))
    (work,) = RULESET.scheduled_work(after)
    assert (work.key, work.at_ms) == (("tick", 2), 14400)


class NoDiceIfQuiet(SeededDice):
    def __init__(self) -> None:
        super().__init__(SEED, "quiet", 1)


def test_the_deadline_command_closes_the_tick_with_stays_even_early() -> None:
    state = started_game(3, "d")
    command = RULESET.deadline_command(state, (1, 2), "stay")
    assert command == ResolveTick(tick=1)
    events = RULESET.decide(state, command, SeededDice(SEED, "d", 3))  # actor REFEREE, at_ms 0
    assert type(events[0]).__name__ == "TickClosed"
    assert events[0].moves == ((1, "stay"), (2, "stay"), (3, "stay"))
    assert RULESET.deadline_policies == ("stay",)


def test_followers_are_not_waited_for() -> None:
    state = parse("6/6/6/6/6/6 1@c3:1.0:0,2@c4:1.0:0,3@f1:1.0:0 1>2 1@0+10000/600 - -")
    assert RULESET.to_act(state) == frozenset({1, 3})


def test_an_outsider_cannot_order() -> None:
    state = started_game(2, "o")
    with pytest.raises(RuleViolation):
        RULESET.decide(state, Move(direction="N", actor=Actor.player(9)), ForcedDice())
    with pytest.raises(RuleViolation):
        RULESET.decide(state, Move(direction="N", actor=REFEREE), ForcedDice())


def test_every_battle_roll_is_recorded_with_its_reason() -> None:
    state = parse("6/6/6/6/6/6 1@d3:1.0:0,2@c3:1.0:0,3@e3:1.5:0,4@f3:1.5:0 1>2;3>4 1@0+10000/600 - -")
    dice = ForcedDice([20, 1, 20, 1, 1, 20, 0])
    fought = battle(state, (1, 2), (3, 4), "party against party", dice)
    purposes = [d.purpose for d in dice.draws]
    assert purposes[:2] == ["battle 1 v 3, bout 1: D20 for 1", "battle 1 v 3, bout 1: D20 for 3"]
    assert purposes[-1].startswith("respawn of 3")
    assert fought.awards == ((1, 2), (2, 1), (3, -1))
    assert [b.scores for b in fought.bouts] == [(400, 30), (400, 30), (20, 600)]


@pytest.mark.parametrize("seed", range(20))
def test_a_respawned_loser_lands_where_no_bot_is_next_to_it_when_there_is_room(seed: int) -> None:
    state = started_game(8, f"r{seed}", width=10, height=8)
    rng = random.Random(seed)
    a, b = rng.sample(state.seats, 2)
    fought = battle(state, (a,), (b,), "refused to join", SeededDice(SEED, f"r{seed}", 5))
    others = [bot.square for bot in state.bots if bot.seat != fought.loser]
    square = (fought.respawn_x, fought.respawn_y)
    assert square not in others and not any(adjacent(square, o) for o in others)


def test_result_ranks_by_score_then_strength_and_names_three_trophies() -> None:
    state = parse("6/6/6/6/6/6 1@c3:1.0:3,2@d3:2.0:1,3@e3:1.5:1,4@f3:1.0:0 1>2>3>4 9@0+10000/600 - united")
    result = RULESET.result(state)
    assert result.finished and result.winners == (1,)
    assert result.ranking == ((1,), (2,), (3,), (4,))
    assert result.score_of(2) == 1.0
    assert "1st: bot 1" in result.summary and "3rd: bot 3" in result.summary
    assert "2nd: bot 2" in result.summary and "bot 4" not in result.summary


def test_result_of_a_game_in_play_is_not_finished_but_ranks() -> None:
    state = parse("6/6/6/6/6/6 1@c3:1.0:0,2@f6:1.5:0 - 3@0+10000/600 - -")
    result = RULESET.result(state)
    assert not result.finished and result.winners == () and result.ranking == ((2,), (1,))


def test_orders_are_read_strictly_from_json() -> None:
    assert RULESET.command_from_data("Move", {"direction": "NE", "tick": 3}) == Move(direction="NE", tick=3)
    with pytest.raises(DataError):
        RULESET.command_from_data("Move", {"direction": "NE", "speed": 2})
    with pytest.raises(RuleViolation, match="known orders"):
        RULESET.command_from_data("Fly", {})


def test_orders_and_events_name_their_clauses() -> None:
    assert "§2.2" in RULESET.clauses("BattleFought")
    assert "§4.1" in RULESET.clauses("Move")
    assert "§5.3" in RULESET.clauses("Squeezed")


def test_events_survive_the_log() -> None:
    state = parse("6/6/6/6/6/6 1@c3:1.0:0,2@b3:1.0:0,3@e3:1.5:0,4@f3:1.5:0,5@a6:1.0:0 1>2;3>4 1@0+10000/600 - -")
    dice = ForcedDice([20, 1, 20, 1, 1, 20, 0])
    events = RULESET.decide(state, Move(direction="E", actor=Actor.player(1)), dice)
    events += RULESET.decide(RULESET.fold(state, events), Move(direction="stay", actor=Actor.player(3)), dice)
    events += RULESET.decide(RULESET.fold(state, events), Move(direction="stay", actor=Actor.player(5)), dice)
    for event in events:
        name = RULESET.event_type_name(event)
        assert RULESET.event_from_data(name, RULESET.event_to_data(event), type(event).schema_version) == event


@pytest.mark.parametrize("name", sorted(MAPS))
def test_a_named_map_is_used_as_drawn_and_its_open_ground_is_connected(name: str) -> None:
    settings = RULESET.parse_settings({"map": name, "width": 6})
    dice = SeededDice(SEED, name, 1)
    state = RULESET.fold(RULESET.initial_state(), RULESET.setup(settings, [SeatInfo(n, "b") for n in range(1, 9)], dice))
    assert "/".join(state.rows) == "/".join(parse_grid(MAPS[name]))
    assert connected(Terrain(state.rows)) and not validate(state)
    assert not any("obstacle" in d.purpose for d in dice.draws)


def test_an_unknown_map_is_refused_with_the_names_of_the_known_ones() -> None:
    with pytest.raises(RuleViolation, match="crossroads"):
        RULESET.parse_settings({"map": "atlantis"})


def _stays(rules, state, times: int, game: str):
    for n in range(times):
        move = Move(direction="stay", actor=Actor.player(1), at_ms=n)
        state = rules.fold(state, rules.decide(state, move, SeededDice(SEED, game, 3 + n)))
    return state


def test_version_2_refuses_a_fourth_choice_of_move_in_one_tick() -> None:
    state = _stays(RULESET, started_game(2, "v2"), 3, "v2")
    with pytest.raises(RuleViolation, match="chosen your move 3 times in tick 1") as refused:
        _stays(RULESET, state, 1, "v2")
    assert refused.value.rule == "P-R19"


def test_version_1_games_keep_their_unbounded_changes_of_mind() -> None:
    """P-R19 is version 2's: a version 1 game replays as it was played, and its position
    keeps version 1's shape, so the snapshots it wrote still match."""
    from games.parties import RULESET_V1
    from games.registry import default_registry

    assert default_registry().get("parties").version == "2"
    assert default_registry().get("parties", "1") is RULESET_V1
    infos = [SeatInfo(n, f"bot {n}") for n in (1, 2)]
    setup = RULESET_V1.setup(RULESET_V1.parse_settings({}), infos, SeededDice(SEED, "v1", 1))
    state = RULESET_V1.fold(RULESET_V1.initial_state(), setup)
    start = StartTick(tick=1, actor=SCHEDULER, at_ms=0)
    state = RULESET_V1.fold(state, RULESET_V1.decide(state, start, SeededDice(SEED, "v1", 2)))
    state = _stays(RULESET_V1, state, 10, "v1")
    assert type(state) is PartiesState and state.pending_move(1) == "stay"
    assert set(RULESET_V1.state_to_data(state)) == {f.name for f in dataclasses.fields(PartiesState)}
