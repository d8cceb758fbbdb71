"""Parties' own routes: the live fragment (board, status and move pad for this viewer),
a human seat's move and ally policy, and the result page with the trophies. Orders go
through ``frontend_templates.orders.place`` (the referee's services), so a refusal is
shown with its rule."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from frontend_templates import common, orders
from frontend_templates.plugins import render_panel
from game_pages.parties import ui
from game_pages.parties.narrate import POLICY_WORDS


def _back(game: Any) -> HttpResponse:
    return redirect(reverse("game-detail", args=[game.pk]) + "#play")


def live(request: HttpRequest, game_id: str) -> HttpResponse:
    """The three live blocks as this viewer may see them, for the page's script."""
    game = common.game_or_404(request, game_id)
    seat = common.my_seat(request, game)
    who = common.viewer(request, game, as_moderator=common.wants_moderator(request) and seat is None)
    data = common.state(game, who)
    if data is None:
        return HttpResponse('<div id="parties-board" data-finished="0"><p>Waiting for players.</p></div>')
    page = common.page_for(request, game, data, seat=seat, who=who)
    base = {"game": game, "page": page, "position": page.position, "clock": page.clock,
            "moderator": page.moderator, "seat": seat, "form_key": page.form_key}
    pages = common.pages(game)
    return render(request, "game_pages/parties/live.html", {
        "board": pages.board(page.position, title=f"The arena of {game.name}", page=page),
        "status": render_panel(request, pages.status(page), **base),
        "orders": render_panel(request, pages.orders(page), **base),
    })


@login_required
@require_POST
def move(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    direction = request.POST.get("direction", "")
    payload: dict[str, Any] = {"direction": direction}
    tick = request.POST.get("tick", "")
    if tick.isdigit():
        payload["tick"] = int(tick)  # a click on an old page is refused, not played on the next tick
    # No "Your move" flash: the move pad says the choice for the tick in play only, while a
    # flash stays on a live page after the tick has closed.
    orders.place(request, game, "Move", payload)
    return _back(game)


@login_required
@require_POST
def ally_policy(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    policy = request.POST.get("policy", "")
    if orders.place(request, game, "SetAllyPolicy", {"policy": policy}):
        messages.success(request, f"From now on you {POLICY_WORDS.get(policy, policy)} (only you know it).")
    return _back(game)


def result(request: HttpRequest, game_id: str) -> HttpResponse:
    """The podium (1st, 2nd, 3rd trophies) and the whole ranking, from the public result."""
    game = common.game_or_404(request, game_id)
    outcome = common.result(game)
    data = common.public_state(game)
    position = data["position"] if data else {}
    names = common.seat_names(game)
    bots = {int(b["seat"]): b for b in position.get("bots") or []}
    ranking = [
        {"place": place, "name": ui.name_of(names, s), "score": bots.get(s, {}).get("score"),
         "strength": bots.get(s, {}).get("strength")}
        for place, seats in enumerate(outcome.ranking, start=1) for s in seats
    ]
    return render(request, "game_pages/parties/result.html", {
        "game": game, "result": outcome, "podium": ui.podium(outcome, position, names), "ranking": ranking,
    })
