"""The arsenal (§5) and its physics (§8, §9) piece by piece; the worked examples and the
clause-by-clause cases are in the catalogue (cases/s05.toml, s08.toml, s09.toml)."""

from __future__ import annotations

import pytest

from games.base import Actor, RuleViolation
from games.dice import ForcedDice, NoDice
from games.worms import RULESET
from games.worms.aim import distance, land_shot, line
from games.worms.blast import push_worm
from games.worms.blast_specs import doubled
from games.worms.board import Direction, parse_square
from games.worms.commands import Fire
from games.worms.items import ITEMS, Category, blast_of
from games.worms.notation import format_position, parse
from games.worms.outcome import Outcome
from games.worms.weapons import handler_of

FLAT = "/".join(["5{15}"] * 15)


def _position(worms: str, inventory: str, board: str = FLAT, wind: str = "-") -> str:
    return f"{board} 0 {wind} 2/10 3:1 A1,B2 {worms} - - - - {inventory} -"


def _fire(text: str, weapon: str, target: str, dice: list[int] | None = None, mine_type: str = ""):
    state = parse(text)
    order = Fire(actor=Actor.player(1), worm="A1", weapon=weapon, target=target, mine_type=mine_type)
    events = RULESET.decide(state, order, ForcedDice(dice or []) if dice is not None else NoDice())
    return RULESET.fold(state, events), events


def test_every_weapon_of_section_5_has_a_handler() -> None:
    weapons = [n for n, s in ITEMS.items() if s.category is not Category.UTILITY]
    assert [w for w in weapons if handler_of(w) is None] == []
    assert all(handler_of(n) is None for n, s in ITEMS.items() if s.category is Category.UTILITY)


def test_every_weapon_has_one_entry_with_its_delivery_and_blast() -> None:
    from games.worms.items import Delivery

    for name, spec in ITEMS.items():
        if spec.category is Category.UTILITY:
            assert spec.delivery is None and spec.blast is None, name
            continue
        assert spec.delivery is not None, name
        if spec.delivery in (Delivery.AIMED, Delivery.THROWN, Delivery.AIR, Delivery.WALKER):
            assert spec.blast is not None, name
        if spec.delivery is Delivery.WALKER:
            assert spec.reach is not None and spec.straight_only, name


def test_w5_range_counts_a_diagonal_step_as_two() -> None:
    assert distance(parse_square("c3"), parse_square("d4")) == 2
    assert distance(parse_square("c3"), parse_square("e4")) == 3


def test_w5_bazooka_wind_south_2_reaches_five_below_one_above() -> None:
    below = _position("A1@h3:150,B1@h8:150", "A:bazooka3;B:prod*", wind="S2")
    after, _ = _fire(below, "bazooka", "h8", [45])
    assert after.worm("B1").health == 105
    above = _position("A1@h8:150,B1@h7:150", "A:bazooka3;B:prod*", wind="S2")
    after, _ = _fire(above, "bazooka", "h7", [45])
    assert after.worm("B1").square == parse_square("h6")  # pushed north: the shot came from h10
    with pytest.raises(RuleViolation) as refusal:
        _fire(_position("A1@h8:150,B1@h6:150", "A:bazooka3;B:prod*", wind="S2"), "bazooka", "h6")
    assert refusal.value.rule == "§5"


@pytest.mark.parametrize(
    ("weapon", "target", "rule", "words"),
    [
        ("handgun", "d4", "§5", "straight line"),
        ("handgun", "c12", "§5", "reaches 8"),
        ("grenade", "f6", "§5", "diagonal step counts 2"),
        ("bazooka", "c5", "§5", "no Bazooka"),
        ("air_strike", "c5-c8", "§5", "5 squares"),
        ("sheep_strike", "c5", "§5", "first square and a direction"),
        ("kamikaze", "NE", "§5", "straight line only"),
    ],
)
def test_w5_a_forbidden_shot_is_refused_and_changes_nothing(weapon: str, target: str, rule: str, words: str) -> None:
    text = _position("A1@c3:150,B1@k11:150", "A:prod*+handgun*+grenade1+air_strike1+sheep_strike1+kamikaze1;B:prod*")
    with pytest.raises(RuleViolation) as refusal:
        _fire(text, weapon, target)
    assert refusal.value.rule == rule
    assert words.lower() in refusal.value.message.lower()
    assert format_position(parse(text)) == text


