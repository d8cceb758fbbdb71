"""Forum export: the board as a PNG (for rulesets whose plug-in draws one) and a BBCode
post. Public audience only: these are built from the public view and the public log
whoever asks."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from frontend_templates import common
from games.base import PUBLIC
from referee import selectors
from referee.models import Game


def board_image(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    data = common.public_state(game)
    png = common.pages(game).board_png(data["position"]) if data is not None else None
    if png is None:
        return HttpResponse("No board yet.", status=404, content_type="text/plain")
    response = HttpResponse(png, content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="board-{game.pk}-{data["seq"]}.png"'
    return response


def bbcode_text(game: Game, image_url: str) -> str | None:
    """The post, or None before the game starts."""
    data = common.public_state(game)
    if data is None:
        return None
    rules = common.rules(game)
    records = selectors.game_events_list(game_id=str(game.pk), viewer=PUBLIC)
    return common.pages(game).forum_post(
        game_name=game.name, title=rules.title or rules.name, position=data["position"], records=records,
        deadline=data["clock"].get("deadline"), image_url=image_url, names=common.seat_names(game),
        result=common.result(game), waiting_for=data["clock"].get("waiting_for") or [],
    )


def forum(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    has_png = common.pages(game).has_board_png
    image_url = request.build_absolute_uri(reverse("game-board-png", args=[game.pk])) if has_png else ""
    text = bbcode_text(game, image_url)
    if request.GET.get("format") == "txt":
        return HttpResponse(text or "", content_type="text/plain; charset=utf-8")
    return render(request, "frontend/forum.html", {"game": game, "bbcode": text, "image_url": image_url})
