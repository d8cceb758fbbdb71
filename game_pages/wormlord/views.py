"""A click on the board (tie a knot there, put the headquarters there), lifting the
headquarters, a word to the team, and the live fragment. Every order goes through
``frontend_templates.orders.place`` (the referee's services), so a refusal is told with the
rule it breaks. Asked with ``Accept: application/json`` (the board's script, where the
page has no live swap of its own) it answers the messages as JSON instead of a redirect."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from frontend_templates import common, orders
from game_pages.wormlord import live
from game_pages.wormlord.live import now_ms
from referee import selectors

RECENT = 12  # narrated records shown under the board


def order_for(post: Any) -> tuple[str, dict[str, Any]] | str:
    """(command_type, payload) for a posted action, or a sentence saying what is missing."""
    action = post.get("do", "knot")
    square = post.get("square", "").strip().lower()
    if action == "lift":
        return "LiftHeadquarters", {}
    if action == "say":
        text = post.get("text", "").strip()
        return ("Say", {"text": text}) if text else "Write something to say to your team."
    if not square:
        return "Pick a space: click it on the board, or type its name (like d2)."
    if action == "hq":
        return "PlaceHeadquarters", {"square": square}
    if action != "knot":
        return f"There is no action {action!r}."
    owner = post.get("owner", "").strip().lower()
    return ("Liberate", {"square": square, "owner": owner}) if owner else ("Conquer", {"square": square})


def _wants_json(request: HttpRequest) -> bool:
    # The generic live page also posts with fetch, but wants the page back (it swaps it in).
    return "application/json" in request.headers.get("Accept", "")


@login_required
@require_POST
def act(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    wanted = order_for(request.POST)
    if isinstance(wanted, str):
        messages.error(request, f"Refused: {wanted}")
        ok = False
    else:
        ok = orders.place(request, game, *wanted)
    if _wants_json(request):
        said = [{"level": m.level_tag, "text": str(m)} for m in messages.get_messages(request)]
        return JsonResponse({"ok": ok, "messages": said}, status=200 if ok else 409)
    return redirect(reverse("game-detail", args=[game.pk]) + "#play")


@require_GET
def live_fragment(request: HttpRequest, game_id: str) -> HttpResponse:
    """The board, clocks, sides and latest events for this viewer (what the page swaps in)."""
    game = common.game_or_404(request, game_id)
    seat = common.my_seat(request, game)
    who = common.viewer(request, game)
    data = common.state(game, who)
    if data is None or not data["position"].get("squares"):
        return HttpResponse("No board yet.", status=404, content_type="text/plain")
    pages = common.pages(game)
    names = common.seat_names(game)
    # only the tail of the feed: a round at full speed writes hundreds of records
    log = selectors.game_events_list(game_id=str(game.pk), viewer=who, after=max(0, data["seq"] - 3 * RECENT))
    recent = [pages.narrate(r, names) for r in log if r["kind"] == "event"][-RECENT:][::-1]
    finished = common.result(game).finished
    html = live.fragment(
        data["position"], title=f"The board of {game.name}", names=names, seat=seat.number if seat else None,
        seq=data["seq"], now_ms=now_ms(), recent=recent, playing=seat is not None and not finished,
    )
    response = HttpResponse(html, content_type="text/html; charset=utf-8")
    response["Cache-Control"] = "no-store"
    return response
