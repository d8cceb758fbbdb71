"""The first slice of the API: one JSON error shape, no 500 for bad input."""

from __future__ import annotations

import uuid

import pytest

from tests.factories import UserFactory, acting_seat, api_client, started_game

pytestmark = [pytest.mark.django_db]




def assert_problem(response, status: int) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    body = response.json()
    assert {"type", "title", "status", "detail"} <= set(body) and body["status"] == status
    return body


def test_an_order_is_accepted_with_the_events_the_player_may_see():
    game, seats = started_game()
    seat = acting_seat(game, seats)
    response = api_client(seat.user).post(f"/api/games/{game.pk}/commands/", {"type": "Roll"}, format="json")
    assert response.status_code == 201
    assert response.json()["events"][0]["type"] == "Roll"


def test_a_refused_order_names_the_rule_and_changes_nothing():
    game, seats = started_game()
    other = next(s for s in seats if s != acting_seat(game, seats))
    before = api_client(other.user).get(f"/api/games/{game.pk}/state/").json()
    response = api_client(other.user).post(f"/api/games/{game.pk}/commands/", {"type": "Roll"}, format="json")
    body = assert_problem(response, 400)
    assert body["rule"] == "turn" and "not your turn" in body["detail"]
    assert api_client(other.user).get(f"/api/games/{game.pk}/state/").json()["position"] == before["position"]


def test_a_retried_request_with_the_same_idempotency_key_returns_the_first_answer():
    game, seats = started_game()
    client = api_client(acting_seat(game, seats).user)
    first = client.post(f"/api/games/{game.pk}/commands/", {"type": "Roll"}, format="json", HTTP_IDEMPOTENCY_KEY="r1")
    again = client.post(f"/api/games/{game.pk}/commands/", {"type": "Roll"}, format="json", HTTP_IDEMPOTENCY_KEY="r1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["seq"] >= first.json()["seq"] and again.json()["replayed"] is True
    assert [e["seq"] for e in again.json()["events"]] == [e["seq"] for e in first.json()["events"]]


@pytest.mark.parametrize("body", [
    {"type": "Roll", "payload": "not an object"},
    {"type": "Teleport"},
    {"type": "WriteNote", "payload": {"text": 7}},
    {"type": "WriteNote", "payload": {"text": "x", "extra": 1}},
    {},
    {"type": "x" * 500},
])
def test_malformed_orders_get_a_problem_not_a_crash(body):
    game, seats = started_game()
    response = api_client(acting_seat(game, seats).user).post(f"/api/games/{game.pk}/commands/", body, format="json")
    assert_problem(response, 400)


@pytest.mark.parametrize("game_id", [str(uuid.uuid4()), "not-a-uuid", "1"])
def test_unknown_games_are_not_found(game_id):
    for path in ("state/", "events/"):
        assert_problem(api_client().get(f"/api/games/{game_id}/{path}"), 404)


def test_orders_need_a_signed_in_player_with_a_seat():
    game, seats = started_game()
    assert_problem(api_client().post(f"/api/games/{game.pk}/commands/", {"type": "Roll"}, format="json"), 401)
    stranger = api_client(UserFactory())
    assert_problem(stranger.post(f"/api/games/{game.pk}/commands/", {"type": "Roll"}, format="json"), 400)


def test_the_schema_is_served():
    response = api_client().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert "/api/games/{game_id}/commands/" in response.json()["paths"]


def test_the_game_page_renders_for_the_public():
    game, _ = started_game()
    response = api_client().get(f"/games/{game.pk}/")
    assert response.status_code == 200 and game.name.encode() in response.content
    assert api_client().get("/games/not-a-game/").status_code == 404
