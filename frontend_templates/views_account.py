"""Account and notification settings: reminders per game, vacations."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.dateparse import parse_datetime

from frontend_templates.views_notices import notices_context
from referee import selectors, services
from referee.errors import RefereeError


def _when(text: str) -> dt.datetime | None:
    value = parse_datetime(text.strip()) if text else None
    if value is not None and value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    return value


@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
    seats = selectors.seats_of_user(user=request.user)
    if request.method == "POST":
        game_id = request.POST.get("game", "")
        try:
            if request.POST.get("action") == "reminders":
                on = request.POST.get("reminders") == "on"
                services.reminders_set(game_id=game_id, user=request.user, enabled=on)
                messages.success(request, "Reminders " + ("on." if on else "off."))
            elif request.POST.get("action") == "vacation":
                starts, ends = _when(request.POST.get("starts_at", "")), _when(request.POST.get("ends_at", ""))
                if starts is None or ends is None:
                    messages.error(request, "Give the start and end of the vacation as dates and times.")
                else:
                    services.vacation_declare(game_id=game_id, user=request.user, starts_at=starts, ends_at=ends,
                                              reason=request.POST.get("reason", ""))
                    messages.success(request, "Vacation declared.")
        except RefereeError as exc:
            messages.error(request, exc.message)
        return redirect("settings")
    return render(request, "frontend/settings.html", {"seats": seats, **notices_context(request.user)})
