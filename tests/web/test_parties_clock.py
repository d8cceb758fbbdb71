"""A Parties game's clock has one source: the create page's "Seconds per turn", the API's
turn limit and the ruleset's tick setting (P-R4) are the same figure, and it is the one
the game runs."""

from __future__ import annotations

import pytest
from django.test import Client

from games.base import MODERATOR_VIEW
from referee import lobby, selectors, services
from referee.models import Game
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db]


def _started(game: Game) -> dict:
    for n, user in enumerate([UserFactory(), UserFactory()], start=1):
        lobby.game_join(game_id=str(game.pk), user=user, name=f"Bot {n}")
    services.game_run_pending(game_id=str(game.pk))  # set-up and tick 1 (no on_commit in a test)
    return selectors.game_state_get(game_id=str(game.pk), viewer=MODERATOR_VIEW)["position"]


def test_the_seconds_per_turn_chosen_on_the_create_page_are_the_tick_the_game_runs():
    creator = Client()
    creator.force_login(UserFactory())
    form = creator.get("/games/new/?ruleset=parties").content.decode()
    assert 'name="turn_limit_seconds"' in form and 'name="max_ticks"' in form
    response = creator.post("/games/new/", {
        "ruleset": "parties", "name": "Twenty seconds", "players": "2", "turn_limit_seconds": "20",
        "width": "6", "height": "6", "obstacle_percent": "0", "max_ticks": "3",
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(name="Twenty seconds")
    position = _started(game)

    assert position["tick_ms"] == 20_000
    assert position["tick_deadline_ms"] - position["tick_start_ms"] == 20_000
    assert (position["width"], position["height"], position["max_ticks"]) == (6, 6, 3)
    api = creator.get(f"/api/games/{game.pk}/").json()
    assert api["turn_limit_seconds"] == 20
    page = creator.get(f"/games/{game.pk}/").content.decode()
    assert "20 s each" in page


def test_a_tick_given_only_in_the_settings_is_the_games_turn_limit_too():
    game = services.game_create(name="Settings clock", ruleset="parties", seats=2, settings={"tick_seconds": 45})
    assert game.turn_limit_seconds == 45
    assert _started(game)["tick_ms"] == 45_000


def test_a_tick_and_a_turn_limit_that_disagree_are_refused_with_the_rule():
    from referee.errors import InvalidSetting

    with pytest.raises(InvalidSetting, match="P-R4"):
        services.game_create(name="Two clocks", ruleset="parties", seats=2, settings={"tick_seconds": 45},
                             turn_limit_seconds=20)
    assert not Game.objects.filter(name="Two clocks").exists()


def test_a_create_form_field_that_is_not_a_number_is_refused_in_words():
    creator = Client()
    creator.force_login(UserFactory())
    response = creator.post("/games/new/", {
        "ruleset": "parties", "name": "Bad arena", "players": "2", "turn_limit_seconds": "20", "width": "wide",
    })
    assert response.status_code == 400
    assert "Arena width (squares): give a whole number" in response.content.decode()
    assert not Game.objects.filter(name="Bad arena").exists()
