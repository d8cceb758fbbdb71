"""A ruleset with no code of its own outside its package (Pig, under tests/ only) is
created, joined, played, finished, replayed and verified through the generic API alone."""

from __future__ import annotations

import pytest

from tests.factories import ModeratorFactory, UserFactory, api_client

pytestmark = [pytest.mark.django_db]


def test_pig_plays_to_the_end_through_the_generic_order_endpoint():
    ann, bob, mod = UserFactory(), UserFactory(), ModeratorFactory()
    rulesets = {r["name"]: r for r in api_client().get("/api/rulesets/").json()}
    assert rulesets["pig"]["orders"] == ["Roll", "Hold", "WriteNote", "StartTurn"]
    assert rulesets["pig"]["turn_limit"]["unit"] == "minutes" and rulesets["pig"]["whole_turn"] is None
    created = api_client(ann).post("/api/games/", {"name": "Pig night", "ruleset": "pig", "seats": 2,
                                                   "settings": {"target": 12}, "turn_limit_seconds": 600},
                                   format="json")
    assert created.status_code == 201, created.json()
    game = created.json()["id"]
    assert created.json()["turn_limit"] == "10 minutes"
    for user, name in ((ann, "Ann"), (bob, "Bob")):
        assert api_client(user).post(f"/api/games/{game}/join/", {"name": name}, format="json").status_code == 201
    clients = {1: api_client(ann), 2: api_client(bob)}
    from referee import services

    services.game_run_pending(game_id=game)  # on_commit does not fire inside the test's transaction
    for _ in range(400):
        detail = api_client().get(f"/api/games/{game}/").json()
        if detail["status"] == "finished":
            break
        seat = detail["clock"]["waiting_for"][0]
        position = clients[seat].get(f"/api/games/{game}/state/").json()["position"]
        order = "Hold" if position["turn_total"] >= 4 else "Roll"
        response = clients[seat].post(f"/api/games/{game}/commands/", {"type": order}, format="json")
        assert response.status_code == 201, response.json()
        services.game_run_pending(game_id=game)
    detail = api_client().get(f"/api/games/{game}/").json()
    assert detail["status"] == "finished"
    result = detail["result"]
    assert result["finished"] and len(result["winners"]) == 1
    assert result["ranking"][0] == result["winners"]
    assert result["scores"][str(result["winners"][0])] >= 12
    verify = api_client(mod).post(f"/api/games/{game}/verify/")
    assert verify.status_code == 200 and verify.json()["ok"], verify.json()
    steps = api_client(ann).get(f"/api/games/{game}/replay/").json()["steps"]
    assert steps


def test_a_ruleset_without_a_whole_turn_order_says_so():
    ann, bob = UserFactory(), UserFactory()
    game = api_client(ann).post("/api/games/", {"name": "Pig", "ruleset": "pig", "seats": 2}, format="json").json()
    for user, name in ((ann, "Ann"), (bob, "Bob")):
        api_client(user).post(f"/api/games/{game['id']}/join/", {"name": name}, format="json")
    response = api_client(ann).post(f"/api/games/{game['id']}/turn/", {"steps": [{"type": "Roll"}]}, format="json")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/problem+json")
    assert "no whole-turn order" in response.json()["detail"]


def test_the_schema_documents_each_installed_rulesets_orders():
    schema = api_client().get("/api/schema/?format=json").json()
    components = schema["components"]["schemas"]
    assert components["Worms_Fire"]["required"] == ["worm", "weapon"]
    body = schema["paths"]["/api/games/{game_id}/commands/"]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"] == {"$ref": "#/components/schemas/OrderRequest"}
    variants = {v["title"] for v in components["OrderRequest"]["anyOf"]}
    assert {"Worms_Fire", "Worms_MoveWorm", "Worms_SubmitTurn", "Wormlord_Conquer", "Parties_Move"} <= variants
    assert "Worms_StartTurn" not in variants and "Worms_StartTurn" in components  # the scheduler's, documented
    assert components["Worms_StartTurn"]["description"].startswith("Worms: Evolved v2.1: StartTurn. Given by the referee")
