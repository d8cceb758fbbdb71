"""Random order lists (the bot's, and random ones good and bad) never crash the engine;
every position reached is valid; replaying the recorded events, or re-deciding the orders
with the recorded dice, gives the live game back; a whole bot game through the referee
verifies."""

from __future__ import annotations

import datetime as dt
import json
import random

import pytest
from lggwg_helpers import SEED, bot_command, started

from games.base import REFEREE, Actor, Command, Registry, RuleViolation, SeatInfo
from games.dice import RecordedDice, SeededDice
from games.lggwg import RULESET
from games.lggwg.board import DIRECTION_NAMES, name
from games.lggwg.commands import SubmitOrders
from games.lggwg.notation import format_position, parse, validate
from games.lggwg.orders import KINDS
from games.lggwg.state import LggwgState, Order
from referee.core import Referee
from referee.store.memory import InMemoryEventStore
from tests.fakes import FakeClock


def _random_order(rng: random.Random, state: LggwgState, seat: int) -> Order:
    units = [u.id for u in state.units_of(seat)] or ["R1"]
    kind = rng.choice(KINDS)
    target = ""
    if kind in ("move", "oppmove"):
        target = rng.choice(DIRECTION_NAMES)
    elif kind == "fire":
        target = name((rng.randrange(-1, state.width + 1), rng.randrange(0, state.height + 1)))
    return Order(kind, rng.choice(units) if kind != "forfeit" else "", target)


def _command(rng: random.Random, state: LggwgState, seat: int, game: str, seq: int) -> Command:
    if rng.random() < 0.7:
        return bot_command(state, seat, game, seq)
    orders = tuple(_random_order(rng, state, seat) for _ in range(rng.randint(0, 6)))
    if rng.random() < 0.02:
        orders = (Order("forfeit"),)
    return SubmitOrders(actor=Actor.player(seat), orders=orders)


@pytest.mark.parametrize(("map_name", "seats"), [("duel", 2), ("flags", 2), ("triangle", 3), ("cross", 4)])
def test_random_lists_never_crash_and_every_game_replays(map_name: str, seats: int) -> None:
    game = f"fuzz-{map_name}"
    rng = random.Random(game)
    start = started(map_name, seats, game, max_turns=12)
    state, log, refused = start, [], 0
    events_all = []
    for seq in range(2, 400):
        if RULESET.is_finished(state):
            break
        waiting = sorted(RULESET.to_act(state))
        if rng.random() < 0.05:
            command: Command = RULESET.deadline_command(state, tuple(waiting), rng.choice(("hold", "bot")))
            command = type(command)(**{**command.__dict__, "actor": REFEREE})
        else:
            command = _command(rng, state, rng.choice(waiting), game, seq)
        dice = SeededDice(SEED, game, seq)
        try:
            events = RULESET.decide(state, command, dice)
        except RuleViolation as exc:
            assert exc.rule.startswith("§") and exc.message
            refused += 1
            continue
        log.append((command, tuple(dice.draws), events))
        events_all.extend(events)
        state = RULESET.fold(state, events)
        assert validate(state) == [], (validate(state), format_position(state))
        assert format_position(parse(format_position(state))) == format_position(state)
    assert RULESET.is_finished(state), format_position(state)
    assert refused, "some random lists are refused"
    assert RULESET.fold(start, events_all) == state, "replay from the events equals the live state"
    assert RULESET.state_from_data(json.loads(json.dumps(RULESET.state_to_data(state)))) == state
    decoded = [
        RULESET.event_from_data(RULESET.event_type_name(e), json.loads(json.dumps(RULESET.event_to_data(e))))
        for e in events_all
    ]
    assert decoded == events_all, "events survive the log's JSON"
    replayed = start
    for command, draws, events in log:
        assert RULESET.decide(replayed, command, RecordedDice(draws)) == events
        replayed = RULESET.fold(replayed, events)
    assert replayed == state


def test_the_bot_list_is_always_accepted() -> None:
    for map_name, seats in (("duel", 2), ("cross", 4)):
        state = started(map_name, seats, "bot-legal", max_turns=8)
        seq = 2
        while not RULESET.is_finished(state):
            for seat in sorted(RULESET.to_act(state)):
                events = RULESET.decide(state, bot_command(state, seat, "bot-legal", seq), SeededDice(SEED, "b", seq))
                state = RULESET.fold(state, events)
                seq += 1
                if RULESET.is_finished(state) or state.team(seat) is None:
                    break


def test_a_whole_bot_game_through_the_referee_verifies() -> None:
    referee = Referee(InMemoryEventStore(), Registry().register(RULESET), FakeClock(tick=dt.timedelta(seconds=1)), backoff=lambda attempt: None)
    info = referee.create_game(ruleset="lggwg", settings={"map": "triangle", "max_turns": 6}, seed=SEED,
                               game_id="bot-game")  # the dice depend on the game id: fixed
    referee.start_game(info.id, [SeatInfo(1, "Ann"), SeatInfo(2, "Bob"), SeatInfo(3, "Cy")])
    seq = 0
    while True:
        state, _ = referee.current(info.id)
        if RULESET.is_finished(state):
            break
        seq += 1
        waiting = sorted(RULESET.to_act(state))
        if seq % 4 == 0:
            command = RULESET.deadline_command(state, tuple(waiting), "bot")
            referee.handle(info.id, command_type="ResolveAtDeadline", payload=RULESET.command_to_data(command),
                           actor=REFEREE)
            continue
        seat = waiting[0]
        command = bot_command(state, seat, "ref", seq)
        referee.handle(info.id, command_type="SubmitOrders", payload=RULESET.command_to_data(command),
                       actor=Actor.player(seat))
    report = referee.verify(info.id)
    assert report.ok, report.first_problem()
    assert RULESET.result(state).finished


def test_the_bot_writes_the_same_list_from_a_seat_view_as_from_the_position() -> None:
    from games.base import Viewer
    from games.lggwg.bot import bot_orders, bot_orders_from_view

    state = started("cross", 4, "view-bot", max_turns=6)
    seq = 2
    compared = 0
    while not RULESET.is_finished(state):
        for seat in sorted(RULESET.to_act(state)):
            view = RULESET.view(state, Viewer.for_seat(seat))
            from_state = bot_orders(state, seat, SeededDice(SEED, "vb", seq))
            from_view = bot_orders_from_view(view, SeededDice(SEED, "vb", seq))
            assert from_view == [{"kind": o.kind, "unit": o.unit, "target": o.target} for o in from_state]
            compared += 1
            events = RULESET.decide(state, SubmitOrders(actor=Actor.player(seat), orders=from_state),
                                    SeededDice(SEED, "vb-play", seq))
            state = RULESET.fold(state, events)
            seq += 1
            if RULESET.is_finished(state):
                break
    assert compared > 10
