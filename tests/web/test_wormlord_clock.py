"""One clock per Wormlord game: the minutes per turn chosen on the create page, the API's
turn limit and the ruleset's round setting (§7.2, ruling WL-R10) are the same clock, and it
is the one the rounds run on."""

from __future__ import annotations

import pytest
from django.test import Client

from games.base import PUBLIC
from referee import lobby, selectors, services
from referee.errors import InvalidSetting
from referee.models import Game
from tests.factories import ModeratorFactory, UserFactory, api_client

pytestmark = pytest.mark.django_db


def _running(game: Game) -> dict:
    users = [UserFactory() for _ in range(2)]
    for user, name in zip(users, ("Ann", "Bo"), strict=True):
        lobby.game_join(game_id=str(game.pk), user=user, name=name)
    services.game_run_pending(game_id=str(game.pk))  # round 1 is set up (on_commit waits in a test)
    return selectors.game_state_get(game_id=str(game.pk), viewer=PUBLIC)["position"]


def test_the_minutes_per_turn_chosen_on_the_create_page_are_the_round_clock():
    creator = Client()
    creator.force_login(UserFactory())
    response = creator.post("/games/new/", {"ruleset": "wormlord", "name": "Two minutes", "players": "2",
                                            "turn_limit_minutes": "2"})
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(name="Two minutes")
    assert game.turn_limit_seconds == 120
    position = _running(game)
    assert position["timing"]["round_ms"] == 120_000
    assert position["ends_at_ms"] - position["starts_at_ms"] == 120_000


def test_the_api_turn_limit_is_the_round_clock():
    client = api_client(UserFactory())
    made = client.post("/api/games/", {"name": "Five", "ruleset": "wormlord", "seats": 2,
                                       "turn_limit_seconds": 300}, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["turn_limit_seconds"] == 300
    position = _running(Game.objects.get(pk=made.json()["id"]))
    assert position["timing"]["round_ms"] == 300_000


def test_a_round_length_given_in_the_settings_is_the_turn_limit_the_lobby_shows():
    game = services.game_create(name="Settings", ruleset="wormlord", seats=2,
                                settings={"time_limit": True, "round_seconds": 60})
    assert game.turn_limit_seconds == 60
    assert _running(game)["timing"]["round_ms"] == 60_000


def test_a_game_without_a_chosen_time_runs_the_default_round_clock():
    game = services.game_create(name="Default", ruleset="wormlord", seats=2)
    assert game.turn_limit_seconds == 180
    assert _running(game)["timing"]["round_ms"] == 180_000


def test_a_turn_limit_and_a_round_setting_that_disagree_are_refused_in_words():
    with pytest.raises(InvalidSetting, match="disagree"):
        services.game_create(name="Both", ruleset="wormlord", seats=2, settings={"round_seconds": 60},
                             turn_limit_seconds=120)
    assert not Game.objects.filter(name="Both").exists()


def test_turning_the_round_clock_off_is_refused_with_the_rule():
    with pytest.raises(InvalidSetting, match=r"§7\.2.*cannot be turned off"):
        services.game_create(name="No clock", ruleset="wormlord", seats=2, settings={"time_limit": False})


def test_a_league_keeps_one_clock_for_its_games():
    league = lobby.league_create(name="Knot league", ruleset="wormlord", seats_per_game=2,
                                 moderator=ModeratorFactory(), turn_limit_seconds=240)
    for user in (UserFactory(), UserFactory()):
        lobby.league_queue_join(league_id=league.pk, user=user)
    game = lobby.league_next_game(league_id=league.pk, moderator=ModeratorFactory())
    services.game_run_pending(game_id=str(game.pk))
    assert game.turn_limit_seconds == 240
    position = selectors.game_state_get(game_id=str(game.pk), viewer=PUBLIC)["position"]
    assert position["timing"]["round_ms"] == 240_000
