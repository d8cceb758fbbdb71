"""factory-boy factories for users, games and seats. Games are made through the real
service (``game_create``) so that every game row has a valid ruleset, settings and seed."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from referee import services
from referee.models import Game, Seat


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("pw")


class ModeratorFactory(UserFactory):
    username = factory.Sequence(lambda n: f"moderator{n}")
    is_staff = True


class GameFactory(factory.Factory):
    class Meta:
        model = Game

    name = factory.Sequence(lambda n: f"Game {n}")
    ruleset = "pig"
    settings = factory.LazyFunction(lambda: {"target": 20})

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        return services.game_create(**kwargs)

    @classmethod
    def _build(cls, model_class, *args, **kwargs):
        return cls._create(model_class, *args, **kwargs)


class SeatFactory(factory.Factory):
    class Meta:
        model = Seat

    game = factory.SubFactory(GameFactory)
    user = factory.SubFactory(UserFactory)
    name = factory.LazyAttribute(lambda s: s.user.username.title())

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        return services.seat_add(**kwargs)


def started_game(players: int = 2, **game_kwargs) -> tuple[Game, list[Seat]]:
    """A started game whose first turn has begun (the turn-start job runs eagerly in tests)."""
    game = GameFactory(**game_kwargs)
    seats = [SeatFactory(game=game) for _ in range(players)]
    services.game_start(game=game)
    services.game_run_pending(game_id=str(game.pk))  # on_commit does not fire inside a test transaction
    game.refresh_from_db()
    return game, seats


def acting_seat(game: Game, seats: list[Seat]) -> Seat:
    """The seat whose turn it is in a started Pig game."""
    state, _ = services.referee_get().current(str(game.pk))
    return next(s for s in seats if s.number == state.order[state.to_move])


def api_client(user=None):
    """A DRF test client, signed in as ``user`` if given."""
    from rest_framework.test import APIClient

    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client
