"""Shared by the page modules: finding a game the way the lobby's visibility allows,
the viewer, and the position through the selectors."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest

from games.base import PUBLIC, Viewer, ViewerKind
from referee import lobby, selectors
from referee.errors import GameNotFound
from referee.models import Game, Seat


def game_or_404(request: HttpRequest, game_id: str) -> Game:
    try:
        return lobby.game_get_for(game_id=game_id, user=request.user)
    except GameNotFound:
        raise Http404("There is no such game, or it is not yours to see.") from None


def wants_moderator(request: HttpRequest) -> bool:
    """Moderators see hidden information only when they ask for it (``?as=moderator``)."""
    return bool(request.user.is_authenticated and request.user.is_staff and request.GET.get("as") == "moderator")


def viewer(request: HttpRequest, game: Game, *, as_moderator: bool = False) -> Viewer:
    return selectors.viewer_for(game_id=str(game.pk), user=request.user, as_moderator=as_moderator)


def my_seat(request: HttpRequest, game: Game) -> Seat | None:
    if not request.user.is_authenticated:
        return None
    return Seat.objects.filter(game=game, user=request.user).first()


def state(game: Game, who: Viewer) -> dict[str, Any] | None:
    if game.status == Game.Status.OPEN:
        return None
    return selectors.game_state_get(game_id=str(game.pk), viewer=who)


def public_state(game: Game) -> dict[str, Any] | None:
    return state(game, PUBLIC)


def is_moderator_view(who: Viewer) -> bool:
    return who.kind is ViewerKind.MODERATOR


def seat_names(game: Game) -> dict[int, str]:
    return {s.number: s.name for s in game.seats.all()}
