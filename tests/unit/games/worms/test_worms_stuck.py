"""§7 stuck and §10 stalemate (rulings W-R10, W-R20) beyond the catalogue: the decision
is public, so it must not depend on what the team cannot know (§11)."""

from __future__ import annotations

from games.worms.notation import parse
from games.worms.stuck import is_stuck

BOX = "5{15}/5585{12}/58585{11}/5585{12}" + "/5{15}" * 11


def _position(b1: str, inventory: str) -> str:
    return f"{BOX} 0 - 2/10 3:1 A1,B2 A1@c3:150,{b1} - - - - A:prod*+handgun*{inventory};B:prod*+handgun* -"


def test_a_boxed_team_whose_bazooka_reaches_a_visible_enemy_is_not_stuck() -> None:
    assert not is_stuck(parse(_position("B1@d4:150", "+bazooka3")), 1)


def test_an_invisible_enemy_in_reach_does_not_unstick_a_team() -> None:
    assert is_stuck(parse(_position("B1@d4:150i3", "+bazooka3")), 1)


def test_only_the_prod_and_handgun_leave_a_boxed_team_stuck() -> None:
    assert is_stuck(parse(_position("B1@d4:150", "")), 1)
