"""The bot: it waits when it may not place, and what it does give is always legal."""

from __future__ import annotations

import random

from wormlord_helpers import RandomDice, play_random

from games.base import RuleViolation
from games.dice import ForcedDice, NoDice
from games.wormlord import RULESET, bot
from games.wormlord.commands import Conquer, Liberate, PlaceHeadquarters
from games.wormlord.notation import parse

QUIET = "...2.../.#.b.#./.*.b.*./#..*..#/.*.a.*./.#.a.#./...1... a1:13:-:6000:0,b2:13:-:6000:0 map=standard-2"
WINNING = "...2.../.#.b.#./.*.b.*./#..A..#/.Aaaa*./.#.a.#./...1... a1:9:-:6000:0,b2:13:-:6000:0 map=standard-2"


def test_the_bot_waits_while_its_knot_is_being_tied() -> None:
    guarded = QUIET.replace("a1:13:-", "a1:13:d3")
    assert bot.choose(parse(guarded), 1, NoDice(), 5999) is None


def test_the_bot_waits_before_now_and_between_rounds() -> None:
    assert bot.choose(parse(QUIET + " start=9000"), 1, NoDice(), 8000) is None
    assert bot.choose(parse(QUIET + " phase=break ended=1"), 1, NoDice(), 8000) is None


def test_the_bot_waits_with_an_empty_supply_and_nothing_to_guard() -> None:
    empty = "...2.../.#.b.#./.*.b.*./#..*..#/a*aaa*./a#aaa#a/aaa1aaa a1:0:-:6000:0,b2:13:-:6000:0"
    command = bot.choose(parse(empty), 1, NoDice(), 6000)
    assert command is None or isinstance(command, PlaceHeadquarters)


def test_the_bot_takes_the_winning_objective() -> None:
    command = bot.choose(parse(WINNING), 1, ForcedDice([0]), 6000)
    assert command == Conquer(actor=command.actor, at_ms=6000, square="f3")


def test_the_bot_prefers_objectives_and_chooses_among_them_with_the_dice() -> None:
    first = bot.choose(parse(QUIET), 1, ForcedDice([0]), 6000)
    assert isinstance(first, Conquer) and first.square == "d4"
    blue = bot.choose(parse(QUIET), 2, ForcedDice([0]), 6000)
    assert isinstance(blue, Conquer) and blue.square == "d4"


def test_the_bot_liberates_with_the_colour_it_sees() -> None:
    guarded = "...2.../.#.b.#./.*.b.*./#..B..#/.*.a.*./.#.a.#./...1... a1:13:-:6000:0,b2:12:-:6000:0 map=standard-2"
    command = bot.choose(parse(guarded), 1, ForcedDice([0]), 6000)
    assert command == Liberate(actor=command.actor, at_ms=6000, square="d4", owner="blue")


def test_the_bot_guards_a_knot_next_to_an_objective_while_it_waits() -> None:
    command = bot.choose(parse(QUIET), 1, NoDice(), 5000)
    assert isinstance(command, PlaceHeadquarters) and command.square == "d3"  # d3 touches d4


def test_every_order_the_bot_gives_is_accepted() -> None:
    rng = random.Random(3)
    for seed in range(4):
        for state in play_random(seed, 3, 200).states:
            for seat in (1, 2, 3):
                at = (state.starts_at_ms or 0) + rng.randint(0, 20000)
                command = bot.choose(state, seat, RandomDice(rng), at)
                if command is None:
                    continue
                try:
                    RULESET.decide(state, command, NoDice())
                except RuleViolation as exc:  # pragma: no cover - the failure message
                    raise AssertionError(f"{state!r}: the bot's {command} was refused: {exc}") from exc
