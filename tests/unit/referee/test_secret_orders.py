"""Orders that carry a secret stay secret whoever gives them, for a ruleset that does
nothing about it itself (``tests.rulesets.hideout``): two games that differ only in the
cup a coin is under look the same to every other seat and the public on every read path,
whether a player, the referee (for a seat, as at a deadline or during a vacation) or a
moderator gave the order."""

from __future__ import annotations

import datetime as dt

import pytest

from games.base import (
    MODERATOR,
    MODERATOR_VIEW,
    PUBLIC,
    Actor,
    ActorKind,
    Registry,
    SeatInfo,
    Viewer,
)
from referee.core import Referee
from referee.store.memory import InMemoryEventStore
from tests.read_paths import differing, every_read
from tests.rulesets.hideout import RULESET

GAME = "hideout"


class Clock:
    def __init__(self) -> None:
        self.now = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        self.now += dt.timedelta(seconds=1)
        return self.now


def hidden(cup: int, by: Actor, moved_to: int | None = None) -> Referee:
    referee = Referee(InMemoryEventStore(), Registry().register(RULESET), Clock(), backoff=lambda attempt: None)
    referee.create_game(ruleset="hideout", game_id=GAME, seed="c0" * 32)
    referee.start_game(GAME, [SeatInfo(1, "Ann"), SeatInfo(2, "Bob"), SeatInfo(3, "Cy")])
    referee.handle(GAME, command_type="Hide", payload={"cup": 5}, actor=Actor.player(2))
    referee.handle(GAME, command_type="Hide", payload={"cup": cup}, actor=by)
    if moved_to is not None:
        referee.handle(GAME, command_type="MoveCoin", payload={"seat": 1, "cup": moved_to}, actor=MODERATOR)
    referee.handle(GAME, command_type="Hide", payload={"cup": 5}, actor=Actor.player(3))
    return referee


@pytest.mark.parametrize("by", [Actor.player(1), Actor(ActorKind.REFEREE, 1)], ids=["player", "referee"])
def test_the_cup_a_seat_hides_its_coin_under_is_its_own(by: Actor) -> None:
    a, b = hidden(3, by), hidden(7, by)
    for viewer in (Viewer.for_seat(2), Viewer.for_seat(3), PUBLIC):
        assert differing(every_read(a, GAME, viewer), every_read(b, GAME, viewer)) == []
    for viewer in (Viewer.for_seat(1), MODERATOR_VIEW):
        assert differing(every_read(a, GAME, viewer), every_read(b, GAME, viewer))
    assert a.verify(GAME).ok and b.verify(GAME).ok


def test_the_cup_a_moderator_moves_a_coin_to_is_the_seats_own() -> None:
    a, b = hidden(3, Actor.player(1), moved_to=4), hidden(3, Actor.player(1), moved_to=8)
    for viewer in (Viewer.for_seat(2), Viewer.for_seat(3), PUBLIC):
        assert differing(every_read(a, GAME, viewer), every_read(b, GAME, viewer)) == []
    assert differing(every_read(a, GAME, Viewer.for_seat(1)), every_read(b, GAME, Viewer.for_seat(1)))
    seen = a.feed(GAME, Viewer.for_seat(2))
    assert [(i["type"], i["payload"], i["actor"]["kind"]) for i in seen if i["actor"]["kind"] == "moderator"] == [
        ("Order", {}, "moderator")]

