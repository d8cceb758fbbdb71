"""The settings page's notices section: where a player's notices go, a test notice, the
delivery log and the last error of each channel. The section is rendered by the settings
page (``notices_context``); its forms post here."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from notices import selectors, services
from notices.models import NOTICES, Channel
from referee.errors import RefereeError

LABELS = {"turn": "my turn", "remind": "deadline reminder", "over": "game over",
          "correction": "a moderator's correction in my game"}


def notices_context(user: Any) -> dict[str, Any]:
    return {"notices": selectors.player_notices_get(user=user), "notice_kinds": [(n, LABELS[n]) for n in NOTICES]}


def _kept_channels(user: Any) -> list[dict[str, Any]]:
    return [{"url": c.url, "wants": c.wants, "label": c.label}
            for c in Channel.objects.filter(owner=user, scope=Channel.Scope.PLAYER, kind=Channel.Kind.APPRISE)]


@login_required
@require_POST
def notices_post(request: HttpRequest) -> HttpResponse:
    action, user = request.POST.get("action", ""), request.user
    wants = [n for n in NOTICES if request.POST.get(f"want-{n}") == "on"]
    try:
        if action == "email":
            services.player_notices_set(user=user, email=wants, channels=_kept_channels(user))
            messages.success(request, "E-mail notices saved.")
        elif action == "add-chat":
            current = selectors.player_notices_get(user=user)["email"]
            services.player_notices_set(user=user, email=current, channels=[*_kept_channels(user), {
                "url": request.POST.get("url", ""), "wants": wants, "label": request.POST.get("label", "")}])
            messages.success(request, "Channel added. Send it a test notice to see that it works.")
        elif action == "add-webhook":
            _, secret = services.webhook_create(user=user, url=request.POST.get("url", ""), wants=wants,
                                                label=request.POST.get("label", ""))
            messages.success(request, f"Webhook added. Its signing secret, shown this once: {secret}")
        elif action == "test":
            services.test_notice_send(user=user, channel_id=request.POST.get("channel", ""))
            messages.success(request, "Test notice queued: its delivery shows below.")
        elif action == "enable":
            services.channel_enable(user=user, channel_id=request.POST.get("channel", ""))
            messages.success(request, "Channel on again.")
        elif action == "remove":
            services.channel_delete(user=user, channel_id=request.POST.get("channel", ""))
            messages.success(request, "Channel removed.")
        else:
            messages.error(request, "Unknown action.")
    except RefereeError as exc:
        messages.error(request, exc.message)
    return redirect("settings")
