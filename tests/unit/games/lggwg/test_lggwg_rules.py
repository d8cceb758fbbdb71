"""Settings, set-up, maps, scheduling and the order grammar."""

from __future__ import annotations

from dataclasses import fields

import pytest
from lggwg_helpers import SEED, started

from games.base import REFEREE, SCHEDULER, Actor, RuleViolation, SeatInfo, Work
from games.dice import ForcedDice, NoDice, SeededDice
from games.lggwg import RULESET, RULESET_V2
from games.lggwg.commands import ResolveAtDeadline, SubmitOrders
from games.lggwg.maps import MAP_NAMES, MapError, load_map, parse_map
from games.lggwg.orders import format_orders, parse_orders
from games.lggwg.state import LggwgState, Order, Settings
from games.lggwg.units import UNITS
from games.registry import default_registry


def test_settings_have_defaults_and_refuse_unknown_keys_and_bad_values() -> None:
    assert RULESET.parse_settings({}) == Settings()
    assert RULESET.parse_settings({"map": "flags", "max_turns": 12}) == Settings("flags", 12)
    for raw in ({"colour": "red"}, {"map": "moon"}, {"map": 3}, {"max_turns": 0}, {"max_turns": "9"},
                {"max_turns": True}):
        with pytest.raises(RuleViolation) as exc:
            RULESET.parse_settings(raw)
        assert exc.value.rule == "settings" and exc.value.message


def test_the_ruleset_is_simultaneous_with_hold_and_bot_deadlines() -> None:
    assert RULESET.name == "lggwg" and RULESET.mode.value == "simultaneous"
    assert RULESET.deadline_policies == ("hold", "bot")
    limits = RULESET.turn_limits
    assert (limits.minimum, limits.maximum, limits.default, limits.unit) == (60, 7 * 24 * 3600, 48 * 3600, "hours")


@pytest.mark.parametrize("name", MAP_NAMES)
def test_every_map_loads_and_starts_with_its_number_of_teams(name: str) -> None:
    game_map = load_map(name)
    state = started(name, len(game_map.colours))
    assert len(state.teams) == len(game_map.colours)
    assert len(state.units) == len(game_map.placements)
    assert all(t.memory for t in state.teams), "each team remembers what it saw at the start"
    assert state.flag_game == (name == "flags")
    assert sorted(state.team_order) == sorted(t.seat for t in state.teams)


def test_there_are_maps_for_two_three_and_four_teams_and_one_with_flags() -> None:
    counts = {len(load_map(n).colours) for n in MAP_NAMES}
    assert counts == {2, 3, 4}
    assert any(load_map(n).flag_game for n in MAP_NAMES)


def test_the_empty_map_setting_picks_the_map_for_the_number_of_seats() -> None:
    assert started("", 3).map == "triangle"
    assert started("", 4).map == "cross"


def test_a_map_for_another_number_of_teams_is_refused_at_setup() -> None:
    with pytest.raises(RuleViolation, match="for 2 teams, not 3"):
        started("duel", 3)


def test_a_broken_map_file_is_reported_with_its_line() -> None:
    with pytest.raises(MapError, match="line 3: unknown terrain"):
        parse_map("bad", "teams: R B\ngrid:\n#x#\n")
    with pytest.raises(MapError, match="exactly one Executive"):
        parse_map("bad", "teams: R B\ngrid:\n###\n#.#\n###\nunits:\nR E b2\n")
    with pytest.raises(MapError, match="on terrain"):
        parse_map("bad", "teams: R B\ngrid:\n###\n#.#\n###\nunits:\nR E a1\nB E b2\n")


def test_units_in_the_table_keep_the_figures_the_rulebook_states() -> None:
    assert UNITS["P"].damage == (4, 4) and UNITS["P"].range == 1
    assert UNITS["E"].damage == (2, 4)
    assert UNITS["W"].hp == 1
    armour = {k: UNITS[k].armour for k in "SMBN"}
    assert armour["S"] == armour["N"] < armour["M"] < armour["B"], "light < medium < heavy"
    assert UNITS["P"].speed > UNITS["S"].speed > UNITS["M"].speed == UNITS["B"].speed, "fast, slow"
    assert UNITS["S"].range > UNITS["E"].range > 1, "long range, good range"


def test_order_text_round_trips() -> None:
    text = "R1>N,R1*e7,R2*,R3*>SW,R6+,-,R4-,!"
    assert format_orders(parse_orders(text)) == text
    with pytest.raises(ValueError, match="not an order"):
        parse_orders("R1 moves north")


def test_work_waits_for_the_teams_that_have_not_sent_their_lists() -> None:
    state = started()
    assert RULESET.to_act(state) == {1, 2}
    assert RULESET.scheduled_work(state) == (Work(key=("orders", 1), when="deadline", seats=(1, 2)),)
    events = RULESET.decide(state, SubmitOrders(actor=Actor.player(1), orders=(Order("hold"),)), NoDice())
    state = RULESET.fold(state, events)
    assert RULESET.scheduled_work(state) == (Work(key=("orders", 1), when="deadline", seats=(2,)),)
    command = RULESET.deadline_command(state, (2,), "hold")
    assert command == ResolveAtDeadline(turn=1, missed=(2,), policy="hold")


