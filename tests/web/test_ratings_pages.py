"""The ladder page, a player's page with its SVG graph, and the rating change at game over."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from referee import ratings, services
from referee.models import Game
from tests.factories import GameFactory, SeatFactory, UserFactory

pytestmark = [pytest.mark.django_db]
WHEN = dt.datetime(2025, 5, 1, 12, tzinfo=dt.UTC)


def test_the_ladder_page_shows_rank_player_rating_with_the_provisional_mark_and_games():
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    game = GameFactory(rated=True)
    ratings.record(game_id=str(game.pk), ruleset="pig", ladder="players", standing=[[ann.pk], [bob.pk]], ended_at=WHEN)
    page = Client().get("/rulesets/pig/ladder/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.index(">ann<") < html.index(">bob<")
    assert "1069?" in html and "2025-05-01" in html
    assert Client().get("/rulesets/chess/ladder/").status_code == 404
    assert Client().get("/rulesets/pig/ladder/?page=0").status_code == 404


def test_a_players_page_draws_the_history_of_each_rating_as_svg():
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    for n, standing in enumerate(([[ann.pk], [bob.pk]], [[bob.pk], [ann.pk]])):
        ratings.record(game_id=str(GameFactory(rated=True).pk), ruleset="pig", ladder="players",
                       standing=standing, ended_at=WHEN + dt.timedelta(hours=n))
    html = Client().get("/players/ann/").content.decode()
    assert "<svg" in html and "<polyline points=" in html
    assert html.count("<li>") >= 2 and "+69" in html and "\u2212" in html
    assert Client().get("/players/nobody/").status_code == 404


def test_the_result_at_game_over_shows_each_players_rating_change():
    alice, bob = UserFactory(), UserFactory()
    game = GameFactory(settings={"target": 1}, rated=True, seats=2)
    seats = [SeatFactory(game=game, user=u) for u in (alice, bob)]
    services.game_start(game=game)
    services.game_run_pending(game_id=str(game.pk))
    for _ in range(200):
        state, _ = services.referee_get().current(str(game.pk))
        if state.winner is not None:
            break
        seat = next(s for s in seats if s.number == state.order[state.to_move])
        order = "Hold" if state.turn_total > 0 else "Roll"
        services.command_handle(game_id=str(game.pk), user=seat.user, command_type=order, payload={})
        services.game_run_pending(game_id=str(game.pk))
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    html = Client().get(f"/games/{game.pk}/").content.decode()
    assert 'id="result-ratings"' in html
    assert "(<strong>+69</strong>)" in html and "(<strong>\u221237</strong>)" in html

