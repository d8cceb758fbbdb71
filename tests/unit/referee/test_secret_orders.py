"""Orders that carry a secret stay secret whoever gives them, for a ruleset that does
nothing about it itself (``tests.rulesets.hideout``): two games that differ only in the
cup a coin is under look the same to every other seat and the public on every read path,
whether a player, the referee (for a seat, as at a deadline or during a vacation) or a
moderator gave the order, and whether the log was written now or by the referee of old,
which recorded every order not given by a player as public (those records stay as they
are, hashed; they are narrowed when read)."""

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
from referee.store.base import StoredRecord
from referee.store.memory import InMemoryEventStore
from tests.fixtures import OldOrdersReferee
from tests.read_paths import differing, every_read
from tests.rulesets.hideout import RULESET

GAME = "hideout"


class Clock:
    def __init__(self) -> None:
        self.now = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        self.now += dt.timedelta(seconds=1)
        return self.now


def hidden(
    cup: int, by: Actor, moved_to: int | None = None, referee_type: type[Referee] = Referee,
    store: InMemoryEventStore | None = None,
) -> Referee:
    referee = referee_type(store or InMemoryEventStore(), Registry().register(RULESET), Clock(), backoff=lambda attempt: None)
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



def _public_orders(referee: Referee) -> list[tuple[str, str]]:
    return [(r.type, r.actor_kind) for r in referee.store.read(GAME)
            if r.type in ("Hide", "MoveCoin") and r.audience == ("everyone", ())]


def test_an_order_recorded_public_by_the_old_referee_is_read_as_its_seats_alone() -> None:
    a = hidden(3, Actor(ActorKind.REFEREE, 1), moved_to=4, referee_type=OldOrdersReferee)
    b = hidden(7, Actor(ActorKind.REFEREE, 1), moved_to=8, referee_type=OldOrdersReferee)
    assert _public_orders(a) == [("Hide", "referee"), ("MoveCoin", "moderator")]  # as the old log holds them
    for viewer in (Viewer.for_seat(2), Viewer.for_seat(3), PUBLIC):
        assert differing(every_read(a, GAME, viewer), every_read(b, GAME, viewer)) == []
    for viewer in (Viewer.for_seat(1), MODERATOR_VIEW):
        assert differing(every_read(a, GAME, viewer), every_read(b, GAME, viewer))
    mine = [(i["type"], i["payload"].get("cup")) for i in a.feed(GAME, Viewer.for_seat(1)) if i["kind"] == "command"]
    assert ("Hide", 3) in mine and ("MoveCoin", 4) in mine
    theirs = [(i["type"], i["payload"], i["actor"]["kind"]) for i in a.feed(GAME, Viewer.for_seat(2))
              if i["kind"] == "command" and i["actor"]["kind"] in ("referee", "moderator") and i["type"] != "Setup"]
    assert theirs == [("Order", {}, "referee"), ("Order", {}, "moderator")]
    assert _public_orders(a) == [("Hide", "referee"), ("MoveCoin", "moderator")]  # reading rewrote nothing
    assert a.verify(GAME).ok and b.verify(GAME).ok


def test_the_old_referees_record_is_numbered_and_shown_as_a_new_one_is() -> None:
    old = hidden(3, Actor(ActorKind.REFEREE, 1), moved_to=4, referee_type=OldOrdersReferee)
    new = hidden(3, Actor(ActorKind.REFEREE, 1), moved_to=4)
    for viewer in (Viewer.for_seat(1), Viewer.for_seat(2), PUBLIC):
        assert differing(every_read(old, GAME, viewer), every_read(new, GAME, viewer)) == []
    # moderators read the log as it is stored, with the audience each record was given then
    assert differing(every_read(old, GAME, MODERATOR_VIEW), every_read(new, GAME, MODERATOR_VIEW))


class CountingStore(InMemoryEventStore):
    """Counts the reads of the log."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[StoredRecord]:
        self.reads += 1
        return super().read(game_id, after=after, upto=upto)


def _reads_of(referee: Referee, viewer: Viewer, **stretch: int) -> int:
    store = referee.store
    assert isinstance(store, CountingStore)
    referee.feed(GAME, viewer)  # the viewer's numbering, as a reader already has it
    before = store.reads
    referee.feed(GAME, viewer, **stretch)
    return store.reads - before


def test_narrowing_an_old_order_costs_no_read_of_its_own() -> None:
    referee = Actor(ActorKind.REFEREE, 1)
    old = hidden(3, referee, moved_to=4, referee_type=OldOrdersReferee, store=CountingStore())
    new = hidden(3, referee, moved_to=4, store=CountingStore())
    for viewer in (Viewer.for_seat(1), Viewer.for_seat(2), PUBLIC):
        assert _reads_of(old, viewer) == _reads_of(new, viewer) == 2  # the numbering's tail, the stretch
    # a stretch that ends on the referee's order, before its events: they are read on, once
    def turn(viewer: Viewer) -> int:
        (seq,) = [i["seq"] for i in old.feed(GAME, viewer) if i["actor"]["kind"] == "referee"
                  and i["kind"] == "command" and i["type"] != "Setup"]
        return seq

    assert _reads_of(old, Viewer.for_seat(2), upto=turn(Viewer.for_seat(2))) == 3
    assert old.feed(GAME, Viewer.for_seat(2), upto=turn(Viewer.for_seat(2)))[-1]["payload"] == {}
    assert old.feed(GAME, Viewer.for_seat(1), upto=turn(Viewer.for_seat(1)))[-1]["payload"]["cup"] == 3
