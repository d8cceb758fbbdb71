"""Forum export: the board as a PNG and a BBCode post. Public audience only: these are
built from the public view and the public log whoever asks."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from frontend_templates import common
from frontend_templates.bbcode import forum_post
from frontend_templates.board_png import board_png
from games.base import PUBLIC
from referee import selectors


def board_image(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    data = common.public_state(game)
    if data is None or game.ruleset != "worms":
        return HttpResponse("No board yet.", status=404, content_type="text/plain")
    response = HttpResponse(board_png(data["position"]), content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="board-{game.pk}-{data["seq"]}.png"'
    return response


def bbcode_text(game_id: str, name: str, image_url: str) -> str | None:
    from referee.models import Game

    game = Game.objects.get(pk=game_id)
    data = common.public_state(game)
    if data is None or game.ruleset != "worms":
        return None
    records = selectors.game_events_list(game_id=game_id, viewer=PUBLIC)
    return forum_post(game_name=name, position=data["position"], records=records,
                      deadline=data["clock"].get("deadline"), image_url=image_url)


def forum(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    image_url = request.build_absolute_uri(reverse("game-board-png", args=[game.pk]))
    text = bbcode_text(str(game.pk), game.name, image_url)
    if request.GET.get("format") == "txt":
        return HttpResponse(text or "", content_type="text/plain; charset=utf-8")
    return render(request, "frontend/forum.html", {"game": game, "bbcode": text, "image_url": image_url})
