"""The position notation: repr is notation, parse names what is wrong, validate reports
positions the rules could never reach (which still load, on purpose)."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.wormlord import RULESET
from games.wormlord.bounds import counted
from games.wormlord.notation import NotationError, format_position, parse, validate
from games.wormlord.orders import OrderError, format_order, parse_order
from games.wormlord.state import WormlordState

ROOT = Path(__file__).resolve().parents[4]
START = "...2.../.#.b.#./.*.b.*./#..*..#/.*.a.*./.#.a.#./...1... a1:13:-:6000:0,b2:13:-:6000:0 map=standard-2"


def test_repr_is_the_notation_you_can_paste_back() -> None:
    state = parse(START)
    assert repr(state) == f"WormlordState({START!r})"
    assert format_position(state) == START


def test_the_empty_position_is_new() -> None:
    assert format_position(WormlordState()) == "new"
    assert parse("new") == WormlordState()


def test_every_field_round_trips() -> None:
    text = (
        "...2.../.#.b.#./.*.b.*./#..*..#/.*.a.*./.#.a.#./...1... a1+2:13:d3:6000:1,b3+4:13:-:6000:0 "
        "phase=break round=2 start=100 end=180100 ended=9000 by=d2:2@5000 map=standard-2 knot=500 "
        "untie=0 countdown=1000 break=2000 limit=180000"
    )
    state = parse(text)
    assert format_position(state) == text
    assert state.knot_at("d2").seat == 2 and state.knot_at("d3").seat == 1
    assert state.timing.round_ms == 180000 and state.side_of_seat(4).colour == "blue"
    # version 2 keeps the position with the round's counts (WL-R18), none yet
    assert RULESET.state_from_data(RULESET.state_to_data(state)) == counted(state)


def test_bases_come_from_the_board() -> None:
    assert [s.base for s in parse(START).sides] == ["d1", "d7"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the board, the sides"),
        ("...2.../.#.b.#./.*.b.*./#..*..#/.*.a.*./...1... a1:13:-:6000:0", "6 rows, not 7"),
        ("...2.../.#.b.#./.*.b.*./#..*..#/.*.a.*./.#.a.#./...1.. a1:13:-:6000:0", "row 1 has 6 squares"),
        ("...2.../.#.b.#./.*.b.*./#..*..#/.*.x.*./.#.a.#./...1... a1:13:-:6000:0", "d3 is 'x'"),
        ("...2.../.#.b.#./.*.b.*./#..*..#/.*.a.*./.#.a.#./...1... e1:13:-:6000:0", "'e1:13:-:6000:0' is not"),
        ("...2.../.#.b.#./.*.b.*./#..*..#/.*.a.*./.#.a.#./...1... a1:13:-:6000:0 round=two", "round: expected a whole number"),
        ("...2.../.#.b.#./.*.b.*./#..*..#/.*.a.*./.#.a.#./...1... a1:13:-:6000:0 colour=red", "unknown field 'colour'"),
        ("...2.../.#.b.#./.*.b.*./#..*..#/.*.a.*./.#.a.#./...1... a1:13:-:6000:0 phase=paused", "phase: 'paused'"),
        ("...2.../.#.b.#./.*.b.*./#..*..#/.*.a.*./.#.a.#./...1... a1:13:-:6000:0 by=c4:1@0", "c4 hold(s) no knot"),
        ("...2.../.#.b.#./.*.b.*./#..*..#/.*.a.*./.#.a.#./...1... a1:13:-:6000:0 by=d3", "not <square>:<seat>@<ms>"),
        ("...2.../.#.b.#./.*.b.*./#..*..#/.*.a.*./.#.a.#./...1... a1:13:-:6000:0 knot=-", "knot: expected a whole number"),
    ],
)
def test_parse_names_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        parse(text)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (START.replace("a1:13", "a1:14"), "pink has 14 strings in supply and 2 on the board: 16, not 15"),
        (START.replace("a1:13:-", "a1:13:d5"), "pink's headquarters on d5 is not on a pink knot"),
        (START.replace(".*.a.*./", ".*.c.*./").replace("a1:13", "a1:14"), "d3 holds a yellow knot but no side is yellow"),
        (START.replace("b2:13", "b1:13"), "a seat plays for two colours"),
        (START.replace("...1...", "...1..1"), "colour 1 needs exactly one base, found 2"),
        (START.replace("...2...", "......."), "colour 2 needs exactly one base"),
        (START.replace("a1:13:-:6000:0", "a1:13:-:6000:3"), "pink has won 3 rounds"),
        (START + " phase=over", "the game is over exactly when one colour has won 2 rounds"),
        (START.replace("a1:13", "a1+2:13"), "one player each, or teams of two each"),
        (START + " by=d2:2@0", "d2: seat 2 does not play pink"),
        (START + " limit=180000", "needs its end time"),
        (START + " phase=break", "needs the time the round ended"),
    ],
)
def test_validate_reports_impossible_positions_that_still_load(text: str, problem: str) -> None:
    problems = validate(parse(text))
    assert any(problem in p for p in problems), problems


def test_a_headquarters_on_an_objective_is_invalid() -> None:
    text = "...2.../.#.b.#./.*.b.*./#..A..#/.*.a.*./.#.a.#./...1... a1:12:d4:6000:0,b2:13:-:6000:0"
    assert "pink's headquarters on d4 stands on an Objective space" in validate(parse(text))


def test_a_valid_position_has_no_problems() -> None:
    assert validate(parse(START)) == []


@pytest.mark.parametrize(
    "text",
    [
        "seat 1 at 3500: conquer c2", "seat 2 at 3600: liberate c2 pink", "seat 1 at 4000: hq c2",
        "seat 1 at 4100: lift hq", "seat 3 at 0: say take the centre", "scheduler at 0: start round 1",
        "scheduler at 183000: end round 1", "referee at 0: pass",
    ],
)
def test_orders_read_and_print_the_same(text: str) -> None:
    assert format_order(parse_order(text)) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [("conquer c2", "an order reads"), ("seat 1: liberate c2 red", "'red' is not a colour"), ("seat 1: dance", "unknown order")],
)
def test_bad_orders_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(OrderError) as info:
        parse_order(text)
    assert message in str(info.value)
