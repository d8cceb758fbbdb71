"""Leak tests through the referee core (in-memory store, no database): two games with the
same id and seed that differ only in one secret give every other seat, and the public,
byte-identical feeds and views; refusals stay private to the seat that gave the order.
Orders the referee gives for a seat (a deadline's or a vacation's turn) and moderators'
corrections are compared over every read path (``tests.read_paths``), in logs written now
and in logs the referee of old wrote, where those orders were recorded public."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from games.base import (
    MODERATOR,
    MODERATOR_VIEW,
    PUBLIC,
    Actor,
    ActorKind,
    RuleViolation,
    SeatInfo,
    Viewer,
)
from games.registry import default_registry
from games.worms.board import name, orthogonal_neighbours
from games.worms.movement import step_problem
from games.worms.state import WormsState
from referee.core import Referee
from referee.store.memory import InMemoryEventStore
from tests.fakes import FakeClock
from tests.fixtures import OldOrdersReferee
from tests.read_paths import differing, every_read

SEED = "5ec7" * 16
GAME = "leak-test"


def new_referee(referee_type: type[Referee] = Referee) -> Referee:
    return referee_type(InMemoryEventStore(), default_registry(), FakeClock(tick=dt.timedelta(seconds=1)), backoff=lambda attempt: None)


def items(*pairs: tuple[str, int]) -> list[dict[str, Any]]:
    return [{"item": item, "count": count} for item, count in pairs]


def started(lists: dict[int, list[dict[str, Any]]], referee_type: type[Referee] = Referee) -> Referee:
    referee = new_referee(referee_type)
    referee.create_game(ruleset="worms", game_id=GAME, seed=SEED)
    referee.start_game(GAME, [SeatInfo(1, "Ann"), SeatInfo(2, "Bob")])
    for seat, bought in lists.items():
        referee.handle(
            GAME, command_type="SubmitShoppingList", payload={"team_weapon": "minigun", "items": bought},
            actor=Actor.player(seat),
        )
    referee.run_due(GAME, "start")
    state, _ = referee.current(GAME)
    referee.run_due(GAME, f"turn:{state.turn}:start")
    return referee


def order(referee: Referee, seat: int, command_type: str, payload: dict[str, Any]) -> str | None:
    try:
        referee.handle(GAME, command_type=command_type, payload=payload, actor=Actor.player(seat))
    except RuleViolation as exc:
        return exc.message
    return None


def shown(referee: Referee, viewer: Viewer) -> str:
    return json.dumps(
        {"feed": referee.feed(GAME, viewer), "view": referee.view(GAME, viewer)}, sort_keys=True
    )


def acting(referee: Referee) -> tuple[WormsState, int, int]:
    state, _ = referee.current(GAME)
    assert state.seat is not None
    other = next(t.seat for t in state.teams if t.seat != state.seat)
    return state, state.seat, other


def end_and_start_next(referee: Referee, seat: int) -> None:
    assert order(referee, seat, "EndTurn", {}) is None
    state, _ = referee.current(GAME)
    referee.run_due(GAME, f"turn:{state.turn}:start")


def test_an_inventory_with_or_without_a_kamikaze_through_the_referee() -> None:
    plain = items(("bazooka", 2), ("parachute", 1))
    games = []
    for extra in ([], items(("kamikaze", 1))):
        referee = started({1: plain + extra, 2: plain})
        state, seat, other = acting(referee)
        refusal = order(referee, other, "Fire", {"worm": state.worms_of(other)[0].id, "weapon": "kamikaze", "target": "N"})
        end_and_start_next(referee, seat)
        games.append((referee, refusal))
    (a, refusal_a), (b, refusal_b) = games
    assert refusal_a == refusal_b
    for viewer in (Viewer.for_seat(2), PUBLIC):
        assert shown(a, viewer) == shown(b, viewer)
    assert shown(a, Viewer.for_seat(1)) != shown(b, Viewer.for_seat(1))
    assert shown(a, MODERATOR_VIEW) != shown(b, MODERATOR_VIEW)


def _two_steps(state: WormsState, worm_id: str) -> tuple[str, str]:
    """Two different squares next to the worm where a step is plain (no fall, no object)."""
    worm = state.worm(worm_id)
    assert worm is not None
    good = [
        s for s in orthogonal_neighbours(worm.square)
        if step_problem(state, worm.square, s) is None and state.empty(s)
        and state.height(worm.square) - state.height(s) <= 2
    ]
    assert len(good) >= 2, "the seeded map leaves this worm fewer than two plain steps"
    return name(good[0]), name(good[1])


def test_an_invisible_worm_at_a_or_b_through_the_referee() -> None:
    lists = {1: items(("invisibility", 1), ("bazooka", 2)), 2: items(("invisibility", 1), ("bazooka", 2))}
    probe = started(lists)
    state, seat, other = acting(probe)
    worm = next(w.id for w in state.worms_of(seat) if len(_safe(state, w.id)) >= 2)
    squares = _two_steps(state, worm)
    feeds = []
    for square in squares:
        referee = started(lists)
        assert order(referee, seat, "UseUtility", {"worm": worm, "utility": "invisibility"}) is None
        assert order(referee, seat, "MoveWorm", {"worm": worm, "path": [square]}) is None
        end_and_start_next(referee, seat)
        # the other seat's refused order: same words whatever the secret
        refusal = order(referee, other, "MoveWorm", {"worm": worm, "path": ["a1"]})
        feeds.append((referee, refusal))
    (a, refusal_a), (b, refusal_b) = feeds
    assert refusal_a == refusal_b
    for viewer in (Viewer.for_seat(other), PUBLIC):
        assert shown(a, viewer) == shown(b, viewer)
    assert shown(a, Viewer.for_seat(seat)) != shown(b, Viewer.for_seat(seat))
    assert shown(a, MODERATOR_VIEW) != shown(b, MODERATOR_VIEW)


def _safe(state: WormsState, worm_id: str) -> list[str]:
    try:
        return list(_two_steps(state, worm_id))
    except AssertionError:
        return []


def test_when_the_game_is_over_the_whole_log_is_public() -> None:
    referee = started({1: items(("bazooka", 2)), 2: items(("bazooka", 2))})
    state, seat, other = acting(referee)
    referee.handle(GAME, command_type="Surrender", payload={}, actor=Actor.player(other))
    assert referee.current(GAME)[0].winner == seat
    assert shown(referee, PUBLIC) == shown(referee, MODERATOR_VIEW)


def _with_first_weapon_crate_holding(item: str) -> Referee:
    """A game played (turns ended) until a weapon crate has fallen; its contents are then
    set to ``item`` in the stored log, as if the dice had filled it so."""
    from dataclasses import replace

    referee = started({1: items(("bazooka", 2)), 2: items(("bazooka", 2))})
    referee.snapshot_every = 10**6
    for _ in range(20):
        records = referee.store.read(GAME)
        filled = [r for r in records if r.type == "CrateFilled"]
        weapon_squares = {
            (r.payload["x"], r.payload["y"]) for r in records
            if r.type == "CrateDropped" and r.payload["kind"] == "w"
        }
        for record in filled:
            if (record.payload["x"], record.payload["y"]) in weapon_squares:
                log = referee.store._logs[GAME]  # noqa: SLF001 - setting up the secret
                contents = [{"item": item, "count": 1}]
                log[log.index(record)] = replace(record, payload={**record.payload, "contents": contents})
                return referee
        state, seat, _ = acting(referee)
        end_and_start_next(referee, seat)
    raise AssertionError("no weapon crate fell in 20 turns")


def test_a_crate_holding_a_sheep_or_a_bazooka_through_the_referee() -> None:
    sheep = _with_first_weapon_crate_holding("sheep")
    bazooka = _with_first_weapon_crate_holding("bazooka")
    for referee in (sheep, bazooka):
        state, seat, _ = acting(referee)
        end_and_start_next(referee, seat)
    for viewer in (Viewer.for_seat(1), Viewer.for_seat(2), PUBLIC):
        assert shown(sheep, viewer) == shown(bazooka, viewer)
    assert shown(sheep, MODERATOR_VIEW) != shown(bazooka, MODERATOR_VIEW)


# --- orders not given by a player ----------------------------------------------------------------

INVISIBLE = {1: items(("invisibility", 1), ("bazooka", 2)), 2: items(("invisibility", 1), ("bazooka", 2))}


def _hidden_worm_and_two_squares() -> tuple[int, int, str, tuple[str, str]]:
    """The acting seat, the other, a worm of the acting seat with two plain steps, and them."""
    probe = started(INVISIBLE)
    state, seat, other = acting(probe)
    worm = next(w.id for w in state.worms_of(seat) if len(_safe(state, w.id)) >= 2)
    return seat, other, worm, _two_steps(state, worm)


def _same_to_others(games: list[Referee], seat: int, other: int) -> None:
    a, b = games
    for viewer in (Viewer.for_seat(other), PUBLIC):
        assert differing(every_read(a, GAME, viewer), every_read(b, GAME, viewer)) == []
    # the secret is there: its owner and the moderators tell the two games apart
    assert differing(every_read(a, GAME, Viewer.for_seat(seat)), every_read(b, GAME, Viewer.for_seat(seat)))
    assert differing(every_read(a, GAME, MODERATOR_VIEW), every_read(b, GAME, MODERATOR_VIEW))


#: The referee as it is, and as it was when it recorded every order not given by a player public.
WRITERS = pytest.mark.parametrize("writer", [Referee, OldOrdersReferee], ids=["now", "old-log"])


@WRITERS
def test_the_turn_the_referee_plays_for_a_seat_hides_its_invisible_worms_path(writer: type[Referee]) -> None:
    """A deadline's bot turn and a vacation's turn are both the referee's ``SubmitTurn`` for
    the seat (``referee.scheduling``): the walk of an invisible worm stays the team's."""
    seat, other, worm, squares = _hidden_worm_and_two_squares()
    games = []
    for square in squares:
        referee = started(INVISIBLE, writer)
        assert order(referee, seat, "UseUtility", {"worm": worm, "utility": "invisibility"}) is None
        referee.handle(GAME, command_type="SubmitTurn", actor=Actor(ActorKind.REFEREE, seat),
                       payload={"steps": [{"worm": worm, "path": [square]}, {}]})
        games.append(referee)
    _same_to_others(games, seat, other)
    mine = games[0].feed(GAME, Viewer.for_seat(seat))
    assert any(i["type"] == "SubmitTurn" and i["payload"]["steps"][0]["path"] == [squares[0]] for i in mine)


