"""The ruleset as the referee uses it: atomic turns, serialization, secrecy, replay."""

from __future__ import annotations

import pytest
from worms_helpers import SEED, started_game

from games.base import MODERATOR_VIEW, PUBLIC, SCHEDULER, Actor, RuleViolation, Viewer
from games.dice import ForcedDice, NoDice, RecordedDice, SeededDice
from games.serialization import from_data, to_data
from games.worms import RULESET
from games.worms.board import name, orthogonal_neighbours
from games.worms.commands import EndTurn, Fire, MoveWorm, SkipTurn, SubmitTurn
from games.worms.events import CardDropped, CrateFilled, ItemsGained
from games.worms.movement import step_problem
from games.worms.notation import format_position, parse, validate
from games.worms.state import Card, CrateKind, Stock, WormsState

FLAT = "/".join(["5{15}"] * 15)
START = f"{FLAT} 0 - 2/10 3:1 A1,B2 A1@c3:150,A2@e3:150,B1@k11:150 - - h3w:sheep1 i4:mine1 A:prod*+dynamite1;B:prod*+bazooka2 -"


def test_a_refused_whole_turn_changes_nothing() -> None:
    state = parse(START)
    turn = SubmitTurn(
        actor=Actor.player(1),
        steps=(MoveWorm(worm="A1", path=("c4",)), MoveWorm(worm="A1", path=("c5", "c6", "c7"))),
    )
    with pytest.raises(RuleViolation) as info:
        RULESET.decide(state, turn, NoDice())
    assert info.value.rule == "§7"
    assert info.value.message.startswith("Step 2:")
    assert format_position(state) == START


def test_a_whole_turn_gives_the_same_events_as_its_steps_one_by_one() -> None:
    state = parse(START)
    steps = (MoveWorm(worm="A1", path=("c4", "c5")), Fire(worm="A1", weapon="prod", target="E"), EndTurn())
    whole = RULESET.decide(state, SubmitTurn(actor=Actor.player(1), steps=steps), NoDice())
    one_by_one = []
    s = state
    for step in steps:
        events = RULESET.decide(s, type(step)(**{**step.__dict__, "actor": Actor.player(1)}), NoDice())
        one_by_one.extend(events)
        s = RULESET.fold(s, events)
    assert whole == tuple(one_by_one)


def test_steps_after_the_turn_ended_are_refused() -> None:
    state = parse(START)
    turn = SubmitTurn(actor=Actor.player(1), steps=(EndTurn(), MoveWorm(worm="A1", path=("c4",))))
    with pytest.raises(RuleViolation, match="Step 2: the turn is already over"):
        RULESET.decide(state, turn, NoDice())


def test_orders_round_trip_through_data() -> None:
    turn = SubmitTurn(
        actor=Actor.player(1),
        at_ms=5,
        steps=(MoveWorm(worm="A1", path=("c4",)), Fire(worm="A1", weapon="prod", target="E"), EndTurn()),
    )
    data = RULESET.command_to_data(turn)
    assert RULESET.command_from_data("SubmitTurn", data) == turn


def test_an_unknown_order_is_refused_by_name() -> None:
    with pytest.raises(RuleViolation, match="known orders"):
        RULESET.command_from_data("Teleport", {})


def test_states_round_trip_through_data() -> None:
    state = started_game(3)
    assert RULESET.state_from_data(to_data(state)) == state
    position = parse(START)
    assert from_data(WormsState, to_data(position)) == position


def test_secrets_are_hidden_from_other_seats_and_the_public() -> None:
    state = parse(START)
    mine = RULESET.view(state, Viewer.for_seat(1))
    theirs = RULESET.view(state, Viewer.for_seat(2))
    public = RULESET.view(state, PUBLIC)
    everything = RULESET.view(state, MODERATOR_VIEW)
    assert mine["teams"][0]["inventory"] is not None and mine["teams"][1]["inventory"] is None
    assert theirs["teams"][0]["inventory"] is None
    assert all(t["inventory"] is None for t in public["teams"])
    assert public["crates"][0]["contents"] is None and public["crates"][0]["kind"] == "w"
    assert public["cards"][0]["contents"] is None
    assert everything["crates"][0]["contents"] == [{"item": "sheep", "count": 1}]
    assert everything["teams"][1]["inventory"] == [{"item": "prod", "count": None}, {"item": "bazooka", "count": 2}]


