"""Verify recomputes every recorded draw from the game's seed: a forger who changes a draw,
the event it decided and every hash after it is still caught, at the draw's seq."""

from __future__ import annotations

from games.base import Actor
from referee.core import Referee
from referee.store.memory import InMemoryEventStore
from tests.unit.referee.conftest import first_player


def _rechain(store: InMemoryEventStore, game: str, start: int) -> None:
    """Recompute every hash from ``start`` on, as a forger with write access would."""
    for r in store.read(game, after=start - 1):
        prev = store.read(game)[r.seq - 2].hash if r.seq > 1 else r.prev_hash
        store.tamper(game, r.seq, prev_hash=prev)
        store.tamper(game, r.seq, hash=store.read(game)[r.seq - 1].computed_hash())


def _forge_a_roll(referee: Referee, store: InMemoryEventStore, game: str) -> int:
    seat = first_player(referee, game)
    outcome = referee.handle(game, command_type="Roll", payload={}, actor=Actor.player(seat))
    order, event = outcome.records[0], outcome.records[1]
    value = event.payload["value"]
    forged = 6 if value != 6 else 5
    draws = tuple({**d, "value": forged} if i == 0 else d for i, d in enumerate(order.draws))
    store.tamper(game, order.seq, draws=draws)
    store.tamper(game, event.seq, payload={**event.payload, "value": forged})
    _rechain(store, game, order.seq)
    return order.seq


def test_a_forged_draw_with_its_event_and_a_rehashed_chain_fails_at_the_orders_seq(referee, store, game):
    seq = _forge_a_roll(referee, store, game)
    report = referee.verify(game)
    checks = {p.check for p in report.problems}
    assert not checks & {"hash", "chain", "sequence"}, report.problems
    assert not report.ok
    assert report.first_problem.seq == seq
    assert report.first_problem.check == "dice"
    assert f"seq {seq}" in str(report.first_problem)


def test_a_forged_setup_draw_is_caught_at_seq_one(referee, store, game):
    setup = store.read(game)[0]
    if not setup.draws:  # Pig's setup shuffles the seats: there is a draw to forge
        raise AssertionError("Pig's setup should roll")
    first = setup.draws[0]
    other = first["low"] if first["value"] != first["low"] else first["high"]
    store.tamper(game, 1, draws=({**first, "value": other}, *setup.draws[1:]))
    _rechain(store, game, 1)
    report = referee.verify(game)
    assert not report.ok
    assert report.first_problem.seq == 1


def test_an_honest_log_still_verifies(referee, game):
    seat = first_player(referee, game)
    referee.handle(game, command_type="Roll", payload={}, actor=Actor.player(seat))
    assert referee.verify(game).ok
