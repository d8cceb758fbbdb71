"""Every endpoint x anonymous / another player / own seat / moderator."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import ModeratorFactory, UserFactory, started_game

pytestmark = [pytest.mark.django_db]

ANON, OTHER, OWN, MOD = "anonymous", "other player", "own seat", "moderator"


@pytest.fixture
def world():
    game, seats = started_game()
    from referee import services

    state, _ = services.referee_get().current(str(game.pk))
    acting = next(s for s in seats if s.number == state.order[state.to_move])
    clients = {ANON: APIClient(), OTHER: APIClient(), OWN: APIClient(), MOD: APIClient()}
    clients[OTHER].force_authenticate(UserFactory())
    clients[OWN].force_authenticate(acting.user)
    clients[MOD].force_authenticate(ModeratorFactory())
    return game, clients


# (method, path, body, {who: expected status})
MATRIX = [
    ("get", "/api/games/", None, {ANON: 200, OTHER: 200, OWN: 200, MOD: 200}),
    ("get", "/api/games/{g}/", None, {ANON: 200, OTHER: 200, OWN: 200, MOD: 200}),
    ("get", "/api/games/{g}/state/", None, {ANON: 200, OTHER: 200, OWN: 200, MOD: 200}),
    ("get", "/api/games/{g}/events/", None, {ANON: 200, OTHER: 200, OWN: 200, MOD: 200}),
    ("get", "/api/games/{g}/replay/", None, {ANON: 200, OTHER: 200, OWN: 200, MOD: 200}),
    ("get", "/api/games/{g}/dice/", None, {ANON: 200, OTHER: 200, OWN: 200, MOD: 200}),
    ("post", "/api/games/{g}/commands/", {"type": "Roll"}, {ANON: 401, OTHER: 400, OWN: 201, MOD: 400}),
    ("post", "/api/games/{g}/turn/", {"steps": []}, {ANON: 401, OTHER: 400, OWN: 400, MOD: 400}),
    ("get", "/api/games/{g}/inbox/", None, {ANON: 401, OTHER: 400, OWN: 200, MOD: 400}),
    ("put", "/api/games/{g}/reminders/", {"enabled": False}, {ANON: 401, OTHER: 400, OWN: 200, MOD: 400}),
    ("post", "/api/games/{g}/join/", {"name": "Late"}, {ANON: 401, OTHER: 400, OWN: 400, MOD: 400}),
    ("post", "/api/games/{g}/start/", None, {ANON: 401, OTHER: 400, OWN: 400, MOD: 409}),
    ("get", "/api/games/{g}/log/", None, {ANON: 401, OTHER: 403, OWN: 403, MOD: 200}),
    ("get", "/api/games/{g}/verify/", None, {ANON: 401, OTHER: 403, OWN: 403, MOD: 200}),
    ("post", "/api/games/{g}/verify/", None, {ANON: 401, OTHER: 403, OWN: 403, MOD: 200}),
    ("post", "/api/games/{g}/corrections/", {"action": "extend_deadline", "hours": 2, "reason": "storm"},
     {ANON: 401, OTHER: 403, OWN: 403, MOD: 201}),
    ("post", "/api/games/{g}/void/", {"reason": "a report"}, {ANON: 401, OTHER: 403, OWN: 403, MOD: 409}),
    ("get", "/api/me/", None, {ANON: 401, OTHER: 200, OWN: 200, MOD: 200}),
    ("post", "/api/games/", {"name": "New", "ruleset": "pig", "seats": 2}, {ANON: 401, OTHER: 201, OWN: 201, MOD: 201}),
    ("post", "/api/leagues/", {"name": "L", "ruleset": "pig", "seats_per_game": 2}, {ANON: 401, OTHER: 403, OWN: 403, MOD: 201}),
]


@pytest.mark.parametrize(("method", "path", "body", "expected"), MATRIX, ids=[f"{m} {p}" for m, p, _, _ in MATRIX])
@pytest.mark.parametrize("who", [ANON, OTHER, OWN, MOD])
def test_authorization_matrix(world, method, path, body, expected, who):
    game, clients = world
    response = getattr(clients[who], method)(path.format(g=game.pk), body, format="json")
    assert response.status_code == expected[who], (who, response.content[:300])
    if response.status_code >= 400:
        assert response["Content-Type"].startswith("application/problem+json")


def test_moderator_view_of_the_state_only_for_moderators(world):
    game, clients = world
    from referee import services

    services.command_handle(game_id=str(game.pk), user=clients[OWN].handler._force_user, command_type="WriteNote",
                            payload={"text": "secret plan"})
    for who in (ANON, OTHER):
        assert "secret plan" not in str(clients[who].get(f"/api/games/{game.pk}/state/?as=moderator").json())
    assert "secret plan" in str(clients[MOD].get(f"/api/games/{game.pk}/state/?as=moderator").json())
    assert "secret plan" in str(clients[OWN].get(f"/api/games/{game.pk}/state/").json())


def test_a_private_game_is_not_found_for_strangers(world):
    _, clients = world
    creator = UserFactory()
    owner = APIClient()
    owner.force_authenticate(creator)
    gid = owner.post("/api/games/", {"name": "Secret", "ruleset": "pig", "seats": 2, "is_private": True},
                     format="json").json()["id"]
    assert owner.get(f"/api/games/{gid}/").status_code == 200
    assert clients[MOD].get(f"/api/games/{gid}/").status_code == 200
    for who in (ANON, OTHER):
        response = clients[who].get(f"/api/games/{gid}/")
        assert response.status_code == 404
        assert response.json()["detail"] == clients[who].get("/api/games/00000000-0000-0000-0000-000000000000/").json()["detail"]
        assert gid not in str(clients[who].get("/api/games/").json())
