"""The game page (board, status, order forms, private messages, the log), the generic
order URL, starting an open game, and the board alone. What is drawn and offered comes
from the ruleset's page plug-in, or the generic fallback (``plugins.pages_for``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.views.decorators.http import require_POST

from frontend_templates import common, orders
from frontend_templates.generic_board import words
from frontend_templates.plugins import OrderFormError, render_panel
from games.base import RuleViolation
from referee import lobby, ratings_selectors, selectors
from referee.errors import RefereeError


def _stream_urls(game_id: str) -> dict[str, str]:
    """The viewer's live feed: the server-sent-event stream if the API has one, and the
    long-poll of the events list (the fallback)."""
    urls = {}
    for key, name in (("stream", "game-stream"), ("events", "game-events")):
        try:
            urls[key] = reverse(name, args=[game_id])
        except NoReverseMatch:
            urls[key] = ""
    return urls


def _log_lines(log: list[dict[str, Any]], pages: Any, names: dict[int, str],
               public: dict[int, int]) -> list[dict[str, Any]]:
    return [{"seq": r["seq"], "public": public.get(r["seq"]), "kind": r["kind"], "type": r["type"],
             "audience": r["audience"], "text": pages.narrate(r, names)} for r in log]


def game_detail(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    # the seats once for the page: the names, the ratings beside them and the count all read them
    prefetch_related_objects([game], "seats")
    seat = common.my_seat(request, game)
    as_mod = common.wants_moderator(request) and seat is None
    who = common.viewer(request, game, as_moderator=as_mod)
    data = common.state(game, who)
    pages = common.pages(game)
    names = common.seat_names(game)
    rules = common.rules(game)
    seats_taken = len(game.seats.all())
    ctx: dict[str, Any] = {"game": game, "seat": seat, "names": names, "moderator": common.is_moderator_view(who),
                           "has_png": pages.has_board_png, "live": _stream_urls(str(game.pk)),
                           "min_seats": rules.min_seats, "seats_taken": seats_taken,
                           "can_start": seats_taken >= rules.min_seats,
                           "ratings": ratings_selectors.ratings_beside(games=[game])}
    if data is not None:
        log = common.with_causes(selectors.game_events_list(game_id=str(game.pk), viewer=who))
        public = selectors.public_numbers_get(game_id=str(game.pk), viewer=who)
        recent = _since_last_player_order(log)
        before = (selectors.game_state_get(game_id=str(game.pk), viewer=who, seq=recent[0]["seq"] - 1)["position"]
                  if recent and recent[0]["seq"] > 1 else None)
        page = common.page_for(request, game, data, seat=seat, who=who, recent=recent, before=before)
        pause = next((r for r in reversed(log) if r["type"] in ("GamePaused", "GameResumed")), None)
        pause_reason = (pause["payload"].get("reason", "") if pause and pause["type"] == "GamePaused"
                        and page.clock.get("paused") else "")
        base = {"game": game, "page": page, "position": page.position, "clock": page.clock,
                "moderator": page.moderator, "seat": seat, "form_key": page.form_key, "pause_reason": pause_reason}
        ctx.update({
            "position": page.position, "seq": page.seq, "public_seq": last_public_number(public, page.seq),
            "clock": page.clock, "result_block": render_panel(request, pages.result(page), **base),
            "result": page.result, "my_turn": seat is not None and seat.number in page.waiting_for,
            "board": pages.board(page.position, title=f"The board of {game.name}", page=page),
            "in_words": pages.board_in_words(page.position, names),
            "status": render_panel(request, pages.status(page), **base),
            "orders": render_panel(request, pages.orders(page), **base),
        })
        lines = _log_lines([r for r in log if r["kind"] != "command"], pages, names, public)
        # a refused order is the player's own business: shown when it happens, folded away after
        ctx["log"] = [line for line in lines if line["kind"] != "rejection"][-40:][::-1]
        ctx["refusals"] = [line for line in lines if line["kind"] == "rejection"][-10:][::-1]
        if seat is not None and not page.result.finished:
            # once the game is over its log is public: another seat's private records are in
            # the viewer's feed then, and are no messages to them (the log marks them)
            ctx["inbox"] = [line for line in lines if line["audience"] == "seats"
                            and line["kind"] != "rejection"][-8:][::-1]
    template = "frontend/game_live.html" if request.GET.get("fragment") == "live" else "frontend/game.html"
    return render(request, template, ctx)


def last_public_number(public: dict[int, int], seq: int | None) -> int | None:
    """The public step number players quote for the position after the viewer's record
    ``seq``: that record's own, or the last public one before it (a private record has none)."""
    if not seq:
        return None
    known = [n for viewer_seq, n in public.items() if viewer_seq <= seq and n]
    return max(known) if known else None


def _since_last_player_order(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The viewer's records from the last order a player gave to the end (the board marks
    what it did); nothing if no player has given one yet."""
    for i in range(len(log) - 1, -1, -1):
        if log[i]["kind"] == "command" and (log[i].get("actor") or {}).get("kind") == "player":
            return log[i:]
    return []


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
            messages.success(request, f"Order given: {words(command_type).capitalize()}.")
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


def favicon(request: HttpRequest) -> HttpResponse:
    """A small icon, so no page asks for one in vain (an SVG: browsers take it as the icon)."""
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" '
           'fill="#1f5fbf"/><text x="8" y="12.5" font-size="12" text-anchor="middle" fill="#fff" '
           'font-family="sans-serif" font-weight="bold">R</text></svg>')
    response = HttpResponse(svg, content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response


def board(request: HttpRequest, game_id: str) -> HttpResponse:
    """The board alone as SVG, as this viewer may see it (for rulesets that draw one)."""
    game = common.game_or_404(request, game_id)
    data = common.state(game, common.viewer(request, game))
    svg = common.pages(game).board_svg(data["position"], title=f"The board of {game.name}") if data else None
    if svg is None:
        return HttpResponse("No board yet.", status=404, content_type="text/plain")
    return HttpResponse(svg, content_type="image/svg+xml")
