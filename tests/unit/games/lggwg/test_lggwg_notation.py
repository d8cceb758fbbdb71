"""Positions as text: repr pastes back, parse errors are precise, validate explains."""

from __future__ import annotations

import pytest
from lggwg_helpers import started

from games.lggwg.board import line, line_squares, name, parse_square
from games.lggwg.bounds import counted
from games.lggwg.notation import NotationError, format_position, parse, validate

POSITION = (
    "custom #6/#.4#/#.4#/#6 orders:1/30 noflags R,B R=1:0:0:0:-:n,B=2:0:0:0:-:n "
    "R1=E@b2:15/15,B1=E@e3:15/15 - - - -"
)


def test_repr_is_the_notation_and_parses_back() -> None:
    state = started("flags")
    text = format_position(state)
    assert repr(state) == f"LggwgState({text!r})"
    assert format_position(parse(text)) == text
    assert counted(parse(text)) == state  # no lists counted yet this turn (L-R29)


@pytest.mark.parametrize(
    ("text", "field", "words"),
    [
        ("custom #6", "position", "expected 11 fields"),
        (POSITION.replace("#.4#/#.4#", "#.4#/#.3#"), "terrain", "rows differ"),
        (POSITION.replace("#.4#/#.4#", "#.4#/#.x3#"), "terrain", "unknown terrain"),
        (POSITION.replace("orders:1/30", "orders:1"), "phase", "expected e.g."),
        (POSITION.replace("noflags", "flagz"), "flags", "flags or noflags"),
        (POSITION.replace("R,B R=", "R,Y R="), "order", "no team 'Y'"),
        (POSITION.replace("R=1:0:0:0:-:n", "R=1:0:0:-:n"), "teams", "colour=seat"),
        (POSITION.replace("R1=E@b2:15/15", "R1=Q@b2:15/15"), "units", "unknown unit type"),
        (POSITION.replace("R1=E@b2:15/15", "R1=E@b2"), "units", "id=type@square"),
        (POSITION.replace("15/15 - - - -", "15/15 b2 - - -"), "mines", "a square and a team"),
        (POSITION.replace("15/15 - - - -", "15/15 - b2 - -"), "wear", "square:damage"),
        (POSITION.replace("15/15 - - - -", "15/15 - - R:R1north -"), "orders", "not an order"),
    ],
)
def test_parse_errors_name_the_field_and_the_problem(text: str, field: str, words: str) -> None:
    with pytest.raises(NotationError) as exc:
        parse(text)
    assert exc.value.field == field
    assert words in str(exc.value)


def test_a_valid_position_has_no_problems() -> None:
    assert validate(parse(POSITION)) == []


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (("R1=E@b2:15/15", "R1=E@a1:15/15"), "R1 stands on wall"),
        (("B1=E@e3:15/15", "B1=E@b2:15/15"), "two units on b2"),
        (("R1=E@b2:15/15", "R1=E@b2:0/15"), "0 of 15 hit points"),
        (("R1=E@b2:15/15", "R1=E@b2:15/20"), "15 hit points at most"),
        (("R1=E@b2:15/15", "R1=E@b2:15/15,R2=W@c2:1/1"), "only flags and sheep are neutral"),
        (("R1=E@b2:15/15", "R1=S@b2:10/10"), "team R is in without an Executive"),
        (("R,B R=", "R R="), "team order must list each team"),
        (("orders:1/30", "orders:31/30"), "past the last turn"),
        (("15/15 - - - -", "15/15 a1R - - -"), "mine at a1 is not on walkable ground"),
        (("15/15 - - - -", "15/15 - c2:2 - -"), "not on a locked door"),
        (("15/15 - - - -", "15/15 - - R:R1>Q -"), "the list of team R is refused"),
    ],
)
def test_validate_reports_impossible_positions(change: tuple[str, str], problem: str) -> None:
    state = parse(POSITION.replace(*change).replace("R=1:0:0:0:-:n", "R=1:0:0:0:-:y" if "R:" in change[1] else "R=1:0:0:0:-:n"))
    assert any(problem in p for p in validate(state)), validate(state)


def test_squares_are_named_by_column_letter_and_row_number_from_the_top() -> None:
    assert parse_square("c2") == (2, 1)
    assert name((2, 1)) == "c2"
    with pytest.raises(ValueError, match="not a square"):
        parse_square("2c")


def test_a_line_is_the_squares_the_segment_between_centres_crosses() -> None:
    assert line_squares((0, 0), (3, 0)) == ((1, 0), (2, 0), (3, 0))
    assert line_squares((0, 0), (2, 1)) == ((1, 0), (1, 1), (2, 1))
    diagonal = line((0, 0), (2, 2))
    assert diagonal == (((1, 1), ((1, 0), (0, 1))), ((2, 2), ((2, 1), (1, 2))))


@pytest.mark.parametrize("b", [(5, 2), (2, 5), (4, 4), (7, 3), (-3, 6), (1, -6), (-5, -2)])
def test_a_line_steps_one_square_at_a_time_and_reads_the_same_both_ways(b: tuple[int, int]) -> None:
    a = (0, 0)
    squares = (a, *line_squares(a, b))
    assert squares[-1] == b
    assert all(max(abs(p[0] - q[0]), abs(p[1] - q[1])) == 1 for p, q in zip(squares, squares[1:], strict=False))
    back = (b, *line_squares(b, a))
    assert squares == tuple(reversed(back))


def test_an_order_that_is_no_order_in_a_loaded_position_resolves_as_a_hold() -> None:
    from games.base import Actor
    from games.dice import ForcedDice
    from games.lggwg import RULESET
    from games.lggwg.commands import SubmitOrders
    from games.lggwg.state import Order

    state = parse(POSITION.replace("15/15 - - - -", "15/15 - - R:R1>Q -").replace("-:n,B", "-:y,B"))
    events = RULESET.decide(state, SubmitOrders(actor=Actor.player(2), orders=(Order("hold"),)), ForcedDice([1]))
    state = RULESET.fold(state, events)
    assert [(s.kind, s.executed, s.note) for s in state.last_steps][0] == ("move", False, "not an order: hold")