def test_private_events_reach_only_their_audience() -> None:
    filled = CrateFilled(1, 1, (Stock("sheep", 1),))
    gained = ItemsGained(2, (Stock("sheep", 1),), "crate")
    card = CardDropped(Card(1, 1, (Stock("mine", 1),)))
    for event in (filled, card):
        assert RULESET.view_event(event, Viewer.for_seat(1)) is None
        assert RULESET.view_event(event, MODERATOR_VIEW) is not None
    assert RULESET.view_event(gained, Viewer.for_seat(2)) is not None
    assert RULESET.view_event(gained, Viewer.for_seat(1)) is None
    assert RULESET.view_event(gained, PUBLIC) is None


def test_the_deadline_skips_the_turn() -> None:
    state = parse(START)
    command = RULESET.deadline_command(state, (1,), "skip")
    assert command == SkipTurn(actor=SCHEDULER, turn=3)
    after = RULESET.fold(state, RULESET.decide(state, command, NoDice()))
    assert after.seat == 2
    with pytest.raises(RuleViolation):
        RULESET.deadline_command(state, (1,), "coin-toss")


def test_a_late_deadline_for_a_finished_turn_is_refused() -> None:
    state = parse(START)
    state = RULESET.fold(state, RULESET.decide(state, EndTurn(actor=Actor.player(1)), NoDice()))
    with pytest.raises(RuleViolation):
        RULESET.decide(state, SkipTurn(actor=SCHEDULER, turn=3), NoDice())


def _play(state: WormsState, turns: int, game: str) -> tuple[WormsState, list]:
    """A simple player: each turn, walk the first worm that can to its first free square,
    prod if an enemy is next to it, then end. Returns the end state and the log."""
    log = []
    seq = 200
    for _ in range(turns):
        if RULESET.is_finished(state):
            break
        seq += 1
        work = RULESET.scheduled_work(state)
        if work and work[0].when == "now":
            command = work[0].command
        else:
            seat = state.seat
            command = EndTurn(actor=Actor.player(seat))
            for worm in state.worms_of(seat):
                target = next(
                    (t for t in orthogonal_neighbours(worm.square) if step_problem(state, worm.square, t) is None),
                    None,
                )
                if target is not None:
                    command = SubmitTurn(
                        actor=Actor.player(seat),
                        steps=(MoveWorm(worm=worm.id, path=(name(target),)), EndTurn()),
                    )
                    break
        dice = SeededDice(SEED, game, seq)
        events = RULESET.decide(state, command, dice)
        log.append((command, tuple(dice.draws), events))
        state = RULESET.fold(state, events)
        assert validate(state) == [], (validate(state), format_position(state))
    return state, log


@pytest.mark.parametrize("game", ["long-1", "long-2", "long-3"])
def test_a_long_game_stays_valid_and_replays_from_its_recorded_dice(game: str) -> None:
    start = started_game(3, game)
    end, log = _play(start, 150, game)
    replayed = start
    for command, draws, events in log:
        again = RULESET.decide(replayed, command, RecordedDice(draws))
        assert again == events
        stored = [RULESET.event_from_data(RULESET.event_type_name(e), RULESET.event_to_data(e)) for e in events]
        replayed = RULESET.fold(replayed, stored)
    assert replayed == end
    assert end.round > 1


def test_a_crate_falls_at_turn_start_with_hidden_contents() -> None:
    state = parse(START.replace(" 3:1 ", " 3:1s "))
    events = RULESET.decide(state, RULESET.scheduled_work(state)[0].command, ForcedDice([1, 0, 1, 2, 0]))
    state = RULESET.fold(state, events)
    crate = state.crate_at((0, 0))
    assert crate is not None and crate.kind is CrateKind.WEAPON
    assert crate.contents == (Stock("shotgun", 1),)
    public = [RULESET.view_event(e, PUBLIC) for e in events]
    assert all(p is None or "contents" not in p for p in public)
