"""Placing an order from a page: every order goes through ``services.command_handle``; a
refusal becomes a message that names the rule, and what the order brought into the
player's feed is flashed in plain words. Plug-ins' own order views use this too."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest

from frontend_templates import common
from games.base import RuleViolation
from referee import selectors, services
from referee.errors import RefereeError
from referee.models import Game


def place(request: HttpRequest, game: Game, command_type: str, payload: dict[str, Any]) -> bool:
    """Place the order; False (with the reason shown) if it was refused."""
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
        pages = common.pages(game)
        names = common.seat_names(game)
        for line in selectors.game_events_list(game_id=str(game.pk), viewer=who, after=before):
            if pages.announce(line):
                messages.info(request, pages.narrate(line, names))
    return True
