"""Playing a Worms turn: walk a worm step by step, fire, end the turn, surrender. Every
order goes through ``frontend_templates.orders.place`` (the referee's services); a
refusal is shown with the rule it breaks."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from frontend_templates import common, orders
from referee.models import Game


def _back(game: Game, worm: str = "", weapon: str = "") -> HttpResponse:
    url = reverse("game-detail", args=[game.pk])
    query = "&".join(f"{k}={v}" for k, v in (("worm", worm), ("weapon", weapon)) if v)
    return redirect(f"{url}?{query}#play" if query else f"{url}#play")


@login_required
@require_POST
def move(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    worm = request.POST.get("worm", "")
    square = request.POST.get("square", "").strip().lower()
    if orders.place(request, game, "MoveWorm", {"worm": worm, "path": [square]}):
        messages.success(request, f"{worm} walked to {square}.")
    return _back(game, worm)


@login_required
@require_POST
def fire(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    worm = request.POST.get("worm", "")
    weapon = request.POST.get("weapon", "")
    payload = {"worm": worm, "weapon": weapon, "target": request.POST.get("target", "").strip(),
               "mine_type": request.POST.get("mine_type", "").strip()}
    if orders.place(request, game, "Fire", payload):
        messages.success(request, f"{worm} fired the {weapon.replace('_', ' ')}.")
    return _back(game, worm, weapon)


@login_required
@require_POST
def end_turn(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    if orders.place(request, game, "EndTurn", {}):
        messages.success(request, "Your turn is over.")
    return _back(game)


@login_required
@require_POST
def surrender(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    if request.POST.get("confirm") != "yes":
        messages.error(request, "Tick the box to confirm: surrendering removes all your worms (§7).")
    elif orders.place(request, game, "Surrender", {}):
        messages.success(request, "You surrendered; your worms have left the board.")
    return redirect("game-detail", game_id=game.pk)
