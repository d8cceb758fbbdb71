"""Whole games through the referee core on the in-memory store, with a fake clock that the
test advances: the scheduler starts rounds and rings the round clock, bots play, and
``verify`` re-decides the whole log."""

from __future__ import annotations

import random

from wormlord_helpers import RandomDice, make_referee

from games.base import Actor, RuleViolation, SeatInfo, Viewer, work_key_text
from games.wormlord import RULESET, bot
from referee.core import Referee
from tests.fakes import FakeClock


def _run_due_work(referee: Referee, game: str, clock: FakeClock) -> int:
    ran = 0
    state, _ = referee.current(game)
    for work in RULESET.scheduled_work(state):
        assert work.when in ("now", "at"), "a real-time game has no deadline work (WL-R10)"
        due = work.when == "now" or (work.at_ms or 0) <= clock.ms
        if due and referee.run_due(game, work_key_text(work.key)) is not None:
            ran += 1
    return ran


def _play(settings: dict, seats: int, seed: int, step_ms: int = 700) -> tuple[Referee, str, FakeClock, int]:
    clock = FakeClock()
    referee = make_referee(clock)
    info = referee.create_game(ruleset="wormlord", settings=settings, seed="ab" * 32, game_id=f"play-{seed}")
    referee.start_game(info.id, [SeatInfo(n, f"p{n}") for n in range(1, seats + 1)])
    rng = random.Random(seed)
    refused = 0
    for _ in range(5000):
        _run_due_work(referee, info.id, clock)
        state, _ = referee.current(info.id)
        if RULESET.is_finished(state):
            break
        for seat in rng.sample(range(1, seats + 1), seats):
            state, _ = referee.current(info.id)
            command = bot.choose(state, seat, RandomDice(rng), clock.ms)
            if command is None:
                continue
            body = {k: v for k, v in RULESET.command_to_data(command).items() if k not in ("actor", "at_ms")}
            try:
                referee.handle(info.id, command_type=type(command).__name__, payload=body, actor=Actor.player(seat))
            except RuleViolation:
                refused += 1
        clock.advance(rng.randint(1, step_ms))
    return referee, info.id, clock, refused


def test_a_whole_game_through_the_referee_verifies() -> None:
    referee, game, _, refused = _play({"knot_interval_ms": 1000, "untie_ms": 200, "break_ms": 2000}, 3, seed=1)
    state, _ = referee.current(game)
    assert RULESET.is_finished(state), repr(state)
    assert refused == 0  # the bots only give orders that are legal at their arrival time
    result = RULESET.result(state)
    assert len(result.winners) == 1 and result.ranking[0] == result.winners
    assert referee.verify(game).ok
    assert referee.replay(game) == state


def test_a_timed_team_game_through_the_referee_verifies() -> None:
    settings = {"teams": True, "time_limit": True, "round_seconds": 60, "knot_interval_ms": 4000, "break_ms": 1000}
    referee, game, _, refused = _play(settings, 4, seed=2, step_ms=3000)
    state, _ = referee.current(game)
    assert RULESET.is_finished(state), repr(state)
    assert refused == 0
    assert referee.verify(game).ok
    assert set(RULESET.result(state).winners) in ({1, 2}, {3, 4})


def test_an_early_knot_is_refused_through_the_referee_with_the_wait() -> None:
    clock = FakeClock()
    referee = make_referee(clock)
    info = referee.create_game(ruleset="wormlord", settings={}, seed="cd" * 32)
    referee.start_game(info.id, [SeatInfo(1, "Ann"), SeatInfo(2, "Bob")])
    assert _run_due_work(referee, info.id, clock) == 1  # round 1 set up: "3, 2, 1..."
    view = referee.view(info.id, Viewer.for_seat(1))["position"]
    assert view["starts_at_ms"] == clock.ms + 3000
    clock.advance(3500)  # after NOW, but the first knot is still being tied
    before = referee.store.last_seq(info.id)
    try:
        referee.handle(info.id, command_type="Conquer", payload={"square": "d2"}, actor=Actor.player(1))
    except RuleViolation as exc:
        assert exc.rule == "§3.3" and "wait 2.5 s" in exc.message
    else:
        raise AssertionError("an early knot was accepted")
    assert referee.store.last_seq(info.id) == before  # WL-R16: a refusal leaves no record
    clock.advance(2500)
    referee.handle(info.id, command_type="Conquer", payload={"square": "d2"}, actor=Actor.player(1))
    assert referee.verify(info.id).ok
