"""``evolve`` handles every event the ruleset declares: an event type without a handler
would silently leave the position unchanged on replay."""

from __future__ import annotations

from games.worms import RULESET
from games.worms.evolve import INERT, evolve
from games.worms.notation import parse

FLAT = "/".join(["5{15}"] * 15)
POSITION = f"{FLAT} 0 - 2/10 3:1 A1,B2 A1@c3:150,B1@k11:150 - - - - A:prod*;B:prod* -"


def test_every_event_type_has_a_handler() -> None:
    fallback = evolve.dispatch(object)
    missing = [t.__name__ for t in RULESET.event_types if evolve.dispatch(t) is fallback]
    assert missing == []


def test_the_inert_events_are_declared_events_with_a_reason() -> None:
    assert set(INERT) <= set(RULESET.event_types)
    assert all(reason for reason in INERT.values())


def test_an_inert_event_leaves_the_position_as_it_was() -> None:
    from games.worms import events as ev

    state = parse(POSITION)
    assert evolve(ev.CrateShowerFell(1), state) is state
    assert evolve(ev.CardSeen(2, 2), state) is state
