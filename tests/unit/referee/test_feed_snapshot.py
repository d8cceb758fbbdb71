"""The feed numbers and reads one snapshot of the log: a record appended while a reader
pages through it is not numbered as its predecessor and sent twice."""

from __future__ import annotations

from games.base import Actor, Viewer
from tests.unit.referee.conftest import first_player


def test_a_record_appended_between_numbering_and_reading_is_not_sent_twice(referee, game):
    seat = first_player(referee, game)
    viewer = Viewer.for_seat(seat)
    numbering = referee.numbering(game, viewer)
    referee.handle(game, command_type="WriteNote", payload={"text": "late"}, actor=Actor.player(seat))
    first = referee.feed_between(game, viewer, 0, None, numbering)
    assert all(item["type"] != "NoteWritten" for item in first)  # beyond this numbering: next time
    numbers = [item["seq"] for item in first]
    assert numbers == sorted(set(numbers))  # no number given twice
    everything = referee.feed(game, viewer)
    assert [i["seq"] for i in everything] == list(range(1, len(everything) + 1))
    assert [i["type"] for i in everything].count("NoteWritten") == 1
    assert everything[: len(first)] == first