def test_the_deadline_resolves_the_turn_and_the_work_key_moves_on() -> None:
    state = started()
    command = RULESET.deadline_command(state, (1, 2), "hold")
    dice = ForcedDice([1, 1, 1])  # the two sheep, then the next team order
    state = RULESET.fold(state, RULESET.decide(state, command, dice))
    assert state.turn == 2
    assert RULESET.scheduled_work(state)[0].key == ("orders", 2)


def test_only_the_referee_resolves_at_a_deadline_and_only_for_this_turn() -> None:
    state = started()
    with pytest.raises(RuleViolation, match="Only the referee"):
        RULESET.decide(state, ResolveAtDeadline(actor=Actor.player(1), turn=1, policy="hold"), NoDice())
    with pytest.raises(RuleViolation, match="for turn 4"):
        RULESET.decide(state, ResolveAtDeadline(actor=REFEREE, turn=4, policy="hold"), NoDice())
    with pytest.raises(RuleViolation, match="policies"):
        RULESET.decide(state, ResolveAtDeadline(actor=SCHEDULER, turn=1, policy="skip"), NoDice())


def test_someone_without_a_team_cannot_send_orders() -> None:
    state = started()
    with pytest.raises(RuleViolation, match="Only a team"):
        RULESET.decide(state, SubmitOrders(actor=Actor.player(7), orders=()), NoDice())
    with pytest.raises(RuleViolation, match="Only a team"):
        RULESET.decide(state, SubmitOrders(actor=REFEREE, orders=()), NoDice())


def test_a_list_longer_than_thirty_orders_is_refused() -> None:
    state = started()
    with pytest.raises(RuleViolation, match="at most 30"):
        RULESET.decide(state, SubmitOrders(actor=Actor.player(1), orders=(Order("hold"),) * 31), NoDice())


def test_result_ranks_by_score_and_shares_places() -> None:
    from dataclasses import replace

    from games.lggwg.state import Phase

    state = started("triangle", 3)
    state = replace(state, phase=Phase.OVER)
    state = state.with_team(1, score=10).with_team(2, score=30).with_team(3, score=10)
    result = RULESET.result(state)
    assert result.finished and result.winners == (2,)
    assert result.ranking == ((2,), (1, 3))
    assert result.score_of(1) == 10.0


def _send(rules, state, seat: int, lists: range):  # noqa: ANN001, ANN202
    """Seat ``seat`` sends one list per number in ``lists``, that many holds long."""
    for n in lists:
        command = SubmitOrders(actor=Actor.player(seat), orders=(Order("hold"),) * n)
        state = rules.fold(state, rules.decide(state, command, NoDice()))
    return state


def test_version_3_refuses_a_sixth_list_in_one_turn_and_changes_nothing() -> None:
    state = _send(RULESET, started(), 1, range(1, 6))
    with pytest.raises(RuleViolation, match="sent its list 5 times in turn 1") as refused:
        _send(RULESET, state, 1, range(6, 7))
    assert refused.value.rule == "L-R29"
    assert state.team(1).orders == (Order("hold"),) * 5  # the fifth stands
    # the count is part of the position, so a snapshot taken now refuses the sixth as well
    reloaded = RULESET.state_from_data(RULESET.state_to_data(state))
    assert reloaded == state
    with pytest.raises(RuleViolation, match="sent its list 5 times"):
        _send(RULESET, reloaded, 1, range(6, 7))


def test_the_deadline_bot_resolves_a_turn_whatever_the_other_team_sent_and_the_count_starts_again() -> None:
    state = _send(RULESET, started(), 1, range(1, 6))
    command = RULESET.deadline_command(state, (2,), "bot")
    state = RULESET.fold(state, RULESET.decide(state, command, SeededDice(SEED, "bound", 2)))
    assert state.turn == 2 and not state.team(1).submitted
    state = _send(RULESET, state, 1, range(1, 6))
    assert state.team(1).orders == (Order("hold"),) * 5


def test_version_2_games_keep_their_unbounded_lists_and_their_position() -> None:
    """L-R29 is version 3's: a version 2 game replays as it was played, and its position
    keeps version 2's shape, so the snapshots it wrote still load and match."""
    assert default_registry().get("lggwg") is RULESET and RULESET.version == "3"
    assert default_registry().get("lggwg", "2") is RULESET_V2
    settings = RULESET_V2.parse_settings({"map": "duel"})
    infos = [SeatInfo(n, f"player {n}") for n in (1, 2)]
    state = RULESET_V2.fold(RULESET_V2.initial_state(), RULESET_V2.setup(settings, infos, SeededDice(SEED, "v2", 1)))
    state = _send(RULESET_V2, state, 1, range(1, 13))
    assert type(state) is LggwgState and state.team(1).orders == (Order("hold"),) * 12
    data = RULESET_V2.state_to_data(state)
    assert set(data) == {f.name for f in fields(LggwgState)}
    assert RULESET_V2.state_from_data(data) == state
