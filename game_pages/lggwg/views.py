"""LGGWG's own routes: the order-list builder's plain forms (add, reorder, remove, clear,
send the list as one ``SubmitOrders``) and the game record download (``record.tak``).

The draft travels in the game page's query string (``?draft=R1>N,R1*e7``), so the builder
works without a script; sending goes through ``frontend_templates.orders.place`` (the
referee's services), so a refusal is told with the rule it breaks."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from frontend_templates import common, orders
from game_pages.lggwg import draft as drafts
from game_pages.lggwg import record
from game_pages.lggwg import rules as rulebook
from games.base import PUBLIC
from referee import selectors
from referee.instance import referee_get
from referee.models import Game

ACTIONS = ("add", "up", "down", "remove", "clear", "submit")


def _back(game: Game, draft: str | None) -> HttpResponse:
    url = reverse("game-detail", args=[game.pk])
    if draft is not None:
        url += "?" + urlencode({"draft": draft})
    return redirect(url + "#play")


@login_required
@require_POST
def order_list(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    post = request.POST
    action = post.get("action", "submit")
    text = post.get("draft", "")
    if action not in ACTIONS:
        messages.error(request, f"Refused: there is no action {action!r}.")
        return _back(game, text)
    if action == "submit":
        items, error = drafts.read(text)
        if error:
            messages.error(request, f"Refused: {error}")
            return _back(game, text)
        if not items:
            messages.error(request, "Refused: the list is empty; add an order (a hold will do) first.")
            return _back(game, text)
        if orders.place(request, game, "SubmitOrders", {"orders": drafts.orders(items)}):
            messages.success(request, f"Your list of {len(items)} order{'s' if len(items) != 1 else ''} is in. "
                                      "You may send a new one until the last team's list is in.")
            return _back(game, None)
        return _back(game, text)
    index = post.get("index", "")
    order = drafts.new_order(post.get("kind", ""), post.get("unit", ""), post.get("direction", ""),
                             post.get("square", "")) if action == "add" else None
    new, error = drafts.edit(text, action, int(index) if index.isdigit() else -1, order)
    if error:
        messages.error(request, error)
    return _back(game, new)


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "game_pages/lggwg/rules.html", {
        "sections": rulebook.SECTIONS, "units": rulebook.unit_table(), "terrain": rulebook.terrain_table(),
    })


@require_GET
def record_file(request: HttpRequest, game_id: str) -> HttpResponse:
    """The game record: complete (every record, hashes, seed) once the game is over and its
    log public, or for a moderator (``?as=moderator``); else the public log only."""
    game = common.game_or_404(request, game_id)
    if game.status == Game.Status.OPEN:
        raise Http404("The game has not started: there is no record yet.")
    seat = common.my_seat(request, game)
    moderator = common.wants_moderator(request) and seat is None
    referee = referee_get()
    info = referee.store.get_game(str(game.pk))
    complete = moderator or (info.status == "finished" and not info.private_log)
    seats = [{"number": n, "name": name} for n, name in sorted(common.seat_names(game).items())]
    extra = {"seed_hash": game.seed_hash, "turn_limit_seconds": game.turn_limit_seconds,
             "deadline_policy": game.deadline_policy}
    if complete:
        text = record.complete_file(info, game.name, seats, referee.store.read(str(game.pk)), extra)
    else:
        items = selectors.game_events_list(game_id=str(game.pk), viewer=PUBLIC)
        text = record.public_file(info, game.name, seats, items, extra)
    response = HttpResponse(text, content_type="application/x-ndjson; charset=utf-8")
    kind = "" if complete else "-public"
    response["Content-Disposition"] = f'attachment; filename="lggwg-{game.pk}{kind}.tak"'
    response["Cache-Control"] = "no-store"
    return response
