"""A whole turn (one forum post, Worms' ``SubmitTurn``) is recorded as the referee read it:
every step carries the turn's player and time, whatever a client put in a step's own
``actor`` or ``at_ms`` (the rules play each step as the turn's), and a retry of the same
turn with the same idempotency key is recognised although it comes later."""

from __future__ import annotations

from games.base import Actor, SeatInfo
from games.registry import default_registry
from referee.core import Referee
from referee.store.base import RecordKind
from referee.store.memory import InMemoryEventStore

GAME = "whole-turn"
SHOPPING = {"team_weapon": "minigun", "items": [{"item": "bazooka", "count": 2}, {"item": "mine", "count": 2}]}


def started(clock) -> tuple[Referee, int]:  # noqa: ANN001  (the FakeClock fixture)
    referee = Referee(InMemoryEventStore(), default_registry(), clock, backoff=lambda attempt: None)
    referee.create_game(ruleset="worms", game_id=GAME, seed="7e57" * 16)
    referee.start_game(GAME, [SeatInfo(1, "Ann"), SeatInfo(2, "Bob")])
    for seat in (1, 2):
        referee.handle(GAME, command_type="SubmitShoppingList", payload=SHOPPING, actor=Actor.player(seat))
    referee.run_due(GAME, "start")
    state, _ = referee.current(GAME)
    referee.run_due(GAME, f"turn:{state.turn}:start")
    state, _ = referee.current(GAME)
    return referee, state.seat


def test_every_step_of_a_whole_turn_is_recorded_as_the_players_at_the_turns_time(clock):
    referee, seat = started(clock)
    forged = {"actor": {"kind": "moderator", "seat": None}, "at_ms": 1}
    outcome = referee.handle(GAME, command_type="SubmitTurn", payload={"steps": [forged]},
                             actor=Actor.player(seat), idempotency_key="post-1")
    command = next(r for r in outcome.records if r.kind is RecordKind.COMMAND)
    turn_actor, turn_time = command.payload["actor"], command.payload["at_ms"]
    assert turn_actor == {"kind": "player", "seat": seat} and turn_time > 1
    assert [(s["actor"], s["at_ms"]) for s in command.payload["steps"]] == [(turn_actor, turn_time)]


def test_the_same_turn_sent_again_later_with_its_key_is_the_first_one(clock):
    referee, seat = started(clock)
    first = referee.handle(GAME, command_type="SubmitTurn", payload={"steps": [{}]},
                           actor=Actor.player(seat), idempotency_key="post-1")
    clock.advance(seconds=30)
    again = referee.handle(GAME, command_type="SubmitTurn", payload={"steps": [{}]},
                           actor=Actor.player(seat), idempotency_key="post-1")
    assert again.replayed and again.records == first.records
