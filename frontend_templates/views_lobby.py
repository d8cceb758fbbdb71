"""The lobby (open games, joining with the shopping list), signing up, my games."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from frontend_templates import worms_ui as ui
from frontend_templates.common import game_or_404
from games.base import RuleViolation
from referee import lobby, selectors, services
from referee.errors import RefereeError
from referee.models import Game, Seat


def home(request: HttpRequest) -> HttpResponse:
    games = lobby.games_visible_to(request.user).prefetch_related("seats")
    open_games = [g for g in games if g.status == Game.Status.OPEN]
    running = [g for g in games if g.status != Game.Status.OPEN]
    mine = set()
    if request.user.is_authenticated:
        mine = set(Seat.objects.filter(user=request.user).values_list("game_id", flat=True))
    return render(request, "frontend/lobby.html", {"open_games": open_games, "running": running, "mine": mine})


def signup(request: HttpRequest) -> HttpResponse:
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.get_username()}. Pick a game to join.")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


def profile(request: HttpRequest) -> HttpResponse:
    return redirect("my-games")


def _shopping_from_post(request: HttpRequest) -> dict[str, Any]:
    items = []
    for item in ui.shop_items():
        raw = request.POST.get(f"buy_{item['name']}", "").strip() or "0"
        try:
            count = int(raw)
        except ValueError:
            count = -1
        if count:
            items.append({"item": item["name"], "count": count})
    return {"team_weapon": request.POST.get("team_weapon", ""), "items": items}


@login_required
def join(request: HttpRequest, game_id: str) -> HttpResponse:
    game = game_or_404(request, game_id)
    worms = game.ruleset == "worms"
    players = game.max_seats
    context: dict[str, Any] = {
        "game": game, "worms": worms,
        "items": [dict(i, count=request.POST.get(f"buy_{i['name']}", "0")) for i in ui.shop_items()], "team_weapons": ui.team_weapons(),
        "budget": ui.budget(players), "players": players, "posted": request.POST,
        "name": request.POST.get("name", request.user.get_username().title()),
    }
    if request.method == "POST":
        order = None
        if worms:
            order = {"type": "SubmitShoppingList", "payload": _shopping_from_post(request)}
            # The ruleset's own check, at the budget of a full table (the least there can be).
            from games.worms.signup import check_shopping_list
            from games.worms.state import Stock

            try:
                check_shopping_list(
                    order["payload"]["team_weapon"],
                    tuple(Stock(i["item"], i["count"]) for i in order["payload"]["items"]),
                    ui.budget(players),
                )
            except RuleViolation as exc:
                context["error"] = f"{exc.message} ({exc.rule})"
                return render(request, "frontend/join.html", context, status=400)
        try:
            lobby.game_join(game_id=str(game.pk), user=request.user, name=request.POST.get("name", "").strip(),
                            signup_order=order)
        except RuleViolation as exc:
            context["error"] = f"{exc.message} ({exc.rule})"
            return render(request, "frontend/join.html", context, status=400)
        except RefereeError as exc:
            context["error"] = exc.message
            return render(request, "frontend/join.html", context, status=400)
        messages.success(request, f"You joined {game.name}. Your shopping list stays private.")
        return redirect("game-detail", game_id=game.pk)
    context["items_json"] = json.dumps({i["name"]: i["price"] for i in ui.shop_items()})
    return render(request, "frontend/join.html", context)


@login_required
def create(request: HttpRequest) -> HttpResponse:
    """A new Worms game, open for seats (§2: 2 to 8 players; §7: 24 to 48 hours a turn)."""
    context: dict[str, Any] = {"posted": request.POST}
    if request.method == "POST":
        try:
            players = int(request.POST.get("players") or 0)
            hours = int(request.POST.get("turn_limit_hours") or 36)
            game = services.game_create(
                name=request.POST.get("name", ""), ruleset="worms", seats=players, turn_limit_hours=hours,
                created_by=request.user, is_private=request.POST.get("is_private") == "on",
            )
        except ValueError:
            context["error"] = "Give the number of players and the hours per turn as whole numbers."
        except (RefereeError, RuleViolation) as exc:
            context["error"] = getattr(exc, "message", str(exc))
        else:
            messages.success(request, f"{game.name} is open for seats.")
            return redirect("game-join", game_id=game.pk)
        return render(request, "frontend/create.html", context, status=400)
    return render(request, "frontend/create.html", context)


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    rows = []
    for seat in Seat.objects.filter(user=request.user).select_related("game").order_by("-game__created_at"):
        game = seat.game
        clock = selectors.game_clock_get(game_id=str(game.pk)) if game.status == Game.Status.ACTIVE else {}
        waiting = clock.get("waiting_for") or []
        names = {s.number: s.name for s in game.seats.all()}
        rows.append({
            "game": game, "seat": seat, "my_turn": seat.number in waiting,
            "whose": ", ".join(names.get(n, f"seat {n}") for n in waiting) or "—",
            "deadline": clock.get("deadline"), "paused": clock.get("paused", False),
        })
    return render(request, "frontend/my_games.html", {"rows": rows, "join_url": reverse("home")})
