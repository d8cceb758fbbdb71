"""The replay viewer (a slider and step buttons over the log) and the moderator's audit
page (verification report, corrections with a reason)."""

from __future__ import annotations

import json
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from frontend_templates import common, details
from frontend_templates.generic_board import words
from frontend_templates.generic_text import readable_time
from frontend_templates.plugins import OrderFormError, render_panel
from games.base import MODERATOR_VIEW, RuleViolation
from referee import ratings_admin, ratings_selectors, selectors, services
from referee.errors import RefereeError


def _actor(order: dict[str, Any], names: dict[int, str]) -> str:
    actor = order.get("actor") or {}
    if actor.get("seat") is not None:
        return names.get(actor["seat"], f"seat {actor['seat']}")
    return {"scheduler": "the referee's clock", "referee": "the referee", "moderator": "a moderator"}.get(
        str(actor.get("kind", "")), "the referee")


def replay(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    as_mod = bool(request.user.is_authenticated and request.user.is_staff and common.my_seat(request, game) is None)
    who = common.viewer(request, game, as_moderator=as_mod)
    feed = selectors.game_events_list(game_id=str(game.pk), viewer=who) if game.status != "open" else []
    steps = [item for item in feed if item["kind"] != "event"]  # one step per order, refusal or notice
    names = common.seat_names(game)
    pages = common.pages(game)
    moderator = common.is_moderator_view(who)
    ctx: dict[str, Any] = {"game": game, "steps": steps, "moderator": moderator}
    if steps:
        try:
            wanted = int(request.GET.get("step", len(steps)))
        except ValueError:
            wanted = len(steps)
        index = min(max(wanted, 1), len(steps))
        step = selectors.game_replay_step(game_id=str(game.pk), viewer=who, seq=steps[index - 1]["seq"])
        ctx.update({"index": index, "count": len(steps), "prev": max(index - 1, 1), "next": min(index + 1, len(steps))})
        if step is None and steps[index - 1]["kind"] == "notice":
            notice = steps[index - 1]
            public = selectors.public_numbers_get(game_id=str(game.pk), viewer=who)
            ctx["step"] = {"seq": notice["seq"], "public": public.get(notice["seq"]),
                           "title": pages.narrate(notice, names), "actor_name": _actor(notice, names),
                           "events": [], "clauses": [], "draws": None, "refusal": "", "fields": [], "diff": [],
                           "redacted": False, "notice": True}
        elif step is not None:
            order = step["order"]
            clauses = list(step["clauses"])
            refused = order.get("payload") or {}
            rejected = order["kind"] == "rejection"
            if rejected and refused.get("rule") and refused["rule"] not in clauses:
                clauses.append(refused["rule"])
            public = selectors.public_numbers_get(game_id=str(game.pk), viewer=who)
            caused = common.with_causes([order, *step["events"]])[1:]
            events = [dict(e, text=pages.narrate(e, names), public=public.get(e["seq"])) for e in caused]
            told = pages.step_title([order, *step["events"]], names)
            title = (f"Refused: {refused.get('message', '')}" if rejected else
                     f"{words(order['type']).capitalize()}: {told}" if told and not order.get("redacted") else
                     told or (f"{_actor(order, names)} gave an order" if order.get("redacted")
                              else words(order["type"]).capitalize()))
            ctx["step"] = {
                "seq": step["seq"], "public": public.get(step["seq"]), "title": title, "kind": order["kind"],
                "actor_name": _actor(order, names),
                "events": events,
                "clauses": [{"text": c, "url": pages.clause_url(c)} for c in clauses],
                "refusal": refused.get("message") if rejected else "",
                "draws": step.get("draws"),
                "redacted": order.get("redacted", False),
                # the raw record is the moderators' (the players get the story above)
                "fields": details.fields(order.get("payload") or {}) if moderator and not order.get("redacted") else [],
                "diff": details.changes(step["diff"]) if moderator else [],
                "at": order.get("at", ""),
                "raw": json.dumps(order.get("payload"), indent=1, sort_keys=True, ensure_ascii=False) if moderator else "",
            }
            if isinstance(step["position_after"], dict):
                before = (selectors.game_state_get(game_id=str(game.pk), viewer=who, seq=step["seq"] - 1)["position"]
                          if step["seq"] > 1 else None)
                ctx["board"] = pages.replay_board(step["position_after"], [order, *step["events"]],
                                                  title=f"The board after step {index}", before=before)
    return render(request, "frontend/replay.html", ctx)


def moderators_only(view: Any) -> Any:
    """Moderators' pages: a signed-out visitor is sent to sign in; a signed-in player gets
    a plain page of ours saying it is for moderators (not the admin's login)."""
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not request.user.is_staff:
            return render(request, "frontend/forbidden.html", {
                "what": "The audit page is for moderators.",
                "back": reverse("game-detail", args=[kwargs.get("game_id", "")]) if kwargs.get("game_id") else "/",
            }, status=403)
        return view(request, *args, **kwargs)
    return wrapped


@moderators_only
def audit(request: HttpRequest, game_id: str) -> HttpResponse:
    """GET shows the page and never writes; every action (verify included, which may
    freeze the game) is a POST."""
    game = common.game_or_404(request, game_id)
    pages = common.pages(game)
    report = None
    if request.method == "POST" and request.POST.get("action") == "verify":
        report = services.game_verify(game_id=str(game.pk), freeze=True)
        if report.ok:
            messages.success(request, f"The log verifies: {report.records} records, {report.commands} orders re-decided.")
        else:
            messages.error(request, f"Verification found {len(report.problems)} problem(s); the game is frozen.")
    elif request.method == "POST" and request.POST.get("action") == "correct":
        reason = request.POST.get("reason", "")
        try:
            if request.POST.get("kind"):  # the plug-in's correction form
                command_type, payload = pages.correction_from_post(_moderator_position(game) or {}, request.POST)
            else:
                command_type = request.POST.get("command_type", "").strip()
                payload = json.loads(request.POST.get("payload") or "{}")
            services.moderator_ruling(game_id=str(game.pk), moderator=request.user, reason=reason,
                                      command_type=command_type, payload=payload)
        except OrderFormError as exc:
            messages.error(request, f"Not filed: {exc}")
        except json.JSONDecodeError as exc:
            messages.error(request, f"The payload is not JSON: {exc}.")
        except RuleViolation as exc:
            messages.error(request, f"Refused: {exc.message} (rule {exc.rule})")
        except RefereeError as exc:
            messages.error(request, f"Refused: {exc.message}")
        else:
            messages.success(request, "Correction filed; the reason is public in the log.")
            return redirect("game-audit", game_id=game.pk)
    elif request.method == "POST" and request.POST.get("action") in ("pause", "resume", "extend"):
        action, reason = request.POST["action"], request.POST.get("reason", "")
        try:
            if action == "pause":
                services.game_pause(game_id=str(game.pk), moderator=request.user, reason=reason)
            elif action == "resume":
                services.game_resume(game_id=str(game.pk), moderator=request.user, reason=reason)
            else:
                hours = int(request.POST.get("hours") or 0)
                until = services.deadline_extend(game_id=str(game.pk), moderator=request.user, hours=hours,
                                                 reason=reason)
                messages.success(request, f"The deadline is now {readable_time(until.isoformat())}.")
        except ValueError:
            messages.error(request, "Give the extension in whole hours.")
        except RefereeError as exc:
            messages.error(request, exc.message)
        else:
            if action != "extend":
                messages.success(request, f"Game {'paused' if action == 'pause' else 'resumed'}.")
        return redirect("game-audit", game_id=game.pk)
    elif request.method == "POST" and request.POST.get("action") == "void":
        try:
            rated = ratings_admin.game_void(game_id=str(game.pk), moderator=request.user,
                                            reason=request.POST.get("reason", ""))
        except RefereeError as exc:
            messages.error(request, f"Not voided: {exc.message}")
        else:
            messages.success(request, "The game is void; the reason is public in its log."
                             + (" Its rating changes were taken back." if rated else ""))
        return redirect("game-audit", game_id=game.pk)
    elif request.method == "POST" and request.POST.get("action") == "unfreeze":
        try:
            services.game_unfreeze(game_id=str(game.pk), moderator=request.user, reason=request.POST.get("reason", ""))
            messages.success(request, "The game is unfrozen.")
        except RefereeError as exc:
            messages.error(request, exc.message)
        return redirect("game-audit", game_id=game.pk)
    game.refresh_from_db()
    position = _moderator_position(game)
    correction = None
    if position is not None and game.status == "active":
        correction = render_panel(request, pages.correction(position, common.seat_names(game), request.POST), game=game)
    return render(request, "frontend/audit.html", {"game": game, "report": report, "correction": correction,
                                                   "deadline": selectors.game_clock_get(game_id=str(game.pk)).get("deadline"),
                                                   "voided": ratings_selectors.voided_reason(game_id=str(game.pk))})


def _moderator_position(game: Any) -> dict[str, Any] | None:
    data = common.state(game, MODERATOR_VIEW)
    return data["position"] if data else None
