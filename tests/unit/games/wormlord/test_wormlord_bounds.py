"""What one seat may add to the log in a round (ruling WL-R18): version 2 bounds the
headquarters moves of a colour and the talk of a seat; version 1 games keep their rules and
their position's shape, so they replay and verify as they were played."""

from __future__ import annotations

from dataclasses import replace

import pytest
from wormlord_helpers import FakeClock

from games.base import Actor, Command, Registry, RuleViolation, SeatInfo, Viewer, work_key_text
from games.dice import NoDice
from games.registry import default_registry
from games.wormlord import RULESET, RULESET_V1, WormlordRuleset, bot
from games.wormlord.bounds import HQ_MOVES_PER_ROUND, SAYS_PER_ROUND, CountedState, counted
from games.wormlord.commands import LiftHeadquarters, PlaceHeadquarters, Say
from games.wormlord.notation import parse
from games.wormlord.state import WormlordState
from referee.core import Referee
from referee.store.memory import InMemoryEventStore

BOARD = "...2.../.#.b.#./.*.b.*./#..*..#/.*.a.*./.#.a.#./...1..."
DUEL = f"{BOARD} a1:13:-:6000:0,b2:13:-:6000:0 map=standard-2"
TEAMS = f"{BOARD} a1+2:13:-:6000:0,b3+4:13:-:6000:0 map=standard-2"


def _give(rules: WormlordRuleset, state: WormlordState, commands: list[Command]) -> WormlordState:
    for command in commands:
        state = rules.fold(state, rules.decide(state, command, NoDice()))
    return state


def _hq_moves(times: int, seat: int = 1) -> list[Command]:
    """Place on d3, lift, place on d3 ...: ``times`` accepted moves."""
    actor = Actor.player(seat)
    return [
        PlaceHeadquarters(actor=actor, at_ms=6000, square="d3") if n % 2 == 0 else LiftHeadquarters(actor=actor, at_ms=6000)
        for n in range(times)
    ]


def test_version_2_refuses_the_thirty_first_headquarters_move_and_changes_nothing() -> None:
    state = _give(RULESET, parse(DUEL), _hq_moves(HQ_MOVES_PER_ROUND))
    assert state.side_of_seat(1).hq is None  # the thirtieth move lifted it
    with pytest.raises(RuleViolation) as refused:
        RULESET.decide(state, PlaceHeadquarters(actor=Actor.player(1), at_ms=6100, square="d2"), NoDice())
    assert refused.value.rule == "WL-R18"
    assert refused.value.message == (
        "Pink has placed or lifted its headquarters 30 times in round 1, the most a colour may in one round; "
        "it stays as it is until the next round starts."
    )
    # blue's headquarters is its own: pink's count does not touch it
    blue = RULESET.decide(state, PlaceHeadquarters(actor=Actor.player(2), at_ms=6100, square="d6"), NoDice())
    assert [type(e).__name__ for e in blue] == ["HeadquartersPlaced"]


def test_a_wrong_square_is_told_as_such_even_past_the_bound() -> None:
    state = _give(RULESET, parse(DUEL), _hq_moves(HQ_MOVES_PER_ROUND))
    with pytest.raises(RuleViolation) as refused:
        RULESET.decide(state, PlaceHeadquarters(actor=Actor.player(1), at_ms=6100, square="d4"), NoDice())
    assert refused.value.rule == "§5" and "Objective" in refused.value.message


def test_version_2_refuses_the_hundred_and_first_message_of_a_seat() -> None:
    talk = [Say(actor=Actor.player(1), at_ms=6000, text=f"message {n}") for n in range(SAYS_PER_ROUND)]
    state = _give(RULESET, parse(TEAMS), talk)
    with pytest.raises(RuleViolation) as refused:
        RULESET.decide(state, Say(actor=Actor.player(1), at_ms=6100, text="one more"), NoDice())
    assert refused.value.rule == "WL-R18" and "spoken 100 times since round 1 started" in refused.value.message


