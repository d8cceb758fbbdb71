"""The inbox is one seat's private messages (what the game master used to PM): its own
orders, refusals and private events, never the redacted traces of other seats' orders."""

from __future__ import annotations

from games.base import Actor
from referee.replay import inbox
from tests.unit.referee.conftest import first_player


def test_the_inbox_holds_only_this_seats_messages(referee, game):
    seat = first_player(referee, game)
    other = 2 if seat == 1 else 1
    referee.handle(game, command_type="Roll", payload={}, actor=Actor.player(seat))
    referee.handle(game, command_type="WriteNote", payload={"text": "psst"}, actor=Actor.player(other))
    mine = inbox(referee, game, seat)
    theirs = inbox(referee, game, other)
    assert [e["type"] for e in mine] == ["Roll"]
    assert all(e["actor"]["seat"] == seat for e in mine if e["kind"] == "command")
    assert not any(e.get("redacted") or e["type"] == "Order" for e in mine + theirs)
    assert "WriteNote" in [e["type"] for e in theirs] and "Roll" not in [e["type"] for e in theirs]
