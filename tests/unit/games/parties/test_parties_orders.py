"""Parties orders as text (docs/notation-parties.md): every order the notation shows reads
as its command, reads back from its own text, and text that is not an order is refused
with the part at fault named."""

from __future__ import annotations

import pytest

from games.base import SCHEDULER, Actor
from games.parties import (
    Move,
    OrderError,
    ResolveTick,
    SetAllyPolicy,
    StartTick,
    format_order,
    parse_order,
    parse_orders,
    parse_position,
)

#: tick 4 began at 1000 ms and ends at 11000 ms
STATE = parse_position("6/1M4/2F3/6/6/6 1@c3:1.2:0,2@c4:1.0:-1:never,3@f1:0.1:5 1>2 4@1000+10000/600 1:NE -")


@pytest.mark.parametrize(("text", "command"), [
    ("1 NE", Move(direction="NE", actor=Actor.player(1), at_ms=2000)),
    ("3 stay", Move(direction="stay", actor=Actor.player(3), at_ms=2000)),
    ("1 N tick 4", Move(direction="N", tick=4, actor=Actor.player(1), at_ms=2000)),
    ("1 NE at 2500", Move(direction="NE", actor=Actor.player(1), at_ms=2500)),
    ("3 ally never", SetAllyPolicy(policy="never", actor=Actor.player(3), at_ms=2000)),
    ("start", StartTick(tick=1, actor=SCHEDULER, at_ms=0)),
    ("start at 5000", StartTick(tick=1, actor=SCHEDULER, at_ms=5000)),
    ("resolve", ResolveTick(tick=4, actor=SCHEDULER, at_ms=11000)),
    ("seat 2: resolve at 9999", ResolveTick(tick=4, actor=Actor.player(2), at_ms=9999)),
    ("  1   NE  ", Move(direction="NE", actor=Actor.player(1), at_ms=2000)),
])
def test_an_order_in_the_notation_reads_as_its_command(text, command):
    assert parse_order(text, STATE) == command


@pytest.mark.parametrize("text", ["1 NE at 2500", "1 N tick 4 at 2000", "3 ally lead at 0", "start at 0",
                                  "resolve at 11000", "seat 2: start at 7"])
def test_an_order_reads_back_from_its_own_text(text):
    assert format_order(parse_order(text, STATE)) == text


def test_words_the_rules_refuse_still_read_so_that_decide_names_the_clause():
    assert parse_order("1 UP", STATE) == Move(direction="UP", actor=Actor.player(1), at_ms=2000)
    assert parse_order("1 ally maybe", STATE).policy == "maybe"


def test_several_orders_are_separated_by_semicolons():
    assert [format_order(c) for c in parse_orders("1 NE; 3 stay;", STATE)] == ["1 NE at 2000", "3 stay at 2000"]


@pytest.mark.parametrize(("text", "says"), [
    ("", "an empty order"),
    ("NE", "'NE' is not a bot's seat"),
    ("1", "bot 1 needs a direction"),
    ("x1 NE", "'x1' is not a bot's seat"),
    ("1 NE at soon", "'soon' is not a time (ms)"),
    ("1 N tick four", "'four' is not a tick"),
    ("1 ally", "'ally' takes one policy word"),
    ("1 ally never now", "'ally' takes one policy word"),
    ("1 N E", "'N E' is not a move"),
    ("1 N-E", "'N-E' is not a move"),
    ("seat 2: 1 NE", "a bot's order is given by the bot it names"),
    ("seat two: start", "'two' is not a seat"),
])
def test_text_that_is_not_an_order_is_refused_naming_the_part_at_fault(text, says):
    with pytest.raises(OrderError) as raised:
        parse_order(text, STATE)
    assert says in str(raised.value)
