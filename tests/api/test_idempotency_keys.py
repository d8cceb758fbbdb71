"""Idempotency-Key: a malformed header is a 400, and a key is its seat's alone."""

from __future__ import annotations

import pytest

from referee import services
from tests.factories import acting_seat, api_client, started_game

pytestmark = [pytest.mark.django_db]


def order(client, game, type_: str, key: str):
    return client.post(f"/api/games/{game.pk}/commands/", {"type": type_}, format="json", HTTP_IDEMPOTENCY_KEY=key)


@pytest.mark.parametrize("key", ["", "   ", "k" * 121])
def test_an_idempotency_key_that_is_empty_or_too_long_is_invalid_not_reused(key):
    game, seats = started_game()
    client = api_client(acting_seat(game, seats).user)
    for path, body in ((f"/api/games/{game.pk}/commands/", {"type": "Roll"}),
                       (f"/api/games/{game.pk}/reminders/", {"enabled": False})):
        send = client.put if path.endswith("reminders/") else client.post
        response = send(path, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
        assert response.status_code == 400, (path, response.content)
        problem = response.json()
        assert problem["type"] == "/problems/invalid"
        assert problem["detail"] == "Idempotency-Key: An Idempotency-Key has 1 to 120 characters."
    assert client.get(f"/api/games/{game.pk}/events/").json()["events"][-1]["type"] != "Roll"


def test_a_key_of_120_characters_is_taken():
    game, seats = started_game()
    response = order(api_client(acting_seat(game, seats).user), game, "Roll", "k" * 120)
    assert response.status_code == 201, response.content


def test_a_seat_may_use_a_key_another_seat_used_and_learns_nothing_of_it():
    game, seats = started_game()
    first = acting_seat(game, seats)
    second = next(s for s in seats if s != first)
    assert order(api_client(first.user), game, "Hold", "my-key").status_code == 201
    services.game_run_pending(game_id=str(game.pk))  # the next turn starts (on_commit does not fire here)
    assert acting_seat(game, seats) == second
    response = order(api_client(second.user), game, "Roll", "my-key")
    assert response.status_code == 201, response.content
    assert response.json()["replayed"] is False
    again = order(api_client(second.user), game, "Roll", "my-key")
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert again.json()["seq"] == response.json()["seq"]


def test_a_seat_reusing_its_own_key_for_another_order_is_still_a_conflict():
    game, seats = started_game()
    seat = acting_seat(game, seats)
    assert order(api_client(seat.user), game, "Roll", "mine").status_code == 201
    response = order(api_client(seat.user), game, "Hold", "mine")
    assert response.status_code == 422 and response.json()["type"] == "/problems/idempotency_key_reused"
