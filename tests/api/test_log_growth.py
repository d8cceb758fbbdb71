"""No input grows the append-only log at an attacker's will: oversized
orders are refused before the referee, refusals out of turn leave nothing, refusals in
turn leave a compact record, and only so many."""

from __future__ import annotations

import pytest

from referee.models import Event
from tests.factories import acting_seat, api_client, started_game

pytestmark = [pytest.mark.django_db]


def test_a_huge_order_is_refused_before_the_referee_and_records_nothing():
    game, seats = started_game()
    before = Event.objects.filter(game=game).count()
    for seat in seats:  # in turn and out of turn alike
        response = api_client(seat.user).post(f"/api/games/{game.pk}/commands/",
                                              {"type": "WriteNote", "payload": {"text": "x" * 2_400_000}},
                                              format="json")
        assert response.status_code == 400, response.content[:300]
        assert response["Content-Type"].startswith("application/problem+json")
        assert "at most 500 characters" in response.json()["detail"]
    assert Event.objects.filter(game=game).count() == before


def test_refusals_out_of_turn_leave_nothing_and_in_turn_at_most_ten_compact_records():
    game, seats = started_game()
    mover = acting_seat(game, seats)
    other = next(s for s in seats if s != mover)
    before = Event.objects.filter(game=game).count()
    for _ in range(5):
        api_client(other.user).post(f"/api/games/{game.pk}/commands/", {"type": "Roll"}, format="json")
    assert Event.objects.filter(game=game).count() == before
    for _ in range(15):
        response = api_client(mover.user).post(f"/api/games/{game.pk}/commands/",
                                               {"type": "StartTurn", "payload": {"turn": 99}}, format="json")
        assert response.status_code == 400
    refusals = Event.objects.filter(game=game, kind="rejection")
    assert refusals.count() == 10
    assert all(set(r.payload) == {"order", "digest", "rule", "message"} for r in refusals)
