"""A whole 8-bot game through the referee on the in-memory store and a fake clock: the
example bot plays from its JSON view, some bots sleep through ticks, the scheduler closes
those ticks at their deadline, the game ends by itself and its log verifies."""

from __future__ import annotations

import json
import random

from games.base import Actor, Registry, RuleViolation, SeatInfo, Viewer, work_key_text
from games.parties import RULESET
from games.parties.bot import legal_moves, move_order
from referee.core import Referee
from referee.store.memory import InMemoryEventStore
from tests.fakes import FakeClock


def test_eight_bots_play_a_whole_game_that_ends_by_itself_and_verifies() -> None:
    clock = FakeClock()
    referee = Referee(InMemoryEventStore(), Registry().register(RULESET), clock, backoff=lambda a: None)
    info = referee.create_game(
        ruleset="parties", settings={"width": 12, "height": 10, "tick_seconds": 5, "max_ticks": 400},
        seed="2b" * 32, game_id="eight-bots",  # the dice depend on the game id too: fixed, so is the game
    )
    referee.start_game(info.id, [SeatInfo(n, f"bot {n}") for n in range(1, 9)])
    assert referee.run_due(info.id, work_key_text(("start",))) is not None
    rng = random.Random(7)
    deadlines = 0
    for _ in range(400):
        state, _ = referee.current(info.id)
        if RULESET.is_finished(state):
            break
        tick = state.tick
        clock.advance(seconds=1)
        for seat in sorted(RULESET.to_act(state)):
            if rng.random() < 0.05:
                continue  # this bot oversleeps the tick
            view = json.loads(json.dumps(referee.view(info.id, Viewer.for_seat(seat))["position"]))
            body = move_order(view, rng)
            if body is None:
                continue
            try:
                referee.handle(info.id, command_type="Move", payload=body, actor=Actor.player(seat))
            except RuleViolation as exc:  # a move for a tick that closed meanwhile
                assert exc.rule == "tick", exc
        state, _ = referee.current(info.id)
        if state.tick == tick and not RULESET.is_finished(state):
            assert referee.run_due(info.id, work_key_text(("tick", tick))) is None  # not due yet
            clock.advance(seconds=5)
            assert referee.run_due(info.id, work_key_text(("tick", tick))) is not None
            deadlines += 1
    state, _ = referee.current(info.id)
    result = RULESET.result(state)
    assert result.finished
    assert state.ended == "united"  # this seed unites before the cap
    assert sorted(s for place in result.ranking for s in place) == list(range(1, 9))
    assert deadlines > 0
    assert referee.store.get_game(info.id).status == "finished"
    assert referee.verify(info.id).ok, referee.verify(info.id).problems


def _game_where_bot_1_chose(direction_index: int) -> tuple[Referee, str]:
    clock = FakeClock()
    referee = Referee(InMemoryEventStore(), Registry().register(RULESET), clock, backoff=lambda a: None)
    info = referee.create_game(ruleset="parties", settings={"width": 8, "height": 8}, seed="3c" * 32, game_id="leak")
    referee.start_game(info.id, [SeatInfo(n, f"bot {n}") for n in range(1, 4)])
    referee.run_due(info.id, work_key_text(("start",)))
    clock.advance(seconds=1)
    view = referee.view(info.id, Viewer.for_seat(1))["position"]
    choices = [*legal_moves(view, next(b for b in view["bots"] if b["seat"] == 1)), "stay"]
    referee.handle(info.id, command_type="Move", payload={"direction": choices[direction_index]}, actor=Actor.player(1))
    return referee, info.id


def test_through_the_referee_others_learn_that_bot_1_chose_but_not_what() -> None:
    (one, game), (other, _) = _game_where_bot_1_chose(0), _game_where_bot_1_chose(-1)

    def seen(referee: Referee, seat: int) -> str:
        viewer = Viewer.for_seat(seat)
        return json.dumps([referee.view(game, viewer), referee.feed(game, viewer)], sort_keys=True)

    for seat in (2, 3):
        assert seen(one, seat) == seen(other, seat)
    assert seen(one, 1) != seen(other, 1)
    assert one.view(game, Viewer.for_seat(2))["position"]["to_act"] == [2, 3]
