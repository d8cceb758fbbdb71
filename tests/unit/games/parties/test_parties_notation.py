"""The position notation: exact round trips, precise parse errors, validate()."""

from __future__ import annotations

import pytest
from parties_helpers import started_game

from games.parties.bounds import counted
from games.parties.notation import NotationError, format_position, parse, validate

POSITION = "6/1M4/2F3/6/6/6 1@c3:1.2:0,2@c4:1.0:-1:never,3@f1:0.1:5 1>2 4@1000+10000/600 1:NE -"


def test_a_position_reads_back_exactly() -> None:
    state = parse(POSITION)
    assert format_position(state) == POSITION
    assert state.bot(2).score == -1 and state.bot(2).ally == "never" and state.bot(3).strength == 1
    assert state.pending == ((1, "NE"),) and state.parties == ((1, 2),)


def test_repr_is_a_position_to_paste_back() -> None:
    state = started_game(5, "repr")
    assert counted(eval(repr(state), {"parse": parse})) == state  # no orders counted yet this tick (P-R19)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("6/6 - - 0@0+10000/600 -", "expected 6 fields"),
        ("6/1X4 - - 0@0+10000/600 - -", "grid row 2: 'X' is not terrain"),
        ("6/06 - - 0@0+10000/600 - -", "'06' is not a run of open squares"),
        ("6/6 1@c3:1.25:0 - 0@0+10000/600 - -", "1@c3:1.25:0"),
        ("6/6 1@c3:1.0:0:maybe - 0@0+10000/600 - -", "'maybe' is not an ally policy"),
        ("6/6 1@c3:1.0:0 1 0@0+10000/600 - -", "leader>follower"),
        ("6/6 1@c3:1.0:0 - 0@0/600 - -", "clock"),
        ("6/6 1@c3:1.0:0 - 1@0+10000/600 1:UP -", "'1:UP' is not seat:direction"),
        ("6/6 1@c3:1.0:0 - 1@0+10000/600 - done", "end: 'done'"),
    ],
)
def test_parse_errors_say_what_is_wrong_and_where(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message.replace("(", r"\(")):
        parse(text)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("6/6/6 1@c3:1.0:0,2@c3:1.0:0 - 1@0+10000/600 - -", "share c3"),
        ("6/6/2M3 1@c3:1.0:0 - 1@0+10000/600 - -", "on an obstacle"),
        ("6/6/6 1@c3:0.0:0 - 1@0+10000/600 - -", "strength 0.0"),
        ("6/6/6 1@c3:1.0:0,2@c2:1.0:0 1>2 1@0+10000/600 2:N -", "not a solo or a leader"),
        ("6/6/6 1@c3:1.0:0 1>4 1@0+10000/600 - -", "there is no bot 4"),
        ("6/6/6 1@c3:1.0:0,2@a1:1.0:0,3@a2:1.0:0 1>2;3>2 1@0+10000/600 - -", "in two parties"),
        ("6/5/6 1@c3:1.0:0 - 1@0+10000/600 - -", "differ in width"),
        ("6/6/6 1@c3:1.0:0 - 0@0+10000/600 1:N -", "before the first tick"),
        ("6/6/6 1@c3:1.0:0 - 601@0+10000/600 - -", "past the tick cap"),
        ("6/6/6 1@h3:1.0:0 - 1@0+10000/600 - -", "off the grid"),
    ],
)
def test_impossible_positions_load_and_validate_names_the_problem(text: str, problem: str) -> None:
    problems = validate(parse(text))
    assert any(problem in p for p in problems), problems


def test_a_set_up_game_is_valid() -> None:
    assert validate(started_game(8, "valid")) == []
