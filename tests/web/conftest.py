"""Worms games for the page tests, built through the real services (lobby, orders)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.test import Client

from referee import lobby, selectors, services
from referee.models import Game, Seat
from tests.factories import ModeratorFactory, UserFactory

SHOPPING = [
    {"team_weapon": "mad_cow", "items": [{"item": "bazooka", "count": 3}, {"item": "grenade", "count": 2}]},
    {"team_weapon": "minigun", "items": [{"item": "shotgun", "count": 2}, {"item": "mine", "count": 2}]},
    {"team_weapon": "old_woman", "items": [{"item": "longbow", "count": 1}]},
]


@dataclass
class Table:
    game: Game
    seats: list[Seat]

    def client(self, seat: Seat) -> Client:
        c = Client()
        c.force_login(seat.user)
        return c

    def position(self, seat: Seat | None = None) -> dict:
        from games.base import PUBLIC, Viewer

        viewer = Viewer.for_seat(seat.number) if seat else PUBLIC
        return selectors.game_state_get(game_id=str(self.game.pk), viewer=viewer)["position"]

    def seat_to_act(self) -> Seat:
        number = self.position()["seat"]
        return next(s for s in self.seats if s.number == number)

    def other_seats(self) -> list[Seat]:
        acting = self.seat_to_act()
        return [s for s in self.seats if s.number != acting.number]


def worms_table(players: int = 3, name: str = "Web game") -> Table:
    users = [UserFactory() for _ in range(players)]
    game = services.game_create(name=name, ruleset="worms", seats=players, created_by=ModeratorFactory())
    seats = []
    for user, shopping in zip(users, SHOPPING, strict=False):
        seats.append(lobby.game_join(game_id=str(game.pk), user=user, name=user.username.title(),
                                     signup_order={"type": "SubmitShoppingList", "payload": shopping}))
    services.game_run_pending(game_id=str(game.pk))  # on_commit does not fire inside a test transaction
    game.refresh_from_db()
    return Table(game, seats)


@pytest.fixture
def table(db) -> Table:
    return worms_table()


@pytest.fixture
def moderator_client(db) -> Client:
    c = Client()
    c.force_login(ModeratorFactory())
    return c
