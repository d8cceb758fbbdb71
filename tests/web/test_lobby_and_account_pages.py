"""The lobby, signing up and in, joining with the shopping list, my games, settings."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from referee import services
from referee.models import Seat
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def open_worms_game(name: str = "Open worms", **kw):
    return services.game_create(name=name, ruleset="worms", seats=3, **kw)


def test_lobby_lists_open_games_with_a_join_link():
    game = open_worms_game()
    page = Client().get("/")
    assert page.status_code == 200
    assert "Open worms" in page.content.decode()
    assert f"/games/{game.pk}/join/" in page.content.decode()


def test_lobby_hides_private_games_from_strangers():
    open_worms_game("Secret club", is_private=True)
    assert "Secret club" not in Client().get("/").content.decode()


def test_signing_up_creates_the_account_and_signs_in():
    c = Client()
    assert c.get("/signup/").status_code == 200
    response = c.post("/signup/", {"username": "newbie", "password1": "a-long-pass-123", "password2": "a-long-pass-123"})
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="newbie").exists()
    assert "Sign out (newbie)" in c.get("/").content.decode()


def test_sign_in_page_has_labelled_fields():
    html = Client().get("/accounts/login/").content.decode()
    assert '<label for="id_username">' in html and '<label for="id_password">' in html


def test_signing_in_lands_on_my_games():
    UserFactory(username="carol")
    response = Client().post("/accounts/login/", {"username": "carol", "password": "pw", "next": "/my/"})
    assert response.status_code == 302 and response["Location"] == "/my/"


def test_join_page_shows_the_budget_the_team_weapons_and_prices():
    game = open_worms_game()
    c = Client()
    c.force_login(UserFactory())
    html = c.get(f"/games/{game.pk}/join/").content.decode()
    assert 'id="points-left" data-budget="175"' in html  # §6: 3 players, 175 points
    assert 'value="mad_cow"' in html and "Mad Cow (x2)" in html
    assert 'data-price="3"' in html and '<label for="buy_bazooka">Bazooka</label>' in html
    assert "handgun" not in html.split("Shopping list")[1]  # free items are not for sale


def test_joining_keeps_the_shopping_list_as_the_seats_private_order():
    game = open_worms_game()
    user = UserFactory()
    c = Client()
    c.force_login(user)
    response = c.post(f"/games/{game.pk}/join/", {"name": "Worminators", "team_weapon": "minigun", "buy_bazooka": "2"})
    assert response.status_code == 302
    seat = Seat.objects.get(game=game, user=user)
    assert seat.name == "Worminators"
    assert seat.signup_order == {"type": "SubmitShoppingList",
                                 "payload": {"team_weapon": "minigun", "items": [{"item": "bazooka", "count": 2}]}}


def test_an_overspent_list_is_refused_with_the_rule():
    game = open_worms_game()
    c = Client()
    c.force_login(UserFactory())
    response = c.post(f"/games/{game.pk}/join/", {"name": "Greedy", "team_weapon": "minigun", "buy_sheep": "20"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "the list costs 240 points but you have 175" in html and "(§6)" in html
    assert not Seat.objects.filter(game=game).exists()


def test_joining_needs_an_account():
    game = open_worms_game()
    response = Client().get(f"/games/{game.pk}/join/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_my_games_shows_whose_turn_and_the_deadline(table):
    acting = table.seat_to_act()
    html = table.client(acting).get("/my/").content.decode()
    assert "Your turn" in html
    assert "data-countdown" in html
    other = table.other_seats()[0]
    html = table.client(other).get("/my/").content.decode()
    assert "Your turn" not in html and acting.name in html


def test_settings_turn_reminders_off_and_declare_a_vacation(table):
    seat = table.seats[0]
    c = table.client(seat)
    assert c.get("/settings/").status_code == 200
    c.post("/settings/", {"action": "reminders", "game": str(table.game.pk)})
    seat.refresh_from_db()
    assert seat.reminders is False
    c.post("/settings/", {"action": "reminders", "game": str(table.game.pk), "reminders": "on"})
    seat.refresh_from_db()
    assert seat.reminders is True
    start = dt.datetime.now(dt.UTC) + dt.timedelta(days=2)
    response = c.post("/settings/", {
        "action": "vacation", "game": str(table.game.pk), "reason": "holiday",
        "starts_at": start.strftime("%Y-%m-%dT%H:%M"),
        "ends_at": (start + dt.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
    }, follow=True)
    assert "Vacation declared." in response.content.decode()
    assert seat.vacations.count() == 1


def test_a_vacation_over_the_allowance_is_explained(table):
    c = table.client(table.seats[0])
    start = dt.datetime.now(dt.UTC) + dt.timedelta(days=2)
    response = c.post("/settings/", {
        "action": "vacation", "game": str(table.game.pk),
        "starts_at": start.strftime("%Y-%m-%dT%H:%M"),
        "ends_at": (start + dt.timedelta(days=60)).strftime("%Y-%m-%dT%H:%M"),
    }, follow=True)
    assert "Vacations may add up to" in response.content.decode()


def test_a_player_opens_a_new_game_and_is_taken_to_join_it():
    c = Client()
    c.force_login(UserFactory())
    assert c.get("/games/new/").status_code == 200
    response = c.post("/games/new/", {"name": "Friday worms", "players": "4", "turn_limit_hours": "24"})
    assert response.status_code == 302 and response["Location"].endswith("/join/")
    assert "Friday worms" in Client().get("/").content.decode()


def test_a_turn_limit_outside_the_rulebook_is_explained():
    c = Client()
    c.force_login(UserFactory())
    response = c.post("/games/new/", {"name": "Slow", "players": "4", "turn_limit_hours": "72"})
    assert response.status_code == 400 and "24 to 48 hours" in response.content.decode()
