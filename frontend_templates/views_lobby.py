"""The lobby (open games, joining with the ruleset's sign-up order if it has one),
opening a game of any registered ruleset, signing up, my games."""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from frontend_templates import common
from frontend_templates.generic_text import result_text
from frontend_templates.plugins import OrderFormError, pages_for, render_panel
from games.base import Ruleset, RuleViolation
from referee import lobby, lobby_selectors, ratings_selectors, selectors, services
from referee.errors import RefereeError
from referee.models import Game
from referee.rulesets import get_registry

UNIT_SECONDS = {"seconds": 1, "minutes": 60, "hours": 3600}
#: The longest names the referee keeps (``Seat.name``, ``Game.name``): a longer one is
#: refused with a sentence, never cut.
TEAM_NAME_MAX = 60
GAME_NAME_MAX = 120


def name_problem(name: str, *, limit: int, what: str) -> str:
    if len(name.strip()) > limit:
        return f"A {what} is at most {limit} characters; yours has {len(name.strip())}. Please shorten it."
    return ""


def home(request: HttpRequest) -> HttpResponse:
    games = lobby_selectors.games_visible_to(request.user).prefetch_related("seats")
    open_games = [g for g in games if g.status == Game.Status.OPEN]
    running = [g for g in games if g.status != Game.Status.OPEN]
    mine = selectors.game_ids_played_by(user=request.user)
    return render(request, "frontend/lobby.html", {"open_games": open_games, "running": running, "mine": mine,
                                                   "ratings": ratings_selectors.ratings_beside(games=games)})


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


@login_required
def join(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    rules = common.rules(game)
    plugin = common.pages(game)
    context: dict[str, Any] = {
        "game": game, "title": rules.title or rules.name,
        "signup": render_panel(request, plugin.signup(game, rules, request.POST), game=game),
        "name": request.POST.get("name", request.user.get_username().title()),
    }
    if request.method == "POST":
        problem = name_problem(request.POST.get("name", ""), limit=TEAM_NAME_MAX, what="team name")
        if problem:
            context["error"] = problem
            return render(request, "frontend/join.html", context, status=400)
        try:
            order = plugin.signup_order(game, rules, request.POST)
            lobby.game_join(game_id=str(game.pk), user=request.user, name=request.POST.get("name", "").strip(),
                            signup_order=order)
        except RuleViolation as exc:
            rule = f" (rule {exc.rule})" if str(exc.rule).startswith("§") else ""
            context["error"] = f"{exc.message}{rule}"
            return render(request, "frontend/join.html", context, status=400)
        except RefereeError as exc:
            context["error"] = exc.message
            return render(request, "frontend/join.html", context, status=400)
        note = plugin.joined_note()
        messages.success(request, f"You joined {game.name}." + (f" {note}" if note else ""))
        return redirect("game-detail", game_id=game.pk)
    return render(request, "frontend/join.html", context)


def _rulesets() -> list[Ruleset]:
    """The newest version of every registered ruleset, by title."""
    registry = get_registry()
    names = sorted({name for name, _ in registry.names()})
    return sorted((registry.get(n) for n in names), key=lambda r: (r.title or r.name).lower())


def _chosen(request: HttpRequest, rulesets: list[Ruleset]) -> Ruleset:
    by_name = {r.name: r for r in rulesets}
    wanted = request.POST.get("ruleset") or request.GET.get("ruleset") or getattr(
        settings, "FRONTEND_DEFAULT_RULESET", "")
    return by_name.get(wanted) or rulesets[0]


def _limits(rules: Ruleset) -> dict[str, Any]:
    """The turn limit in the ruleset's own unit, within its bounds (``TurnLimits`` is in seconds)."""
    limits = rules.turn_limits
    size = UNIT_SECONDS[limits.unit]
    return {"unit": limits.unit, "field": f"turn_limit_{limits.unit}", "size": size, "rule": limits.rule,
            "minimum": math.ceil(limits.minimum / size), "maximum": limits.maximum // size,
            "default": round(limits.default / size)}


@login_required
def create(request: HttpRequest) -> HttpResponse:
    """A new game of any registered ruleset, open for seats, with a turn limit in the
    ruleset's unit within its bounds."""
    rulesets = _rulesets()
    rules = _chosen(request, rulesets)
    limits = _limits(rules)
    posted = request.POST
    context: dict[str, Any] = {
        "posted": posted, "rulesets": rulesets, "chosen": rules,
        "limits": {**limits, "value": posted.get(limits["field"]) or limits["default"]},
        "players": posted.get("players") or min(max(4, rules.min_seats), rules.max_seats),
        "own_settings": render_panel(request, pages_for(rules.name).create_settings(rules, posted)),
    }
    if request.method == "POST":
        problem = name_problem(posted.get("name", ""), limit=GAME_NAME_MAX, what="game name")
        if problem:
            context["error"] = problem
            return render(request, "frontend/create.html", context, status=400)
        try:
            players = int(posted.get("players") or 0)
            amount = int(posted.get(limits["field"]) or limits["default"])
        except ValueError:
            context["error"] = f"Give the number of players and the {limits['unit']} per turn as whole numbers."
            return render(request, "frontend/create.html", context, status=400)
        if not limits["minimum"] <= amount <= limits["maximum"]:
            rule = f" ({limits['rule']})" if limits["rule"] else ""
            context["error"] = (f"A turn in {rules.title or rules.name} lasts {limits['minimum']} to "
                                f"{limits['maximum']} {limits['unit']}{rule}.")
            return render(request, "frontend/create.html", context, status=400)
        try:
            own = pages_for(rules.name).settings_from_post(rules, posted)
        except OrderFormError as exc:
            context["error"] = str(exc)
            return render(request, "frontend/create.html", context, status=400)
        try:
            game = services.game_create(
                name=posted.get("name", ""), ruleset=rules.name, seats=players, settings=own,
                turn_limit_seconds=amount * limits["size"], created_by=request.user,
                is_private=posted.get("is_private") == "on", rated=posted.get("rated") == "on",
            )
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
    for seat in selectors.seats_of_user(user=request.user):
        game = seat.game
        clock = selectors.game_clock_get(game_id=str(game.pk)) if game.status == Game.Status.ACTIVE else {}
        waiting = clock.get("waiting_for") or []
        names = selectors.seat_names_get(game=game)
        result = common.result(game) if game.status == Game.Status.FINISHED else None
        rows.append({
            "game": game, "seat": seat, "my_turn": seat.number in waiting,
            "whose": ", ".join(names.get(n, f"seat {n}") for n in waiting) or "—",
            "deadline": clock.get("deadline"), "paused": clock.get("paused", False),
            "result": result_text(result, names) if result is not None else "",
            "won": result is not None and seat.number in result.winners,
        })
    return render(request, "frontend/my_games.html", {"rows": rows, "join_url": reverse("home")})
