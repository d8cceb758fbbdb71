"""A moderator rules on a dispute in a Worms game: a public notice with the reason, then
the correction; history is appended to, never edited."""

from __future__ import annotations

import pytest

from referee import lobby, services
from referee.models import Event
from tests.factories import ModeratorFactory, UserFactory, api_client

pytestmark = [pytest.mark.django_db]
SHOPPING = {"type": "SubmitShoppingList", "payload": {"team_weapon": "minigun", "items": []}}


def worms_game():
    creator = UserFactory()
    game = services.game_create(name="Dispute", ruleset="worms", seats=2, created_by=creator)
    for user in (creator, UserFactory()):
        lobby.game_join(game_id=str(game.pk), user=user, name=user.username, signup_order=SHOPPING)
    services.game_run_pending(game_id=str(game.pk))
    return game


def test_a_moderator_corrects_a_worms_health_with_a_public_reason():
    game = worms_game()
    before = Event.objects.filter(game=game).count()
    position = api_client().get(f"/api/games/{game.pk}/state/").json()["position"]
    worm = position["worms"][0]["id"]
    body = {"action": "ruling", "reason": "the grenade was out of range",
            "order": {"type": "ModeratorCorrection", "payload": {"action": "set_health", "worm": worm, "health": 77}}}
    assert api_client(UserFactory()).post(f"/api/games/{game.pk}/corrections/", body, format="json").status_code == 403
    response = api_client(ModeratorFactory()).post(f"/api/games/{game.pk}/corrections/", body, format="json")
    assert response.status_code == 201, response.content
    after = api_client().get(f"/api/games/{game.pk}/state/").json()["position"]
    assert next(w for w in after["worms"] if w["id"] == worm)["health"] == 77
    feed = api_client().get(f"/api/games/{game.pk}/events/?after=0&limit=500").json()["events"]
    ruling = next(e for e in feed if e["type"] == "ModeratorRuling")
    assert ruling["payload"]["reason"] == "the grenade was out of range"
    assert Event.objects.filter(game=game).count() > before
    assert services.referee_get().verify(str(game.pk)).ok


def test_a_player_cannot_give_a_moderator_order():
    game = worms_game()
    seat = game.seats.first()
    response = api_client(seat.user).post(
        f"/api/games/{game.pk}/commands/",
        {"type": "ModeratorCorrection", "payload": {"action": "set_health", "worm": "A1", "health": 999}},
        format="json",
    )
    assert response.status_code == 400 and response.json()["rule"] == "moderation"
