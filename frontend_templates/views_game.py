"""The game page and playing a turn: pick a worm, walk it step by step, fire, end the
turn. Every order goes through ``services.command_handle``; a refusal is shown with the
rule it breaks."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from frontend_templates import common
from frontend_templates import worms_ui as ui
from frontend_templates.board_scene import Highlights
from frontend_templates.board_svg import board_svg
from frontend_templates.narrate import narrate
from games.base import RuleViolation
from referee import lobby, selectors, services
from referee.errors import RefereeError
from referee.models import Game


def _play_context(position: dict[str, Any], seat: int | None, worm_id: str, weapon: str) -> dict[str, Any]:
    """The controls for the seat to act (empty if it is not this viewer's turn)."""
    my_turn = (
        seat is not None and position.get("phase") == "playing" and position.get("seat") == seat
        and position.get("stage") == "acting"
    )
    ctx: dict[str, Any] = {"my_turn": my_turn, "inventory": ui.inventory_of(position, seat)}
    if not my_turn or seat is None:
        return ctx
    worms = ui.worms_that_may_act(position, seat)
    ids = [w["id"] for w in worms]
    if worm_id not in ids:
        worm_id = ids[0] if ids else ""
    ctx.update({"worms": worms, "worm": worm_id, "weapon": weapon})
    if worm_id:
        ctx["reach"] = ui.reach(position, worm_id)
        ctx["steps"] = ui.next_steps(position, worm_id)
        ctx["moves_left"] = ui.moves_left(position, worm_id)
        if weapon:
            ctx["aim"] = ui.aim_window(position, worm_id, weapon)
    return ctx


def game_detail(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    as_mod = common.wants_moderator(request) and common.my_seat(request, game) is None
    who = common.viewer(request, game, as_moderator=as_mod)
    seat = common.my_seat(request, game)
    data = common.state(game, who)
    names = common.seat_names(game)
    ctx: dict[str, Any] = {"game": game, "seat": seat, "names": names, "moderator": common.is_moderator_view(who),
                           "form_key": uuid.uuid4().hex}
    if data is not None and game.ruleset == "worms":
        position = data["position"]
        play = _play_context(position, seat.number if seat else None, request.GET.get("worm", ""),
                             request.GET.get("weapon", ""))
        aim = play.get("aim")
        highlights = Highlights(selected=play.get("worm", ""), reach=play.get("reach", {}),
                                targets=aim.targets if aim else {})
        ctx.update(play)
        ctx.update({
            "position": position, "seq": data["seq"], "clock": data["clock"],
            "board": mark_safe(board_svg(position, highlights, title=f"The board of {game.name}")),  # board_svg escapes every text it draws
            "sudden_death_in": ui.rounds_before_sudden_death(position),
            "in_words": ui.board_in_words(position),
            "winner": names.get(position.get("winner")) if position.get("winner") is not None else None,
            "to_act": names.get(position.get("seat"), "—") if position.get("phase") == "playing" else "—",
            "teams": [
                {**t, "colour": ui.team_colour(t["letter"]),
                 "known_inventory": ui.describe_items(t["inventory"]) if t.get("inventory") is not None else None,
                 "worms": [w for w in position["worms"] if w["seat"] == t["seat"]]}
                for t in position.get("teams", [])
            ],
        })
    elif data is not None:
        ctx.update({"position": data["position"], "seq": data["seq"], "clock": data["clock"]})
    if data is not None:
        log = selectors.game_events_list(game_id=str(game.pk), viewer=who)
        ctx["log"] = [{"seq": r["seq"], "kind": r["kind"], "type": r["type"], "audience": r["audience"],
                       "text": narrate(r, names)} for r in log if r["kind"] != "command"][-40:][::-1]
        if seat is not None:
            ctx["inbox"] = [dict(line, text=narrate(line, names)) for line in log
                            if line["audience"] == "seats" and line["kind"] != "command"][-8:][::-1]
    return render(request, "frontend/game.html", ctx)


def _back(game: Game, worm: str = "", weapon: str = "") -> HttpResponse:
    url = reverse("game-detail", args=[game.pk])
    query = "&".join(f"{k}={v}" for k, v in (("worm", worm), ("weapon", weapon)) if v)
    return redirect(f"{url}?{query}#play" if query else f"{url}#play")


def _order(request: HttpRequest, game: Game, command_type: str, payload: dict[str, Any]) -> bool:
    """Place the order; a refusal becomes a message that names the rule."""
    seat = common.my_seat(request, game)
    who = common.viewer(request, game)
    # the viewer's own numbering of the log, the one the feed below uses
    before = selectors.game_state_get(game_id=str(game.pk), viewer=who)["seq"] if seat is not None else 0
    try:
        services.command_handle(game_id=str(game.pk), user=request.user, command_type=command_type,
                                payload=payload, idempotency_key=request.POST.get("key") or None)
    except RuleViolation as exc:
        messages.error(request, f"Refused: {exc.message} (rule {exc.rule})")
        return False
    except RefereeError as exc:
        messages.error(request, f"Refused: {exc.message}")
        return False
    if seat is not None:
        names = common.seat_names(game)
        for line in selectors.game_events_list(game_id=str(game.pk), viewer=who, after=before):
            if line["type"] in ("ItemsGained", "CrateCollected", "WormDamaged", "WormDied", "MineExploded",
                                "TurnEnded", "ItemsLost", "WeaponFired"):
                messages.info(request, narrate(line, names))
    return True


@login_required
@require_POST
def move(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    worm = request.POST.get("worm", "")
    square = request.POST.get("square", "").strip().lower()
    if _order(request, game, "MoveWorm", {"worm": worm, "path": [square]}):
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
    if _order(request, game, "Fire", payload):
        messages.success(request, f"{worm} fired the {weapon.replace('_', ' ')}.")
    return _back(game, worm, weapon)


@login_required
@require_POST
def end_turn(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    if _order(request, game, "EndTurn", {}):
        messages.success(request, "Your turn is over.")
    return _back(game)


@login_required
@require_POST
def surrender(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    if request.POST.get("confirm") != "yes":
        messages.error(request, "Tick the box to confirm: surrendering removes all your worms (§7).")
    elif _order(request, game, "Surrender", {}):
        messages.success(request, "You surrendered; your worms have left the board.")
    return redirect("game-detail", game_id=game.pk)


@login_required
@require_POST
def begin(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    try:
        lobby.game_begin(game_id=str(game.pk), user=request.user)
    except (RefereeError, RuleViolation) as exc:
        messages.error(request, getattr(exc, "message", str(exc)))
    return redirect("game-detail", game_id=game.pk)


def board(request: HttpRequest, game_id: str) -> HttpResponse:
    """The board alone as SVG, as this viewer may see it."""
    game = common.game_or_404(request, game_id)
    data = common.state(game, common.viewer(request, game))
    if data is None or game.ruleset != "worms":
        return HttpResponse("No board yet.", status=404, content_type="text/plain")
    svg = board_svg(data["position"], title=f"The board of {game.name}")
    return HttpResponse(svg, content_type="image/svg+xml")
