"""What each viewer is shown: enough to draw the board, nothing a team may not know."""

from __future__ import annotations

import json

from lggwg_helpers import started

from games.base import MODERATOR_VIEW, PUBLIC, Viewer
from games.lggwg import RULESET
from games.lggwg.sight import team_sight


def test_a_seat_is_shown_its_fog_its_units_and_what_it_sees() -> None:
    state = started("duel")
    view = RULESET.view(state, Viewer.for_seat(1))
    sight = team_sight(state, 1)
    assert view["you"] == 1
    for y, row in enumerate(view["fog"]):
        for x, mark in enumerate(row):
            assert (mark == "v") == ((x, y) in sight)
            assert (mark == "u") == (view["squares"][y][x] == "?")
    shown = {u["id"] for u in view["units"]}
    assert {u.id for u in state.units_of(1)} <= shown
    assert all(u.team == 1 or u.square in sight for u in state.units if u.id in shown)
    assert {"square", "x", "y", "hp", "max_hp", "type", "team"} <= set(view["units"][0])
    assert [t["colour"] for t in view["team_order"]] == [state.colour(s) for s in state.team_order]
    assert [t["submitted"] for t in view["teams"]] == [False, False]
    json.dumps(view)


def test_the_public_sees_the_published_map_and_the_scoreboard_but_no_unit_where() -> None:
    state = started("duel")
    view = RULESET.view(state, PUBLIC)
    assert view["units"] == [] and view["mines"] == [] and view["orders"] == {}
    assert view["squares"] == list(state.terrain)
    assert {u["id"] for u in view["roster"]} == {u.id for u in state.units if u.kind != "W"}
    assert all("square" not in u for u in view["roster"])


def test_a_moderator_sees_everything() -> None:
    state = started("cross", 4)
    view = RULESET.view(state, MODERATOR_VIEW)
    assert {u["id"] for u in view["units"]} == {u.id for u in state.units}
    assert set("".join(view["fog"])) == {"v"}
