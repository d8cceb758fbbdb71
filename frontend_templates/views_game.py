"""The game page (board, status, order forms, private messages, the log), the generic
order URL, starting an open game, and the board alone. What is drawn and offered comes
from the ruleset's page plug-in, or the generic fallback (``plugins.pages_for``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from frontend_templates import common, orders
from frontend_templates.plugins import OrderFormError, render_panel
from games.base import RuleViolation
from referee import lobby, selectors
from referee.errors import RefereeError


def game_detail(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    seat = common.my_seat(request, game)
    as_mod = common.wants_moderator(request) and seat is None
    who = common.viewer(request, game, as_moderator=as_mod)
    data = common.state(game, who)
    pages = common.pages(game)
    names = common.seat_names(game)
    ctx: dict[str, Any] = {"game": game, "seat": seat, "names": names, "moderator": common.is_moderator_view(who),
                           "has_png": pages.has_board_png}
    if data is not None:
        page = common.page_for(request, game, data, seat=seat, who=who)
        base = {"game": game, "page": page, "position": page.position, "clock": page.clock,
                "moderator": page.moderator, "seat": seat, "form_key": page.form_key}
        ctx.update({
            "position": page.position, "seq": page.seq, "clock": page.clock, "result": page.result,
            "board": pages.board(page.position, title=f"The board of {game.name}", page=page),
            "in_words": pages.board_in_words(page.position, names),
            "status": render_panel(request, pages.status(page), **base),
            "orders": render_panel(request, pages.orders(page), **base),
        })
        log = selectors.game_events_list(game_id=str(game.pk), viewer=who)
        ctx["log"] = [{"seq": r["seq"], "kind": r["kind"], "type": r["type"], "audience": r["audience"],
                       "text": pages.narrate(r, names)} for r in log if r["kind"] != "command"][-40:][::-1]
        if seat is not None:
            ctx["inbox"] = [dict(line, text=pages.narrate(line, names)) for line in log
                            if line["audience"] == "seats" and line["kind"] != "command"][-8:][::-1]
    return render(request, "frontend/game.html", ctx)


@login_required
@require_POST
def order(request: HttpRequest, game_id: str) -> HttpResponse:
    """The generic order URL: a form of ``generic_forms`` (or a plug-in's form that posts
    here) becomes (command_type, payload) and goes to the referee."""
    game = common.game_or_404(request, game_id)
    try:
        command_type, payload = common.pages(game).order_from_post(common.rules(game), request.POST)
    except OrderFormError as exc:
        messages.error(request, f"Refused: {exc}")
    else:
        if orders.place(request, game, command_type, payload):
            messages.success(request, f"Order given: {command_type}.")
    return redirect(reverse("game-detail", args=[game.pk]) + "#play")


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
    """The board alone as SVG, as this viewer may see it (for rulesets that draw one)."""
    game = common.game_or_404(request, game_id)
    data = common.state(game, common.viewer(request, game))
    svg = common.pages(game).board_svg(data["position"], title=f"The board of {game.name}") if data else None
    if svg is None:
        return HttpResponse("No board yet.", status=404, content_type="text/plain")
    return HttpResponse(svg, content_type="image/svg+xml")
