"""An order through the API costs a fixed, small number of SQL statements, late in a game
as early (a count is stable where a time is not; bench/ has the timings)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import acting_seat, api_client, started_game

pytestmark = [pytest.mark.django_db]

#: authentication, the savepoint pair of the order's transaction, the seat and the game
#: locked, the log's tail, the append, the due rows (bench/README.md); the answer comes from
#: the records in hand, except the first time a process numbers that viewer's log (+1)
MOST_PER_API_ORDER = 7


def test_an_order_through_the_api_takes_a_fixed_small_number_of_statements():
    game, seats = started_game(settings={"target": 1000})
    counts = []
    for _ in range(6):
        seat = acting_seat(game, seats)
        client = api_client(seat.user)
        with CaptureQueriesContext(connection) as queries:
            response = client.post(f"/api/games/{game.pk}/commands/", {"type": "WriteNote", "payload": {"text": "x"}},
                                   format="json")
        assert response.status_code == 201, response.json()
        counts.append(len(queries))
    assert max(counts) <= MOST_PER_API_ORDER, counts
    assert max(counts) - min(counts) <= 1, counts
