"""Playing a Worms turn: walk a worm step by step, fire, end the turn, surrender. Every
order goes through ``frontend_templates.orders.place`` (the referee's services); a
refusal is shown with the rule it breaks."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from frontend_templates import common, orders
from game_pages.worms import ui
from referee.models import Game

_RULEBOOK: list[dict] = []


def rulebook() -> list[dict]:
    """The clauses the rules catalogue quotes, by section (``rulebook.json``, extracted from
    docs/cases/worms.md), so "§7" on a page can link to its words."""
    if not _RULEBOOK:
        import json
        from importlib.resources import files

        _RULEBOOK.extend(json.loads(files("game_pages.worms").joinpath("rulebook.json").read_text("utf-8")))
    return _RULEBOOK


def rules(request: HttpRequest) -> HttpResponse:
    sections = [dict(s, anchor=f"s{ui.section_of(s['clause'])}") for s in rulebook()]
    return render(request, "game_pages/worms/rules.html", {"sections": sections, "weapons": ui.weapon_table()})


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
    if not payload["target"]:
        # a slip of the form, not an order: nothing goes to the referee or the log
        messages.error(request, "Pick a target first: tap a square on the board or type one (like j12, N, or c5-g5).")
    else:
        orders.place(request, game, "Fire", payload)  # what the shot did is announced from the feed
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
