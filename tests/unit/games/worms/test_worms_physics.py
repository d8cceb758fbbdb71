"""§8 pieces on their own: push paths, fall damage, blast land damage."""

from __future__ import annotations

import pytest

from games.base import PUBLIC, Viewer
from games.dice import ForcedDice, NoDice
from games.worms import RULESET
from games.worms.blast import explode
from games.worms.board import Direction, away, parse_square, ring
from games.worms.items import blast_of
from games.worms.notation import parse
from games.worms.outcome import Outcome
from games.worms.physics import fall_damage, push_path

FLAT = "/".join(["5{15}"] * 15)


@pytest.mark.parametrize(
    ("direction", "distance", "path"),
    [
        (Direction.E, 3, "E E E"),
        (Direction.NE, 2, "E N"),
        (Direction.NE, 3, "E N E"),
        (Direction.SW, 4, "W S W S"),
        (Direction.NW, 1, "W"),
    ],
)
def test_a_diagonal_push_goes_horizontally_first(direction: Direction, distance: int, path: str) -> None:
    assert " ".join(d.value for d in push_path((7, 7), direction, distance)) == path


@pytest.mark.parametrize(("drop", "damage"), [(0, 0), (2, 0), (3, 10), (4, 20), (10, 80)])
def test_fall_damage_is_ten_per_level_beyond_two(drop: int, damage: int) -> None:
    assert fall_damage(drop) == damage


def test_ring_and_away_point_out_from_the_centre() -> None:
    center = parse_square("b2")
    assert len(list(ring(center))) == 8
    assert len(list(ring(parse_square("a1")))) == 3
    assert away(center, parse_square("c3")) is Direction.SE
    assert away(center, parse_square("b1")) is Direction.N


def test_a_blast_with_nobody_near_rolls_no_dice() -> None:
    state = parse(f"{FLAT} 0 - 2/10 3:1 A1,B2 A1@a1:150,B1@o15:150 - - - - A:prod*;B:prod* -")
    out = Outcome(state, NoDice())
    explode(out, parse_square("h8"), blast_of("dynamite"))
    assert out.state.height(parse_square("h8")) == 3
    assert all(out.state.height(s) == 4 for s in ring(parse_square("h8")))


def test_a_blast_damages_only_within_reach_of_its_height() -> None:
    board = FLAT.split("/")
    board[6] = "5{6}8555{6}"  # g7 is 8: three above h7's blast centre
    text = f"{'/'.join(board)} 0 - 2/10 3:1 A1,B2 A1@g7:150,B1@i7:150,B2@o15:150 - - - - A:prod*;B:prod* -"
    state = parse(text)
    out = Outcome(state, ForcedDice([]))
    explode(out, parse_square("h7"), blast_of("dynamite"))
    assert out.state.worm("A1").health == 150
    assert out.state.worm("B1").health == 115


def test_a_booby_trap_is_announced_but_not_shown_in_the_position() -> None:
    state = parse(f"{FLAT} 0 - 2/10 3:1 A1,B2 A1@c3:150,B1@k11:150 - - c4u:teleport1 - A:mine1;B:prod* -")
    from games.base import Actor
    from games.worms.commands import Fire

    events = RULESET.decide(state, Fire(actor=Actor.player(1), worm="A1", weapon="mine", target="S"), NoDice())
    assert [type(e).__name__ for e in events][-1] == "CrateBoobyTrapped"
    assert RULESET.view_event(events[-1], PUBLIC) is not None
    after = RULESET.fold(state, events)
    assert after.crate_at(parse_square("c4")).booby_trapped
    for viewer in (PUBLIC, Viewer.for_seat(1), Viewer.for_seat(2)):
        assert RULESET.view(after, viewer)["crates"][0]["booby_trapped"] is None
