"""Forum export: the board as a PNG (for rulesets whose plug-in draws one) and a BBCode
post. Public audience only: these are built from the public view and the public log
whoever asks. ``board.png?seq=N`` is the board frozen at public record N, so a post's
picture never changes afterwards; the post links it under ``REFEREE_BASE_URL`` (the
address players reach, not whatever host the request came through)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from frontend_templates import common
from games.base import PUBLIC
from referee import selectors
from referee.models import Game


def board_image(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    seq: int | None = None
    if request.GET.get("seq"):
        try:
            seq = int(request.GET["seq"])
        except ValueError:
            return HttpResponse("seq is a public record number.", status=400, content_type="text/plain")
        if seq < 1:
            return HttpResponse("seq is a public record number.", status=400, content_type="text/plain")
    data = None
    if game.status != Game.Status.OPEN:
        data = selectors.game_state_get(game_id=str(game.pk), viewer=PUBLIC, seq=seq)
    png = common.pages(game).board_png(data["position"]) if data is not None else None
    if png is None:
        return HttpResponse("No board yet.", status=404, content_type="text/plain")
    response = HttpResponse(png, content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="board-{game.pk}-{data["seq"]}.png"'
    if seq is not None and seq <= (data["seq"] or 0):
        # a past record's board never changes: forums and browsers may keep it
        response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


def public_url(path: str) -> str:
    """``path`` under the configured public address of the site."""
    return str(getattr(settings, "REFEREE_BASE_URL", "") or "").rstrip("/") + path


def frozen_image_url(game: Game) -> str:
    """The board PNG frozen at the latest public record (empty if the plug-in draws none)."""
    if not common.pages(game).has_board_png or game.status == Game.Status.OPEN:
        return ""
    seq = selectors.viewer_log_position(game_id=str(game.pk), viewer=PUBLIC)
    return public_url(reverse("game-board-png", args=[game.pk]) + f"?seq={seq}")


def bbcode_text(game: Game, image_url: str) -> str | None:
    """The post, or None before the game starts."""
    data = common.public_state(game)
    if data is None:
        return None
    rules = common.rules(game)
    records = common.with_causes(selectors.game_events_list(game_id=str(game.pk), viewer=PUBLIC))
    return common.pages(game).forum_post(
        game_name=game.name, title=rules.title or rules.name, position=data["position"], records=records,
        deadline=data["clock"].get("deadline"), image_url=image_url, names=common.seat_names(game),
        result=common.result(game), waiting_for=data["clock"].get("waiting_for") or [],
    )


def forum(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    image_url = frozen_image_url(game)
    text = bbcode_text(game, image_url)
    if request.GET.get("format") == "txt":
        return HttpResponse(text or "", content_type="text/plain; charset=utf-8")
    local = image_url[len(public_url("")):] if image_url else ""  # the same picture from this host
    return render(request, "frontend/forum.html", {"game": game, "bbcode": text, "image_url": image_url, "local_image": local,
                                                   "game_url": public_url(reverse("game-detail", args=[game.pk]))})
