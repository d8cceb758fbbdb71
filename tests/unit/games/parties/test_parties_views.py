"""What each viewer is shown: the board is public, this tick's moves are the alliance's
secret and an ally policy is its bot's (P-R14). Positions that differ only in a secret
look byte-identical to everyone not in on it."""

from __future__ import annotations

import json

from games.base import MODERATOR_VIEW, PUBLIC, Viewer
from games.parties import RULESET
from games.parties.notation import parse

BASE = "6/1M4/6/6/6/6 1@c3:1.2:0,2@c4:1.0:2,3@f6:1.0:0{policy} 1>2 4@1000+10000/600 {pending} -"


def _seen(text: str, viewer: Viewer) -> str:
    return json.dumps(RULESET.view(parse(text), viewer), sort_keys=True)


def test_a_pending_move_is_hidden_from_outsiders_byte_for_byte() -> None:
    north = BASE.format(policy="", pending="1:N")
    east = BASE.format(policy="", pending="1:E")
    for viewer in (Viewer.for_seat(3), PUBLIC):
        assert _seen(north, viewer) == _seen(east, viewer)
    for viewer in (Viewer.for_seat(1), Viewer.for_seat(2), MODERATOR_VIEW):
        assert _seen(north, viewer) != _seen(east, viewer)


def test_an_ally_policy_is_hidden_from_everyone_else_byte_for_byte() -> None:
    always = BASE.format(policy="", pending="-")
    never = BASE.format(policy=":never", pending="-")
    for viewer in (Viewer.for_seat(1), Viewer.for_seat(2), PUBLIC):
        assert _seen(always, viewer) == _seen(never, viewer)
    assert _seen(always, Viewer.for_seat(3)) != _seen(never, Viewer.for_seat(3))


def test_the_view_is_enough_to_draw_the_board() -> None:
    view = RULESET.view(parse(BASE.format(policy="", pending="1:N")), Viewer.for_seat(2))
    assert view["you"] == 2 and (view["width"], view["height"]) == (6, 6)
    assert view["terrain"][1] == ".M...."
    assert (view["tick"], view["tick_start_ms"], view["tick_deadline_ms"]) == (4, 1000, 11000)
    bots = {b["seat"]: b for b in view["bots"]}
    assert bots[1]["strength"] == 1.2 and bots[1]["role"] == "leader" and bots[1]["moved"]
    assert bots[2]["role"] == "follower" and bots[2]["party"] == 1 and bots[2]["score"] == 2
    assert bots[3]["role"] == "solo" and "ally_policy" not in bots[3]
    assert view["pending"] == {"1": "N"} and view["to_act"] == [3]
    assert view["scores"] == {"1": 0, "2": 2, "3": 0}
    assert view["parties"] == [{"leader": 1, "members": [1, 2]}]
    json.dumps(view)
