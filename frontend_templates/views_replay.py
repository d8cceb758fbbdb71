"""The replay viewer (a slider and step buttons over the log) and the moderator's audit
page (verification report, corrections with a reason)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from frontend_templates import common
from games.base import RuleViolation
from referee import replay as replay_service
from referee import selectors, services
from referee.errors import RefereeError


def replay(request: HttpRequest, game_id: str) -> HttpResponse:
    game = common.game_or_404(request, game_id)
    as_mod = bool(request.user.is_authenticated and request.user.is_staff and common.my_seat(request, game) is None)
    who = common.viewer(request, game, as_moderator=as_mod)
    feed = selectors.game_events_list(game_id=str(game.pk), viewer=who) if game.status != "open" else []
    steps = [item for item in feed if item["kind"] != "event"]  # one step per order, refusal or notice
    names = common.seat_names(game)
    pages = common.pages(game)
    ctx: dict[str, Any] = {"game": game, "steps": steps, "moderator": common.is_moderator_view(who)}
    if steps:
        try:
            wanted = int(request.GET.get("step", len(steps)))
        except ValueError:
            wanted = len(steps)
        index = min(max(wanted, 1), len(steps))
        step = replay_service.replay_step(services.referee_get(), str(game.pk), who, steps[index - 1]["seq"])
        ctx.update({"index": index, "count": len(steps), "prev": max(index - 1, 1), "next": min(index + 1, len(steps))})
        if step is not None:
            order = step["order"]
            clauses = list(step["clauses"])
            refused = order.get("payload") or {}
            if order["kind"] == "rejection" and refused.get("rule") and refused["rule"] not in clauses:
                clauses.append(refused["rule"])
            ctx["step"] = {
                "seq": step["seq"], "type": order["type"], "kind": order["kind"], "actor": order["actor"],
                "actor_name": names.get(order["actor"].get("seat"), order["actor"].get("kind", "")),
                "payload": json.dumps(order.get("payload"), indent=1, sort_keys=True),
                "events": [dict(e, text=pages.narrate(e, names)) for e in step["events"]],
                "clauses": [{"text": c, "url": pages.clause_url(c)} for c in clauses],
                "refusal": refused.get("message") if order["kind"] == "rejection" else "",
                "draws": step.get("draws"),
                "diff": step["diff"][:60],
                "redacted": order.get("redacted", False),
            }
            if isinstance(step["position_after"], dict):
                ctx["board"] = pages.board(step["position_after"], title=f"The board after step {index}")
    return render(request, "frontend/replay.html", ctx)


@staff_member_required
def audit(request: HttpRequest, game_id: str) -> HttpResponse:
    """GET shows the page and never writes; every action (verify included, which may
    freeze the game) is a POST."""
    game = common.game_or_404(request, game_id)
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
            payload = json.loads(request.POST.get("payload") or "{}")
            services.moderator_ruling(game_id=str(game.pk), moderator=request.user, reason=reason,
                                      command_type=request.POST.get("command_type", "").strip(), payload=payload)
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
                messages.success(request, f"The deadline is now {until.isoformat()}.")
        except ValueError:
            messages.error(request, "Give the extension in whole hours.")
        except RefereeError as exc:
            messages.error(request, exc.message)
        else:
            if action != "extend":
                messages.success(request, f"Game {'paused' if action == 'pause' else 'resumed'}.")
        return redirect("game-audit", game_id=game.pk)
    elif request.method == "POST" and request.POST.get("action") == "unfreeze":
        try:
            services.game_unfreeze(game_id=str(game.pk), moderator=request.user, reason=request.POST.get("reason", ""))
            messages.success(request, "The game is unfrozen.")
        except RefereeError as exc:
            messages.error(request, exc.message)
        return redirect("game-audit", game_id=game.pk)
    game.refresh_from_db()
    return render(request, "frontend/audit.html", {"game": game, "report": report})
