from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.request import Request

from games.base import MODERATOR_VIEW, Viewer
from referee import lobby_selectors, selectors
from referee.errors import InvalidSetting
from referee.models import Game


class ProblemSerializer(serializers.Serializer):
    """RFC 9457 problem details: every error of this API has this shape."""

    type = serializers.CharField()
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField()
    rule = serializers.CharField(required=False, help_text="The rulebook section, for refused orders.")


def game_for(request: Request, game_id: str) -> Game:
    return lobby_selectors.game_get_for(game_id=game_id, user=request.user)


def viewer(request: Request, game: Game) -> Viewer:
    as_moderator = request.query_params.get("as") == "moderator"
    if as_moderator and request.user.is_authenticated and request.user.is_staff:
        return MODERATOR_VIEW
    return selectors.viewer_for(game_id=str(game.pk), user=request.user)


def int_param(request: Request, name: str, default: int | None = None, *, low: int = 0, high: int = 10**9) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise InvalidSetting(f"'{name}' must be a whole number.") from None
    if not low <= value <= high:
        raise InvalidSetting(f"'{name}' must be between {low} and {high}.")
    return value


def game_summary(game: Game) -> dict[str, Any]:
    return {
        "id": str(game.pk), "name": game.name, "ruleset": game.ruleset, "ruleset_version": game.ruleset_version,
        "status": game.status, "is_private": game.is_private, "rated": game.rated, "max_seats": game.max_seats,
        "seats": [{"number": s.number, "name": s.name} for s in game.seats.all()],
        "turn_limit_seconds": game.turn_limit_seconds, "turn_limit_hours": game.turn_limit_seconds / 3600,
        "turn_limit": game.turn_limit_text, "deadline_policy": game.deadline_policy,
        "seed_hash": game.seed_hash, "frozen": bool(game.frozen_reason),
        "created_at": game.created_at.isoformat(),
    }
