"""Reads the pages need that ``referee.selectors`` does not offer yet. Each is a plain
read with no visibility question in it (who sits where); they belong in
``referee/selectors.py`` and live here only until the referee's owner moves them, so no
page module touches a model's manager itself."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from referee.models import Game, Seat


def seat_names_get(*, game: Game) -> dict[int, str]:
    """Seat number -> the name the seat plays under (public: the lobby shows it)."""
    return {s.number: s.name for s in game.seats.all()}


def game_ids_played_by(*, user: AbstractBaseUser | None) -> set[Any]:
    """The games the user holds a seat in (the lobby marks them "you are in")."""
    if user is None or not user.is_authenticated:
        return set()
    return set(Seat.objects.filter(user=user).values_list("game_id", flat=True))


def seats_of_user(*, user: AbstractBaseUser) -> list[Seat]:
    """The user's seats with their games, newest game first (my games, settings)."""
    return list(
        Seat.objects.filter(user=user).select_related("game").prefetch_related("vacations", "game__seats")
        .order_by("-game__created_at")
    )
