"""Secrets stay secret: two games that differ only in one secret (a team's list, where an
unseen unit stands, what an unseen unit does) look byte-identical to everyone else."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from games.base import PUBLIC, Actor, Event, Registry, SeatInfo, Viewer
from games.dice import ForcedDice
from games.lggwg import RULESET
from games.lggwg.commands import SubmitOrders
from games.lggwg.notation import parse
from games.lggwg.orders import parse_orders
from games.lggwg.state import LggwgState
from referee.core import Referee
from referee.store.memory import InMemoryEventStore
from tests.fakes import FakeClock

SPLIT = "#12/#.5#.4#/#.5#.4#/#.5#.4#/#.5#.4#/#.5#.4#/#.5#.4#/#12"
TEAMS = "R,B R=1:0:0:0:-:n,B=2:0:0:0:-:n"


def position(blue: str) -> LggwgState:
    return parse(f"custom {SPLIT} orders:1/30 noflags {TEAMS} R1=E@b7:15/15,R2=S@c4:10/10,{blue} - - - -")


def dump(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def play(state: LggwgState, lists: dict[int, str], dice: list[int]) -> tuple[LggwgState, list[Event]]:
    events: list[Event] = []
    forced = ForcedDice(dice)
    for seat, text in lists.items():
        new = RULESET.decide(state, SubmitOrders(actor=Actor.player(seat), orders=parse_orders(text)), forced)
        events += new
        state = RULESET.fold(state, new)
    return state, events


def seen(events: list[Event], viewer: Viewer) -> str:
    return dump([RULESET.view_event(e, viewer) for e in events])


def test_a_submitted_list_is_hidden_from_the_other_team_and_the_public() -> None:
    start = position("B1=E@k2:15/15,B2=S@j5:10/10")
    a, events_a = play(start, {1: "R2>N,R2*e2"}, [])
    b, events_b = play(start, {1: "R2*,R2>S,R2>S"}, [])
    for viewer in (Viewer.for_seat(2), PUBLIC):
        assert dump(RULESET.view(a, viewer)) == dump(RULESET.view(b, viewer))
        assert seen(events_a, viewer) == seen(events_b, viewer)
    assert dump(RULESET.view(a, Viewer.for_seat(1))) != dump(RULESET.view(b, Viewer.for_seat(1)))


def test_where_an_unseen_unit_stands_is_hidden() -> None:
    a = position("B1=E@k2:15/15,B2=S@j5:10/10")
    b = position("B1=E@k2:15/15,B2=S@i6:10/10")
    for viewer in (Viewer.for_seat(1), PUBLIC):
        assert dump(RULESET.view(a, viewer)) == dump(RULESET.view(b, viewer))
    assert dump(RULESET.view(a, Viewer.for_seat(2))) != dump(RULESET.view(b, Viewer.for_seat(2)))


def test_what_an_unseen_unit_does_is_hidden_but_that_it_acted_is_public() -> None:
    start = position("B1=E@k2:15/15,B2=S@j5:10/10")
    a, events_a = play(start, {1: "R1-", 2: "B2>N,B2*k5"}, [1])
    b, events_b = play(start, {1: "R1-", 2: "B2>S,B2*h2"}, [1])
    for viewer in (Viewer.for_seat(1), PUBLIC):
        assert seen(events_a, viewer) == seen(events_b, viewer)
        assert dump(RULESET.view(a, viewer)) == dump(RULESET.view(b, viewer))
    assert "move" in seen(events_a, PUBLIC), "the kind of each resolved order is public"
    assert seen(events_a, Viewer.for_seat(2)) != seen(events_b, Viewer.for_seat(2))


def test_a_fight_out_of_sight_shows_only_the_scoreboard() -> None:
    start = position("B1=E@k2:15/15,B2=S@j5:10/10,B4=P@j6:8/8")
    a, events_a = play(start, {1: "R1-", 2: "B4*j5"}, [1])
    assert a.unit("B2").hp == 6
    public = [RULESET.view_event(e, PUBLIC) for e in events_a]
    damaged = [d for d in public if d and "amount" in d]
    assert damaged == [{"unit": "B2", "amount": 4, "hp": 6, "scores": [[2, -4]]}]
    assert all("seen_by" not in dump(d) for d in public if d)


def _referee_game(red_orders: list[dict[str, str]]) -> Referee:
    referee = Referee(InMemoryEventStore(), Registry().register(RULESET), FakeClock(tick=dt.timedelta(seconds=1)), backoff=lambda attempt: None)
    referee.create_game(ruleset="lggwg", game_id="leak", settings={"map": "cross"}, seed="ab" * 32)
    referee.start_game("leak", [SeatInfo(n, f"p{n}") for n in (1, 2, 3, 4)])
    referee.handle("leak", command_type="SubmitOrders", payload={"orders": red_orders}, actor=Actor.player(1))
    return referee


def test_through_the_referee_others_see_only_that_red_has_sent_its_list() -> None:
    a = _referee_game([{"kind": "move", "unit": "R1", "target": "E"}])
    b = _referee_game([{"kind": "hold", "unit": "", "target": ""}, {"kind": "opp", "unit": "R2", "target": ""}])
    for viewer in (Viewer.for_seat(2), Viewer.for_seat(3), PUBLIC):
        assert dump(a.view("leak", viewer)) == dump(b.view("leak", viewer))
        assert dump(a.feed("leak", viewer)) == dump(b.feed("leak", viewer))
    assert dump(a.feed("leak", Viewer.for_seat(1))) != dump(b.feed("leak", Viewer.for_seat(1)))
