"""The ladder and a player's ratings through the API."""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from referee import ratings
from referee.rating_model import rate, shown
from tests.factories import GameFactory, UserFactory

pytestmark = [pytest.mark.django_db]
WHEN = dt.datetime(2025, 5, 1, 12, tzinfo=dt.UTC)


def counted(standing, minutes: int = 0) -> None:
    game = GameFactory(rated=True)
    ratings.record(game_id=str(game.pk), ruleset="pig", ladder="players",
                   standing=[[u.pk for u in place] for place in standing], ended_at=WHEN + dt.timedelta(minutes=minutes))


def test_the_ladder_lists_players_best_first_with_the_provisional_mark():
    ann, bob, cid = UserFactory(username="ann"), UserFactory(username="bob"), UserFactory(username="cid")
    counted([[ann], [bob], [cid]])
    body = APIClient().get("/api/rulesets/pig/ladder/").json()
    assert body["count"] == 3 and body["ladder"] == "players"
    assert [r["username"] for r in body["results"]] == ["ann", "bob", "cid"]
    assert [r["rank"] for r in body["results"]] == [1, 2, 3]
    first = rate([[ann.pk], [bob.pk], [cid.pk]], {})[ann.pk]
    assert body["results"][0]["rating"] == shown(first.mu, first.sigma)
    assert body["results"][0]["provisional"] is True and body["results"][0]["games"] == 1


def test_the_ladder_is_paged_without_repeating_anyone(settings):
    players = [UserFactory() for _ in range(4)]
    counted([[p] for p in players])
    from referee import ratings_selectors

    pages = [ratings_selectors.ladder_get(ruleset="pig", page=n, page_size=3) for n in (1, 2)]
    assert pages[0]["pages"] == 2
    names = [r["username"] for p in pages for r in p["results"]]
    assert sorted(names) == sorted(p.username for p in players) and len(set(names)) == 4
    assert [r["rank"] for p in pages for r in p["results"]] == [1, 2, 3, 4]


def test_a_players_ratings_carry_their_history_and_each_change():
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    counted([[ann], [bob]], 0)
    counted([[bob], [ann]], 1)
    body = APIClient().get("/api/players/ann/ratings/").json()
    (pig,) = body["ratings"]
    assert pig["ruleset"] == "pig" and pig["games"] == 2
    history = pig["history"]
    assert [h["place"] for h in history] == [1, 2]
    assert history[0]["change"] == history[0]["rating"] - 1000
    assert history[1]["change"] == history[1]["rating"] - history[0]["rating"] < 0
    assert history[1]["rating"] == pig["rating"]


def test_unknown_rulesets_and_players_are_a_plain_404_and_a_bad_page_a_400():
    client = APIClient()
    for path in ("/api/rulesets/chess/ladder/", "/api/players/nobody/ratings/"):
        response = client.get(path)
        assert response.status_code == 404 and response["Content-Type"] == "application/problem+json"
    assert client.get("/api/rulesets/pig/ladder/?page=0").status_code == 400
    assert client.get("/api/rulesets/pig/ladder/?page=x").status_code == 400


def test_a_game_says_whether_it_is_rated():
    user = UserFactory()
    client = APIClient()
    client.force_authenticate(user)
    made = client.post("/api/games/", {"name": "Rated one", "ruleset": "pig", "rated": True}, format="json")
    assert made.status_code == 201 and made.json()["rated"] is True
    casual = client.post("/api/games/", {"name": "Casual one", "ruleset": "pig"}, format="json")
    assert casual.json()["rated"] is False


def test_a_moderator_voids_a_finished_game_through_the_api_and_its_points_go_back():
    from referee.models import Event, Rating
    from tests.factories import ModeratorFactory
    from tests.rated_games import new_game, play_out

    alice, bob = UserFactory(), UserFactory()
    game, seats = new_game([alice, bob])
    play_out(game, seats)
    assert Rating.objects.get(user=alice, ruleset="pig").games == 1
    moderator = APIClient()
    moderator.force_authenticate(ModeratorFactory())
    answer = moderator.post(f"/api/games/{game.pk}/void/", {"reason": "Both seats were one person."}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json() == {"game": str(game.pk), "reason": "Both seats were one person.", "rated": True}
    assert not Rating.objects.filter(user__in=[alice, bob]).exists()
    assert Event.objects.get(game=game, type="GameVoided").payload["reason"] == "Both seats were one person."
    again = moderator.post(f"/api/games/{game.pk}/void/", {"reason": "Twice."}, format="json")
    assert again.status_code == 409 and again["Content-Type"] == "application/problem+json"
    assert again.json()["detail"] == "This game has already been voided."


def test_voiding_is_refused_to_players_without_a_reason_and_for_a_game_in_play():
    from referee.models import Event
    from tests.factories import ModeratorFactory
    from tests.rated_games import new_game, play_out

    game, seats = new_game([UserFactory(), UserFactory()])
    moderator = APIClient()
    moderator.force_authenticate(ModeratorFactory())
    in_play = moderator.post(f"/api/games/{game.pk}/void/", {"reason": "Too early."}, format="json")
    assert in_play.status_code == 409 and in_play["Content-Type"] == "application/problem+json"
    play_out(game, seats)
    player = APIClient()
    player.force_authenticate(seats[0].user)
    refused = player.post(f"/api/games/{game.pk}/void/", {"reason": "I lost."}, format="json")
    assert refused.status_code == 403 and refused["Content-Type"] == "application/problem+json"
    assert APIClient().post(f"/api/games/{game.pk}/void/", {"reason": "x"}, format="json").status_code == 401
    blank = moderator.post(f"/api/games/{game.pk}/void/", {"reason": "   "}, format="json")
    assert blank.status_code == 400 and blank["Content-Type"] == "application/problem+json"
    assert not Event.objects.filter(game=game, type="GameVoided").exists()
