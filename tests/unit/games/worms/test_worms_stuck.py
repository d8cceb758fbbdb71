"""§7 stuck and §10 stalemate (rulings W-R10, W-R20) beyond the catalogue: the decision
is public, so it must not depend on what the team cannot know (§11); a weapon that can
open a way out counts from version 2.1.1, and version 2.1 games keep the old test."""

from __future__ import annotations

from games.worms.notation import parse
from games.worms.stuck import is_stalemate, is_stuck

BOX = "5{15}/5585{12}/58585{11}/5585{12}" + "/5{15}" * 11
HIGH_BOX = "5{15}/55x5{12}/5x5x5{11}/55x5{12}" + "/5{15}" * 11


def _position(b1: str, inventory: str, board: str = BOX) -> str:
    return f"{board} 0 - 2/10 3:1 A1,B2 A1@c3:150,{b1} - - - - A:prod*+handgun*{inventory};B:prod*+handgun* -"


def test_a_boxed_team_whose_bazooka_reaches_a_visible_enemy_is_not_stuck() -> None:
    assert not is_stuck(parse(_position("B1@d4:150", "+bazooka3")), 1)


def test_an_invisible_enemy_in_reach_does_not_unstick_a_team_that_cannot_blast_its_walls() -> None:
    assert is_stuck(parse(_position("B1@d4:150i3", "+shotgun1")), 1)


def test_only_the_prod_and_handgun_leave_a_boxed_team_stuck() -> None:
    assert is_stuck(parse(_position("B1@d4:150", "")), 1)


def test_every_explosive_that_lowers_a_wall_in_reach_unsticks_a_boxed_team() -> None:
    for weapon in ("bazooka3", "grenade3", "dynamite1", "air_strike1", "homing_missile1", "holy_hand_grenade1"):
        assert not is_stuck(parse(_position("B1@k11:150", f"+{weapon}")), 1), weapon


def test_weapons_without_land_damage_leave_a_boxed_team_stuck() -> None:
    for weapon in ("shotgun1", "longbow1", "minigun1", "mine2", "fire_punch2"):
        assert is_stuck(parse(_position("B1@k11:150", f"+{weapon}")), 1), weapon


def test_walls_above_the_bazookas_window_leave_a_team_with_one_stuck() -> None:
    assert is_stuck(parse(_position("B1@k11:150", "+bazooka3+grenade3", HIGH_BOX)), 1)
    assert not is_stuck(parse(_position("B1@k11:150", "+dynamite1", HIGH_BOX)), 1)


def test_version_2_1_counts_only_weapons_that_hit_an_enemy() -> None:
    state = parse(_position("B1@k11:150", "+bazooka3"))
    assert is_stuck(state, 1, digging=False)
    assert not is_stuck(state, 1)


def test_a_stalemate_needs_every_team_stuck_in_the_same_sense() -> None:
    board = "5{15}/5585{12}/58585{11}/5585{12}" + "/5{15}" * 5 + "/5{10}85{4}/5{9}858555/5{10}85{4}" + "/5{15}" * 3
    state = parse(_position("B1@k11:150", "+bazooka3", board))
    assert is_stalemate(state, digging=False)
    assert not is_stalemate(state)