def test_w7_a_second_weapon_in_one_turn_is_refused() -> None:
    state, _ = _fire(_position("A1@c3:150,B1@c8:150", "A:prod*+handgun*;B:prod*"), "handgun", "c8")
    with pytest.raises(RuleViolation) as refusal:
        RULESET.decide(state, Fire(actor=Actor.player(1), worm="A1", weapon="prod", target="E"), NoDice())
    assert refusal.value.rule == "§7"


def test_w5_hgt_a_shot_at_land_above_the_window_stops_before_the_wall() -> None:
    board = FLAT.split("/")
    board[7] = "5555x5{10}"  # e8 is 10
    state = parse(_position("A1@c8:150,B1@k11:150", "A:bazooka3;B:prod*", board="/".join(board)))
    landing = land_shot(state, state.worm("A1"), "bazooka", parse_square("f8"))
    assert (landing.square, landing.wall) == (parse_square("d8"), True)


def test_w5_a_shot_line_goes_diagonally_then_straight() -> None:
    assert line(parse_square("c3"), parse_square("f4")) == [parse_square(s) for s in ("d4", "e4", "f4")]


def test_w8_a_push_into_a_wall_reflects_the_blocked_component() -> None:
    board = FLAT.split("/")
    board[3] = "5{8}x5{6}"  # i4 is 10
    state = parse(_position("A1@a1:150,B1@h4:150", "A:prod*;B:prod*", board="/".join(board)))
    out = Outcome(state, NoDice())
    push_worm(out, "B1", Direction.SE, 2, 2)
    assert out.state.worm("B1").square == parse_square("g5")


def test_w8_longbow_and_minigun_push_only_downhill_or_across() -> None:
    board = FLAT.split("/")
    board[8] = "556" + "5{12}"  # c9 is 6
    state = parse(_position("A1@a1:150,B1@c8:150", "A:prod*;B:prod*", board="/".join(board)))
    out = Outcome(state, NoDice())
    push_worm(out, "B1", Direction.S, 2, 0, downhill_only=True)
    assert out.state.worm("B1").square == parse_square("c8")


def test_w5_double_damage_doubles_everything_but_area_and_reach() -> None:
    spec = doubled(blast_of("dynamite"), 2)
    assert (spec.power, spec.center_land, spec.center_push, spec.center_throw) == (2, 4, 4, 4)
    assert spec.center_damage == blast_of("dynamite").center_damage  # the roll is doubled, not the range
    assert [(r.radius, r.below, r.above) for r in spec.rings] == [(1, 1, 1)]


def test_w5_double_damage_lasts_the_turn_for_every_shot() -> None:
    text = _position("A1@c3:150,B1@c8:150,B2@c10:150", "A:shotgun1+double_damage1;B:prod*")
    state, _ = _fire(text, "shotgun", "c8")
    assert state.progress.double and state.stock(1, "double_damage") == 0
    events = RULESET.decide(state, Fire(actor=Actor.player(1), worm="A1", weapon="shotgun", target="c10"), NoDice())
    state = RULESET.fold(state, events)
    assert (state.worm("B1").health, state.worm("B2").health) == (100, 100)
    assert "double" in format_position(state)
    assert format_position(parse(format_position(state))) == format_position(state)


def test_w5_the_kamikaze_dies_without_a_donor_card() -> None:
    state, events = _fire(
        _position("A1@c3:150,A2@a15:150,B1@k11:150", "A:kamikaze1;B:prod*"), "kamikaze", "E", [40]
    )
    assert state.worm("A1") is None and not state.cards
    assert not any(type(e).__name__ == "ItemsLost" for e in events)


def test_w5_every_random_draw_names_its_purpose() -> None:
    text = _position("A1@c3:150,B1@k11:150", "A:armageddon1;B:prod*")
    dice = ForcedDice([160, 70, 4] + [0] * 24)
    RULESET.decide(parse(text), Fire(actor=Actor.player(1), worm="A1", weapon="armageddon"), dice)
    purposes = {d.purpose for d in dice.draws}
    assert "armageddon: square of meteorite 1 of 25" in purposes
    assert any(p.startswith("meteorite damage") for p in purposes)
    assert any(p.endswith("push direction") for p in purposes)
