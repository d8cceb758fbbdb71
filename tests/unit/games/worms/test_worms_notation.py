from __future__ import annotations

import pytest
from worms_helpers import started_game

from games.serialization import from_data, to_data
from games.worms.notation import NotationError, format_position, parse, validate
from games.worms.state import WormsState

FLAT = "/".join(["5{15}"] * 15)


def position(board: str = FLAT, rest: str = "0 - 2/10 3:1 A1,B2 A1@c3:150,B1@k11:150 - - - - A:prod*;B:prod* -") -> str:
    return f"{board} {rest}"


def test_a_started_game_round_trips_through_the_notation() -> None:
    state = started_game(3)
    text = format_position(state)
    again = parse(text)
    assert format_position(again) == text
    assert again.heights == state.heights
    assert again.worms == state.worms
    assert again.mines == state.mines
    assert again.order == state.order


def test_the_text_round_trips_exactly() -> None:
    text = (
        "0{5}1246421000/" + "/".join(["5{15}"] * 13) + "/x9876543210{5} 2 E3 12/10+! 23:2 B2,A1x "
        "B1@a1:7p2i1 c5d,d6s,e7p f1,g2 h3w!:sheep1,i4h,j5u:parachute3 k6:mine1+bazooka1,l7: "
        "A:prod*;B:prod*+handgun*+mad_cow2 B1=2/5;mine@B1/0;fuse@c4"
    )
    assert format_position(parse(text)) == text
    state = parse(text)
    assert from_data(WormsState, to_data(state)) == state


def test_repr_prints_a_position_that_parses_back() -> None:
    state = parse(position())
    assert repr(state) == f"WormsState({position()!r})"


def test_heights_use_runs_and_x_for_ten() -> None:
    state = parse(position("x{15}/" + "/".join(["5{15}"] * 14)))
    assert state.heights[:15] == (10,) * 15
    assert state.heights[15] == 5


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (position("/".join(["5{15}"] * 14)), "expected 15 rows separated by '/', got 14"),
        (position("5{14}/" + "/".join(["5{15}"] * 14)), "row 1 has 14 squares, expected 15"),
        (position("/".join(["5{15}"] * 14) + "/5{16}"), "row 15 has 16 squares, expected 15"),
        (position("5{14}q/" + "/".join(["5{15}"] * 14)), "row 1 has 'q' at position 6"),
        (FLAT + " 0 - 2/10", "expected 13 space-separated fields"),
        (position(rest="0 Q2 2/10 3:1 A1,B2 A1@c3:150 - - - - - -"), "wind: 'Q2'"),
        (position(rest="0 - 2/10 3:1 A1,B2 A1@c3 - - - - - -"), "worms: 'A1@c3'"),
        (position(rest="0 - 2/10 3:1 A1,B2 C1@c3:150 - - - - - -"), "C1 belongs to no team"),
        (position(rest="0 - 2/10 3:1 A1,B2 A1@p3:150 - - - - - -"), "worm A1: 'p3' is not a square"),
        (position(rest="0 - 2/10 3:1 A1,B2 A1@c3:150 c5z - - - - -"), "mines: 'c5z'"),
        (position(rest="0 - 2/10 3:1 A1,B2 A1@c3:150 - - c4w:bazooka - - -"), "'bazooka' is not an item with a count"),
        (position(rest="0 - 2/10 3:1 A1,B2 A1@c3:150 - - - - C:prod* -"), "inventories: there is no team C"),
        (position(rest="0 - 2/10 3:1 A1,B2 A1@c3:150 - - - - - A1=x"), "progress: 'A1=x'"),
    ],
)
def test_parse_errors_say_precisely_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        parse(text)
    assert message in str(info.value)


def test_a_real_position_has_no_problems() -> None:
    assert validate(started_game(4)) == []
    assert validate(parse(position())) == []


@pytest.mark.parametrize(
    ("rest", "problem"),
    [
        ("0 - 2/10 3:1 A1,B2 A1@c3:150,B1@c3:150 - - - - A:prod*;B:prod* -", "c3 holds both worm A1 and worm B1"),
        ("5 - 2/10 3:1 A1,B2 A1@c3:150,B1@k11:150 - - - - A:prod*;B:prod* -", "worm A1 is in the water"),
        ("0 - 2/10 3:1 A1,B2 A1@c3:150,B1@k11:150 c3d - - - A:prod*;B:prod* -", "stands on a mine"),
        ("0 - 2/10 3:1 A1,B2 A1@c3:150,B1@k11:150 - - c4w - A:prod*;B:prod* -", "the crate at c4 is empty"),
        ("0 - 2/10 3:1 A1,B2 A1@c3:150,B1@k11:150 c4d - - c4: A:prod*;B:prod* -", "shares a square with a donor card"),
        ("0 - 2/10 3:1 A1,B2 A1@c3:150 - - - - A:prod*;B:prod* -", "team B has no worms but is not out"),
        ("0 - 2/10 3:2 A1,B2x A1@c3:150 - - - - A:prod*;B:prod* -", "the seat to act (2) is out"),
        ("0 - 2/10 3:1 A1,B2 A1@c3:150,B1@k11:150 - - - - A:bazooka*;B:prod* -", "unlimited bazooka"),
        ("0 - 2/10 3:1 A1,B2 A1@c3:150,B1@k11:150 - - - - A:ray_gun1;B:prod* -", "'ray_gun', which is not an item"),
        ("0 - 2/10 3:1 A1,B2 A1@c3:150,B1@k11:150 - - - - A:prod*;B:prod* A1=4/3", "A1 moved 4 squares, more than its 3"),
        ("0 - 2/10 3:1 A1,B2 A1@c3:150,B1@k11:150 - - - - A:prod*;B:prod* B1=1/3", "B1 acted this turn but is not on the acting team"),
    ],
)
def test_validate_lists_what_cannot_happen(rest: str, problem: str) -> None:
    problems = validate(parse(position(rest=rest)))
    assert any(problem in p for p in problems), problems


def test_any_run_spelling_parses_and_is_written_canonically() -> None:
    spelled = position("55555{11}/" + "/".join(["5{15}"] * 14))
    assert format_position(parse(spelled)) == position()
