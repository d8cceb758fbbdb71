"""Ratings, the moderator's and the operator's side: voiding a game (a correction with a
public reason, recorded in the game's log) and recomputing every rating from the logs."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from referee import ratings, scheduling
from referee.errors import GameNotActive, GameNotFound, InvalidSetting, SeatError
from referee.instance import referee_get
from referee.models import Game, RatedGame, Seat, save_by_key
from referee.ratings_selectors import voided_reason


def standing_from_log(rated: RatedGame) -> ratings.Standing:
    """Who finished where, read again from the game's log (its final position's
    ``Ruleset.result``) and its seats: what the stored standing must agree with."""
    referee = referee_get()
    game_id = str(rated.game_id)
    state, _ = referee.current(game_id)
    rules = referee.ruleset_for(referee.store.get_game(game_id))
    users = dict(Seat.objects.filter(game_id=game_id, user__isnull=False).values_list("number", "user_id"))
    return ratings.standing_of(rules.result(state), users)


def ratings_rebuild_from_logs() -> int:
    """``manage.py ratings --rebuild``: every counted game's standing read again from its
    log, then every rating replayed in the order of the ends."""
    standings = {rated.id: standing_from_log(rated) for rated in RatedGame.objects.order_by("id")}
    return ratings.ratings_rebuild(standings=standings)


@transaction.atomic
def game_void(*, game_id: str, moderator: AbstractBaseUser, reason: str) -> bool:
    """A moderator voids a finished game: a public ``GameVoided`` notice with the reason in
    its log, and its result no longer counts: every rating is rebuilt without it. True if
    the game had counted (its points were taken back)."""
    if not moderator.is_staff:
        raise SeatError("Only moderators may void a game.")
    if not reason.strip():
        raise InvalidSetting("Say why: voiding a game needs a reason everyone can read.")
    try:
        game = Game.objects.select_for_update(no_key=True).get(pk=game_id)
    except (Game.DoesNotExist, ValueError):
        raise GameNotFound("There is no such game.") from None
    if game.status != Game.Status.FINISHED:
        raise GameNotActive("Only a finished game can be voided; a game in play can be paused or corrected.")
    if voided_reason(game_id=str(game.pk)) is not None:
        raise GameNotActive("This game has already been voided.")
    rated = RatedGame.objects.filter(game=game).first()
    scheduling.notice_append(game_id=str(game.pk), type_="GameVoided", actor_kind="moderator", payload={
        "reason": reason.strip()[:500], "moderator": moderator.get_username(),
    })
    if rated is not None:
        rated.voided_reason = reason.strip()[:500]
        save_by_key(rated, "voided_reason")
        ratings.ratings_rebuild()
    return rated is not None
