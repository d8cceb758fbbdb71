"""Reads. Every read of a position or a log goes through the ruleset's visibility rules."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from games.base import MODERATOR_VIEW, PUBLIC, Viewer
from referee.models import Game, Seat
from referee.services import referee_get


def viewer_for(*, game_id: str, user: AbstractBaseUser | None, as_moderator: bool = False) -> Viewer:
    if user is not None and user.is_authenticated:
        if as_moderator and user.is_staff:
            return MODERATOR_VIEW
        seat = Seat.objects.filter(game_id=game_id, user=user).first()
        if seat is not None:
            return Viewer.for_seat(seat.number)
    return PUBLIC


def game_list() -> QuerySet[Game]:
    return Game.objects.all().prefetch_related("seats")


def game_state_get(*, game_id: str, viewer: Viewer, seq: int | None = None) -> dict[str, Any]:
    return referee_get().view(game_id, viewer, seq)


def game_events_list(*, game_id: str, viewer: Viewer, after: int = 0, upto: int | None = None) -> list[dict[str, Any]]:
    return referee_get().feed(game_id, viewer, after=after, upto=upto)
