"""A viewer's numbering says which log positions the viewer sees (what an answer's cause
links are kept by), whatever the length of the log."""

from __future__ import annotations

from referee.visibility import Numbering, renumber


def test_a_numbering_shows_exactly_the_positions_it_numbers():
    numbering = Numbering([2, 5, 9], 10)
    assert [n for n in range(12) if numbering.shows(n)] == [2, 5, 9]


def test_a_moderators_numbering_shows_every_position():
    assert all(Numbering([], 10, identity=True).shows(n) for n in range(1, 11))


def test_a_cause_the_viewer_does_not_see_is_not_linked():
    numbering = Numbering([2, 5, 9], 10)
    items = renumber([{"seq": 9, "cause_seq": 5}, {"seq": 9, "cause_seq": 4}], numbering)
    assert [(i["seq"], i["cause_seq"]) for i in items] == [(3, 2), (3, None)]
