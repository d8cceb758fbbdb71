"""Shared by the page modules: finding a game the way the lobby's visibility allows,
the viewer, the position through the selectors, and the game page's ``Page``."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django.http import Http404, HttpRequest

from frontend_templates.plugins import Page, RulesetPages, pages_for
from games.base import PUBLIC, Result, Ruleset, Viewer, ViewerKind
from referee import lobby_selectors, selectors
from referee.errors import GameNotFound
from referee.models import Game, Seat


def game_or_404(request: HttpRequest, game_id: str) -> Game:
    try:
        return lobby_selectors.game_get_for(game_id=game_id, user=request.user)
    except GameNotFound:
        raise Http404("There is no such game, or it is not yours to see.") from None


def wants_moderator(request: HttpRequest) -> bool:
    """Moderators see hidden information only when they ask for it (``?as=moderator``)."""
    return bool(request.user.is_authenticated and request.user.is_staff and request.GET.get("as") == "moderator")


def viewer(request: HttpRequest, game: Game, *, as_moderator: bool = False) -> Viewer:
    return selectors.viewer_for(game_id=str(game.pk), user=request.user, as_moderator=as_moderator)


def my_seat(request: HttpRequest, game: Game) -> Seat | None:
    return selectors.seat_get(game_id=str(game.pk), user=request.user)


def state(game: Game, who: Viewer) -> dict[str, Any] | None:
    if game.status == Game.Status.OPEN:
        return None
    return selectors.game_state_get(game_id=str(game.pk), viewer=who)


def public_state(game: Game) -> dict[str, Any] | None:
    return state(game, PUBLIC)


def is_moderator_view(who: Viewer) -> bool:
    return who.kind is ViewerKind.MODERATOR


def seat_names(game: Game) -> dict[int, str]:
    return selectors.seat_names_get(game=game)


def rules(game: Game) -> Ruleset:
    return selectors.ruleset_get(game_id=str(game.pk))


def result(game: Game) -> Result:
    """``Ruleset.result`` of the current position (public by the contract); an open game
    has none yet."""
    data = selectors.game_result_get(game_id=str(game.pk))
    if data is None:
        return Result(finished=False)
    return Result(
        finished=data["finished"], winners=tuple(data["winners"]),
        ranking=tuple(tuple(place) for place in data["ranking"]),
        scores=tuple((int(seat), score) for seat, score in data["scores"].items()),
        draw=data["draw"], summary=data["summary"],
    )


def pages(game: Game) -> RulesetPages:
    return pages_for(game.ruleset)


def page_for(request: HttpRequest, game: Game, data: dict[str, Any], *, seat: Seat | None, who: Viewer,
             recent: Sequence[Mapping[str, Any]] = (), before: dict[str, Any] | None = None) -> Page:
    return Page(
        game=game, rules=rules(game), position=data["position"], seq=data["seq"],
        clock=data["clock"], seat=seat.number if seat else None, names=seat_names(game),
        moderator=is_moderator_view(who), result=result(game),
        query={k: v for k, v in request.GET.items() if k != "fragment"}, form_key=uuid.uuid4().hex,
        recent=tuple(recent), before=before,
    )


def with_causes(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The viewer's feed with ``by_moderator`` on each record a moderator's order caused
    (read from the record's cause in the same feed), so a correction is told as one."""
    moderators = {r["seq"] for r in log if (r.get("actor") or {}).get("kind") == "moderator"}
    return [dict(r, by_moderator=True) if r.get("cause_seq") in moderators else r for r in log]
