"""§11, W-R41: an invisible worm's prod does not place it. The others are
told a prod was fired, not by which worm nor where (a square or a direction would place it),
and the turn's progress does not name the invisible shooter."""

from __future__ import annotations

from games.base import MODERATOR_VIEW, Viewer
from games.worms import RULESET
from tests.unit.games.worms.test_worms_hidden import OTHERS, play, position

INVENTORIES = "A:prod*+handgun*+bazooka2;B:prod*+handgun*+bazooka2"


def _two_invisible(a1: str, a2: str) -> str:
    return f"A1@{a1}:150i3,A2@{a2}:150i3,B1@m13:150,B2@c10:150"


def _prod(worm: str, target: str) -> list[str]:
    return [f"seat 1: {worm} fire prod {target}", "seat 1: end", "start"]


def test_which_invisible_worm_prods_and_where_look_the_same_to_the_others() -> None:
    _, a = play(position(_two_invisible("e5", "j9"), INVENTORIES), _prod("A1", "e6"), OTHERS)
    _, b = play(position(_two_invisible("e5", "j9"), INVENTORIES), _prod("A2", "j10"), OTHERS)
    assert a == b


def test_an_invisible_worms_prod_by_square_or_direction_looks_the_same_to_the_others() -> None:
    _, a = play(position(_two_invisible("e5", "j9"), INVENTORIES), _prod("A1", "e6"), OTHERS)
    _, b = play(position(_two_invisible("e5", "j9"), INVENTORIES), _prod("A1", "S"), OTHERS)
    _, c = play(position(_two_invisible("e5", "j9"), INVENTORIES), _prod("A1", "W"), OTHERS)
    assert a == b == c


def test_the_progress_does_not_name_an_invisible_shooter_to_the_others() -> None:
    state = position(_two_invisible("e5", "j9"), INVENTORIES)
    state, _ = play(state, ["seat 1: A1 fire prod e6"], [])
    assert state.progress.shooter == "A1"
    for viewer in OTHERS:
        progress = RULESET.view(state, viewer)["progress"]
        assert progress["shooter"] is None and progress["weapon"] == "prod"
    for viewer in (Viewer.for_seat(1), MODERATOR_VIEW):
        assert RULESET.view(state, viewer)["progress"]["shooter"] == "A1"


def test_a_visible_worms_prod_is_announced_with_its_worm_and_target() -> None:
    state = position("A1@e5:150,B1@m13:150,B2@c10:150", INVENTORIES)
    _, shown = play(state, ["seat 1: A1 fire prod e6"], [Viewer.for_seat(2)])
    assert '"target": "e6"' in shown and '"worm": "A1"' in shown
