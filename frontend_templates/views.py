"""Server-rendered pages; they call the same selectors as the API."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from referee import selectors
from referee.models import Game


def game_list(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/game_list.html", {"games": selectors.game_list()})


def game_detail(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        game = Game.objects.get(pk=game_id)
    except (Game.DoesNotExist, ValueError, ValidationError):
        raise Http404("No such game") from None
    viewer = selectors.viewer_for(game_id=str(game.pk), user=request.user)
    state = selectors.game_state_get(game_id=str(game.pk), viewer=viewer) if game.status != "open" else None
    events = selectors.game_events_list(game_id=str(game.pk), viewer=viewer)
    return render(request, "frontend/game_detail.html", {"game": game, "state": state, "events": events})
