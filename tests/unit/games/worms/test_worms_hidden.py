"""Leak tests (§4, §7, §9, §11): two positions that differ only in one secret give
every other seat, and the public, byte-identical views, events and refusals; the seat that
holds the secret and the moderators see the difference."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from games.base import MODERATOR_VIEW, PUBLIC, SCHEDULER, Actor, RuleViolation, Viewer
from games.dice import SeededDice
from games.worms import RULESET
from games.worms import events as ev
from games.worms.commands import StartTurn
from games.worms.items import Category, crate_pool
from games.worms.notation import parse
from games.worms.orders import parse_order
from games.worms.state import WormsState

FLAT = "/".join(["5{15}"] * 15)
SEED = "1ea6" * 8


def position(worms: str, inventories: str, crates: str = "-", cards: str = "-", turn: str = "3:1") -> WormsState:
    return parse(f"{FLAT} 0 - 2/10 {turn} A1,B2 {worms} - - {crates} {cards} {inventories} -")


def play(state: WormsState, orders: list[str], viewers: list[Viewer]) -> tuple[WormsState, str]:
    """Play ``orders`` ("seat N: text" or "start") with seeded dice; return the final state
    and, as one JSON text, everything each viewer was shown: after each order the view,
    the events, and the refusal if the viewer gave the order."""
    shown: dict[str, list[object]] = {f"{v.kind}:{v.seat}": [] for v in viewers}
    for n, text in enumerate(orders):
        seat: int | None = None
        if text.startswith("seat "):
            head, text = text.split(":", 1)
            seat = int(head.split()[1])
        command = parse_order(text.strip(), state.turn)
        actor = SCHEDULER if isinstance(command, StartTurn) else Actor.player(seat or 0)
        command = replace(command, actor=actor)
        try:
            events = RULESET.decide(state, command, SeededDice(SEED, "leak", n))
            refusal = None
        except RuleViolation as exc:
            events, refusal = (), exc.as_dict()
        state = RULESET.fold(state, events)
        for v in viewers:
            record: dict[str, object] = {
                "events": [
                    {"type": type(e).__name__, "data": d}
                    for e in events
                    if (d := RULESET.view_event(e, v)) is not None
                ],
                "view": RULESET.view(state, v),
            }
            if seat is not None and v.seat == seat:
                record["refusal"] = refusal
            shown[f"{v.kind}:{v.seat}"].append(record)
    return state, json.dumps(shown, sort_keys=True)


OTHERS = [Viewer.for_seat(2), PUBLIC]


def assert_same_for_others(a: str, b: str) -> None:
    assert a == b


# --- an invisible worm at A or at B ---------------------------------------------------

INVENTORIES = "A:prod*+handgun*+bazooka2+fast_walk1;B:prod*+handgun*+bazooka2"


def _invisible_at(square: str, health: int = 150) -> WormsState:
    return position(f"A1@c3:150,A2@{square}:{health}i3,B1@m13:150,B2@c10:150", INVENTORIES)


def _moves_of_the_invisible_worm(step: str) -> list[str]:
    return [
        "seat 1: A1 move c4",
        f"seat 1: A2 move {step}",
        "seat 1: A2 use fast_walk",
        "seat 1: A2 fire prod E",
        "seat 1: A1 move c5 c6 c7 c8",  # refused: too far
        "seat 1: end",
        "start",
        "seat 2: B1 move m12",
        "seat 2: B1 move m11 m10 m9",  # refused: no movement left
        "seat 2: A2 move e5",  # refused: not your worm
        "seat 2: B2 fire bazooka c8",
        "seat 2: end",
        "start",
    ]


def test_an_invisible_worm_at_a_or_b_looks_the_same_to_the_others() -> None:
    _, a = play(_invisible_at("e5"), _moves_of_the_invisible_worm("e6"), OTHERS)
    _, b = play(_invisible_at("j9"), _moves_of_the_invisible_worm("j10"), OTHERS)
    assert_same_for_others(a, b)


def test_the_owner_and_the_moderators_see_where_the_invisible_worm_is() -> None:
    for viewer in (Viewer.for_seat(1), MODERATOR_VIEW):
        _, a = play(_invisible_at("e5"), _moves_of_the_invisible_worm("e6"), [viewer])
        _, b = play(_invisible_at("j9"), _moves_of_the_invisible_worm("j10"), [viewer])
        assert a != b


def test_an_invisible_worms_health_is_not_shown() -> None:
    orders = ["seat 1: A1 move c4", "seat 1: end", "start", "seat 2: B2 fire bazooka c8"]
    _, a = play(_invisible_at("e5", 150), orders, OTHERS)
    _, b = play(_invisible_at("e5", 90), orders, OTHERS)
    assert a == b


def test_a_hit_on_an_invisible_worm_does_not_show_its_health_to_the_shooter() -> None:
    start = "seat 2: B2 fire bazooka c7"
    a_state = position("A1@c3:150,A2@c7:150i3,B1@m13:150,B2@c10:150", INVENTORIES, turn="3:2")
    b_state = position("A1@c3:150,A2@c7:90i3,B1@m13:150,B2@c10:150", INVENTORIES, turn="3:2")
    after_a, a = play(a_state, [start], OTHERS)
    after_b, b = play(b_state, [start], OTHERS)
    assert after_a.worm("A2").health != after_b.worm("A2").health  # it was hit
    assert a == b


# --- a crate holding a sheep or a bazooka ---------------------------------------------


@pytest.mark.parametrize("booby", ["", "!"])
def test_a_crates_contents_are_the_same_to_the_others_until_and_after_collection(booby: str) -> None:
    orders = ["seat 1: A1 move c4", "seat 1: end", "start", "seat 2: B1 move m12"]
    inv = "A:prod*+handgun*;B:prod*+handgun*"
    sheep = position("A1@c3:150,B1@m13:150", inv, crates="c4w:sheep1")
    bazooka = position("A1@c3:150,B1@m13:150", inv, crates="c4w:bazooka1")
    assert play(sheep, orders, OTHERS)[1] == play(bazooka, orders, OTHERS)[1]
    if booby:  # before anyone walks onto it, a booby trap is not shown either
        trapped = position("A1@c3:150,B1@m13:150", inv, crates="c4w!:bazooka1")
        assert play(trapped, orders[-1:], OTHERS)[1] == play(bazooka, orders[-1:], OTHERS)[1]


def test_the_collector_and_a_spy_see_the_crates_contents() -> None:
    inv = "A:prod*+handgun*;B:prod*+handgun*+crate_spy1"
    sheep = position("A1@c3:150,B1@m13:150", inv, crates="c4w:sheep1")
    bazooka = position("A1@c3:150,B1@m13:150", inv, crates="c4w:bazooka1")
    for viewer in (Viewer.for_seat(2), Viewer.for_seat(1)):
        orders = ["seat 1: A1 move c4"] if viewer.seat == 1 else ["seat 1: A1 move c3"]
        assert play(sheep, orders, [viewer])[1] != play(bazooka, orders, [viewer])[1]


# --- an inventory with or without a kamikaze -----------------------------------------


def test_an_inventory_with_or_without_a_kamikaze_is_the_same_to_the_others() -> None:
    orders = [
        "seat 1: A1 fire bazooka c6",
        "seat 1: end",
        "start",
        "seat 2: B1 fire kamikaze S",  # refused: B has none
        "seat 2: B1 fire bazooka c3",  # kills A1: its donor card takes 2 units of A's
        "seat 2: end",
        "start",
    ]
    worms = "A1@c3:20,A2@k3:150,B1@c5:150"
    with_it = position(worms, "A:prod*+handgun*+bazooka2+kamikaze1;B:prod*+handgun*+bazooka2")
    without = position(worms, "A:prod*+handgun*+bazooka2;B:prod*+handgun*+bazooka2")
    state_a, a = play(with_it, orders, OTHERS)
    state_b, b = play(without, orders, OTHERS)
    assert state_a.worm("A1") is None and state_b.worm("A1") is None
    assert a == b
    assert play(with_it, orders, [Viewer.for_seat(1)])[1] != play(without, orders, [Viewer.for_seat(1)])[1]


def test_a_donor_cards_contents_are_the_same_to_the_others() -> None:
    orders = ["seat 1: A1 move c4", "seat 1: end", "start"]
    inv = "A:prod*+handgun*;B:prod*+handgun*"
    mine = position("A1@c3:150,B1@m13:150", inv, cards="c4:mine1")
    kamikaze = position("A1@c3:150,B1@m13:150", inv, cards="c4:kamikaze1")
    assert play(mine, orders, OTHERS)[1] == play(kamikaze, orders, OTHERS)[1]


# --- the private inbox --------------------------------------------------------------------


def test_the_turn_briefing_lists_the_weapons_and_the_invisible_worms_for_that_seat_only() -> None:
    state = position("A1@c3:150,A2@e5:150i2,B1@m13:150", INVENTORIES, turn="3:1s")
    events = RULESET.decide(state, StartTurn(actor=SCHEDULER, turn=3), SeededDice(SEED, "brief", 1))
    briefing = next(e for e in events if isinstance(e, ev.TurnBriefing))
    assert briefing.seat == 1
    assert [s.worm for s in briefing.invisible] == ["A2"]
    assert RULESET.view_event(briefing, Viewer.for_seat(2)) is None
    assert RULESET.view_event(briefing, Viewer.for_seat(1)) is not None


def test_a_crate_shower_never_holds_another_crate_shower() -> None:
    from games.worms.crates import crate_contents
    from games.worms.outcome import Outcome
    from games.worms.state import CrateKind

    pool = crate_pool(Category.UTILITY)
    for i in range(len(pool) - 1):
        from games.dice import ForcedDice

        out = Outcome(WormsState(), ForcedDice([i]))
        assert crate_contents(out, CrateKind.UTILITY, shower=True)[0].item != "crate_shower"
    from games.dice import DiceError, ForcedDice

    with pytest.raises(DiceError):
        crate_contents(Outcome(WormsState(), ForcedDice([len(pool) - 1])), CrateKind.UTILITY, shower=True)


# --- refusals ----------------------------------------------------------------------------


def test_a_refusal_never_depends_on_an_invisible_worm() -> None:
    inv = "A:prod*+handgun*;B:prod*+handgun*+bazooka1+teleport1"
    orders = [
        "seat 2: B1 move c6 c5",  # c5 is 2 higher than c6: refused for that, worm or not
        "seat 2: B1 move c6 c5 c4 c3",  # too far
        "seat 2: A2 move c4",  # not your worm
        "seat 2: B1 fire bazooka c1",  # out of reach
    ]
    board = FLAT.split("/")
    board[4] = "5{2}85{12}"  # c5 = 8
    board[5] = "5{2}65{12}"  # c6 = 6
    text = "/".join(board)

    def at(worms: str) -> WormsState:
        return parse(f"{text} 0 - 2/10 3:2 A1,B2 {worms} - - - - {inv} -")

    with_worm = at("A1@a1:150,A2@c5:150i3,B1@c7:150")
    elsewhere = at("A1@a1:150,A2@m2:150i3,B1@c7:150")
    for order in orders:
        a = play(with_worm, [order], [Viewer.for_seat(2)])[1]
        b = play(elsewhere, [order], [Viewer.for_seat(2)])[1]
        assert a == b, order
        assert "refusal" in a and '"refusal": null' not in a, order


def test_private_events_are_for_one_seat_or_the_moderators() -> None:
    from games.base import AudienceKind
    from games.worms.state import Card, Crate, CrateKind, Stock

    seat_only = [
        ev.ShoppingListAccepted(1, ()),
        ev.ItemsGained(1, (Stock("sheep", 1),), "crate at c4"),
        ev.ItemsLost(1, (Stock("sheep", 1),), "donor card of A1"),
        ev.TurnBriefing(1, ()),
        ev.CrateSpyReport(1, (Crate(1, 1, CrateKind.WEAPON),)),
        ev.InvisibleWormMet(1, "A1", "B1", 2, 2, 1),
        ev.WormMoved("A1", 2, 2, private_to=1),
        ev.WormDamaged("A1", 5, 145, "poison", private_to=1),
        ev.UtilityUsed("A1", 1, "fast_walk", private_to=1),
        ev.BubbleCreated(2, 2, 1, 3, private_to=1),
    ]
    for event in seat_only:
        assert event.audience().kind is AudienceKind.SEATS and event.audience().seat == 1, event
    for event in (ev.CrateFilled(1, 1, ()), ev.CardDropped(Card(1, 1))):
        assert event.audience().kind is AudienceKind.MODERATORS, event
    for event in (ev.WormMoved("A1", 2, 2), ev.CrateBoobyTrapped(1, 1), ev.MineJoinedCrate(1, 1), ev.Teleported("A1", 1, 2, 2, True)):
        assert event.audience().kind is AudienceKind.EVERYONE, event