@WRITERS
def test_a_moderator_moving_an_invisible_worm_does_not_tell_the_others_where(writer: type[Referee]) -> None:
    seat, other, worm, squares = _hidden_worm_and_two_squares()
    games = []
    for square in squares:
        referee = started(INVISIBLE, writer)
        assert order(referee, seat, "UseUtility", {"worm": worm, "utility": "invisibility"}) is None
        end_and_start_next(referee, seat)
        referee.handle(GAME, command_type="ModeratorCorrection", actor=MODERATOR,
                       payload={"action": "move_worm", "worm": worm, "square": square})
        games.append(referee)
    _same_to_others(games, seat, other)
    theirs = games[0].feed(GAME, Viewer.for_seat(other))[-1]
    assert (theirs["type"], theirs["payload"], theirs["actor"]["kind"]) == ("Order", {}, "moderator")


@WRITERS
def test_ammunition_a_moderator_returns_is_told_to_its_seat_alone(writer: type[Referee]) -> None:
    games = []
    for count in (1, 3):
        referee = started({1: items(("bazooka", 2)), 2: items(("bazooka", 2))}, writer)
        referee.handle(GAME, command_type="ModeratorCorrection", actor=MODERATOR,
                       payload={"action": "return_ammo", "seat": 1, "item": "bazooka", "count": count})
        games.append(referee)
    _same_to_others(games, 1, 2)


def test_the_old_referees_public_turn_for_a_seat_stays_public_in_the_stored_log() -> None:
    """Reading narrows an old order; the log keeps it as written, and verifies."""
    seat, _, worm, (square, _) = _hidden_worm_and_two_squares()
    referee = started(INVISIBLE, OldOrdersReferee)
    assert order(referee, seat, "UseUtility", {"worm": worm, "utility": "invisibility"}) is None
    referee.handle(GAME, command_type="SubmitTurn", actor=Actor(ActorKind.REFEREE, seat),
                   payload={"steps": [{"worm": worm, "path": [square]}, {}]})
    every_read(referee, GAME, PUBLIC)
    (turn,) = [r for r in referee.store.read(GAME) if r.type == "SubmitTurn"]
    assert turn.audience == ("everyone", ())
    assert referee.verify(GAME).ok