def test_the_round_counts_are_kept_in_a_snapshot_and_never_shown() -> None:
    talk = [Say(actor=Actor.player(2), at_ms=6000, text="go")] * 3
    state = _give(RULESET, parse(TEAMS), _hq_moves(5) + talk)
    assert isinstance(state, CountedState)
    assert (state.hq_moves, state.said) == (((state.side_of_seat(1).colour, 5),), ((2, 3),))
    assert RULESET.state_from_data(RULESET.state_to_data(state)) == state
    # how often a team talked is its own business: no view tells it
    for viewer in (Viewer.for_seat(1), Viewer.for_seat(3)):
        assert RULESET.view(state, viewer) == RULESET.view(replace(state, said=()), viewer)


def test_the_bot_stops_moving_its_headquarters_at_the_bound() -> None:
    # pink's knot is still being tied, so the bot would guard d3 (next to two Objectives)
    waiting = parse(f"{BOARD} a1:13:-:20000:0,b2:13:-:6000:0 map=standard-2")
    assert isinstance(bot.choose(counted(waiting), 1, NoDice(), 6000), PlaceHeadquarters)
    spent = _give(RULESET, waiting, _hq_moves(HQ_MOVES_PER_ROUND))
    assert bot.choose(spent, 1, NoDice(), 6000) is None


def test_version_1_games_keep_their_unbounded_headquarters_moves_and_talk() -> None:
    assert default_registry().get("wormlord").version == "2"
    assert default_registry().get("wormlord", "1") is RULESET_V1
    assert type(RULESET_V1.initial_state()) is WormlordState
    talk = [Say(actor=Actor.player(1), at_ms=6000, text="go")] * (SAYS_PER_ROUND + 20)
    state = _give(RULESET_V1, parse(TEAMS), _hq_moves(2 * HQ_MOVES_PER_ROUND + 1) + talk)
    assert state.side_of_seat(1).hq == "d3"
    # its position keeps version 1's shape, so the snapshots its games wrote still match
    assert type(state) is WormlordState
    assert set(RULESET_V1.state_to_data(state)) == set(RULESET_V1.state_to_data(WormlordState()))


def _referee(clock: FakeClock) -> Referee:
    return Referee(InMemoryEventStore(), Registry().register(RULESET_V1).register(RULESET), clock,
                   snapshot_every=25, backoff=lambda a: None)


@pytest.mark.parametrize(("version", "accepted"), [("2", HQ_MOVES_PER_ROUND), ("1", 80)])
def test_a_seat_moving_its_headquarters_all_round_through_the_referee(version: str, accepted: int) -> None:
    """Version 2: 80 moves in a round add 60 records (30 orders and their events) and the
    rest are refused with nothing recorded (a move to where the headquarters already
    stands is refused under §5 first); version 1 records all 160. Both verify, from
    snapshots of their own position's shape."""
    clock = FakeClock()
    referee = _referee(clock)
    info = referee.create_game(ruleset="wormlord", version=version, settings={"knot_interval_ms": 1000},
                               seed="ef" * 32)
    referee.start_game(info.id, [SeatInfo(1, "Ann"), SeatInfo(2, "Bob")])
    state, _ = referee.current(info.id)
    for work in referee.registry.get("wormlord", version).scheduled_work(state):
        referee.run_due(info.id, work_key_text(work.key))
    for square in ("d2", "d3"):
        clock.advance(4000)  # after NOW, the knot tied
        referee.handle(info.id, command_type="Conquer", payload={"square": square}, actor=Actor.player(1))
    before = referee.store.last_seq(info.id)
    refused = []
    for n in range(80):
        try:
            referee.handle(info.id, command_type="PlaceHeadquarters", payload={"square": "d2" if n % 2 else "d3"},
                           actor=Actor.player(1))
        except RuleViolation as exc:
            refused.append(exc.rule)
    assert referee.store.last_seq(info.id) - before == 2 * accepted
    assert refused == ["WL-R18", "§5"] * ((80 - accepted) // 2)
    assert referee.verify(info.id).ok
