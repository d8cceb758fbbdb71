"""An order through the API costs a fixed, small number of SQL statements, late in a game
as early, counted for the whole request: the token's lookup included, for a viewer's first
order in a process (nothing of the game cached) and for an order that moves due work (a
count is stable where a time is not; bench/ has the timings)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from referee import core
from referee.models import DueWork
from tests.factories import acting_seat, api_client, started_game

pytestmark = [pytest.mark.django_db]

#: the token, the order's transaction (BEGIN and COMMIT, or a savepoint's pair in a test),
#: the seat and the game locked (the game's pending due rows and the log's tail along), the
#: append (with the due rows' write in the same statement when the order changes what is
#: due), and the first time a process numbers that viewer's log, one read of it
#: (bench/README.md)
MOST_PER_API_ORDER = 6


def _token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


@pytest.fixture
def forget_the_process():
    """As a web process that has never served the game: no position, no viewer's numbering."""

    def forget() -> None:
        core.POSITIONS.clear()
        core._NUMBERINGS.clear()

    return forget


def _count(client: APIClient, game, command: str, payload: dict) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/api/games/{game.pk}/commands/", {"type": command, "payload": payload}, format="json")
    assert response.status_code == 201, response.json()
    return len(queries)


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


@pytest.mark.parametrize("first", [True, False], ids=["first in the process", "numbering cached"])
def test_an_order_that_moves_due_work_takes_at_most_six_statements_token_included(first, forget_the_process):
    game, seats = started_game(settings={"target": 1000})
    seat = acting_seat(game, seats)
    client = _token_client(seat.user)
    pending = set(DueWork.objects.filter(game=game, status="pending").values_list("pk", flat=True))
    if first:
        forget_the_process()
    else:
        _count(client, game, "WriteNote", {"text": "numbered"})
    count = _count(client, game, "Hold", {})
    assert set(DueWork.objects.filter(game=game, status="pending").values_list("pk", flat=True)) != pending
    assert count <= MOST_PER_API_ORDER, count


def test_a_viewers_first_order_in_a_process_takes_at_most_six_statements_token_included(forget_the_process):
    game, seats = started_game(settings={"target": 1000})
    client = _token_client(acting_seat(game, seats).user)
    forget_the_process()
    assert _count(client, game, "WriteNote", {"text": "first"}) <= MOST_PER_API_ORDER
