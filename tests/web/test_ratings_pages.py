"""The ladder page, a player's page with its SVG graph, and the rating change at game over."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from referee import ratings, services
from referee.models import Game, Seat
from tests.factories import GameFactory, SeatFactory, UserFactory, started_game

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



def _rated(*users, ruleset: str = "pig") -> None:
    """Count one rated game of ``ruleset`` in which ``users`` finished in that order."""
    game = GameFactory(rated=True, ruleset=ruleset)
    ratings.record(game_id=str(game.pk), ruleset=ruleset, ladder="players", standing=[[u.pk] for u in users],
                   ended_at=WHEN)


def _lobby_statements(client: Client) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/")
    assert page.status_code == 200
    return len(queries), page.content.decode()


def test_the_lobby_shows_each_players_rating_beside_the_name_with_a_question_mark_while_provisional():
    ann, bob, cid = UserFactory(username="ann"), UserFactory(username="bob"), UserFactory(username="cid")
    _rated(ann, bob)
    open_game = GameFactory(name="Open one")
    SeatFactory(game=open_game, user=ann, name="Ann")
    SeatFactory(game=open_game, user=cid, name="Cid")
    running, _seats = started_game(players=2)
    Seat.objects.filter(game=running, number=running.seats.first().number).update(user=bob, name="Bob")
    html = Client().get("/").content.decode()
    assert '<span class="name">Ann</span> <span class="rating" title="rating, provisional until more rated games">1069?</span>' in html
    assert "Bob <span class=\"rating\"" in html and ">963?</span>" in html
    assert '<span class="name">Cid</span></td>' in html  # not rated yet: no number


def test_the_lobby_reads_every_rating_in_one_statement_however_many_games_and_seats():
    players = [UserFactory() for _ in range(8)]
    _rated(*players)

    def lobby_with(games: int) -> int:
        for n in range(games):
            game = GameFactory(name=f"table {n}", seats=4)
            for user in players[(n % 2) * 4:(n % 2) * 4 + 4]:
                SeatFactory(game=game, user=user)
        return _lobby_statements(Client())[0]

    few = lobby_with(2)
    many = lobby_with(6)  # eight games, 32 rated seats
    assert few == many, (few, many)


def test_the_game_page_shows_each_players_rating_read_in_one_statement_for_all_seats():
    def page_statements(players: int) -> tuple[int, str]:
        users = [UserFactory() for _ in range(players)]
        _rated(*users)
        game = GameFactory(seats=players)
        for n, user in enumerate(users):
            SeatFactory(game=game, user=user, name=f"P{n}")
        services.game_start(game=game)
        services.game_run_pending(game_id=str(game.pk))
        client = Client()
        client.get(f"/games/{game.pk}/")  # the first view of a game warms the referee's caches
        with CaptureQueriesContext(connection) as queries:
            html = client.get(f"/games/{game.pk}/").content.decode()
        return len(queries), html

    two, html = page_statements(2)
    assert '<p id="players">Players: <span class="name">P0</span> <span class="rating"' in html
    assert ">1069?</span>" in html and ">963?</span>" in html
    four, html = page_statements(4)
    assert html.count('class="rating"') == 4
    assert two == four, (two, four)


def test_a_moderator_voids_a_finished_game_from_the_audit_page_with_a_reason():
    from referee.models import RatedGame
    from tests.factories import ModeratorFactory
    from tests.rated_games import new_game, play_out

    game, seats = new_game([UserFactory(), UserFactory()])
    play_out(game, seats)
    client = Client()
    client.force_login(ModeratorFactory())
    page = client.get(f"/games/{game.pk}/audit/").content.decode()
    assert 'id="void-form"' in page and 'id="void-reason" name="reason" required' in page
    blank = client.post(f"/games/{game.pk}/audit/", {"action": "void", "reason": " "}, follow=True).content.decode()
    assert "Not voided: Say why" in blank and not RatedGame.objects.get(game=game).voided_reason
    done = client.post(f"/games/{game.pk}/audit/", {"action": "void", "reason": "A bot in a people's game."},
                       follow=True).content.decode()
    assert "Its rating changes were taken back." in done
    assert '<p id="voided">Voided: A bot in a people&#x27;s game.</p>' in done and 'id="void-form"' not in done
    assert RatedGame.objects.get(game=game).voided_reason == "A bot in a people's game."
    game_page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "A moderator voided the game: its result counts for nothing. Reason: A bot in a people&#x27;s game." in game_page
    assert 'id="result-ratings"' not in game_page
