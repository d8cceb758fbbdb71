"""Reads the pages need that ``referee.selectors`` does not offer yet. Each is a plain
read with no visibility question in it (who sits where, a game's result); they belong in
``referee/selectors.py`` and live here only until the referee's owner moves them, so no
page module touches a model's manager itself."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from games.base import Result, Ruleset
from referee.instance import referee_get
from referee.models import Game, Seat


def seat_names_get(*, game: Game) -> dict[int, str]:
    """Seat number -> the name the seat plays under (public: the lobby shows it)."""
    return {s.number: s.name for s in game.seats.all()}


def seat_of_user(*, game: Game, user: AbstractBaseUser | None) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(game=game, user=user).first()


def game_ids_played_by(*, user: AbstractBaseUser | None) -> set[Any]:
    if user is None or not user.is_authenticated:
        return set()
    return set(Seat.objects.filter(user=user).values_list("game_id", flat=True))


def seats_of_user(*, user: AbstractBaseUser) -> list[Seat]:
    """The user's seats with their games, newest game first (my games, settings)."""
    return list(
        Seat.objects.filter(user=user).select_related("game").prefetch_related("vacations", "game__seats")
        .order_by("-game__created_at")
    )


def game_get(*, game_id: str) -> Game:
    return Game.objects.get(pk=game_id)


def ruleset_of(*, game: Game) -> Ruleset:
    return referee_get().registry.get(game.ruleset, game.ruleset_version)


def game_result_get(*, game: Game) -> Result:
    """``rules.result`` of the true current position: who won is public, so every viewer
    gets the same answer (an open game has no result yet)."""
    rules = ruleset_of(game=game)
    if game.status == Game.Status.OPEN:
        return Result(finished=False)
    state, _ = referee_get().current(str(game.pk))
    return rules.result(state)
