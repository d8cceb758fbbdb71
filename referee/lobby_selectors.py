"""Lobby reads: which games a user may see, leagues, invitations, and the order a league's
queue is seated in (section 4). Writes are in ``referee.lobby``."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet

from referee import ratings_selectors
from referee.errors import GameNotFound, SeatError
from referee.instance import referee_get
from referee.models import Game, Invitation, League, LeagueEntry


def games_visible_to(user: AbstractBaseUser | None) -> QuerySet[Game]:
    """Public games, and private ones the user plays in, created or is invited to;
    moderators see all."""
    games = Game.objects.all()
    if user is not None and user.is_authenticated and user.is_staff:
        return games
    if user is None or not user.is_authenticated:
        return games.filter(is_private=False)
    return games.filter(
        Q(is_private=False) | Q(seats__user=user) | Q(created_by=user) | Q(invitations__user=user)
    ).distinct()


def games_list(
    *, user: AbstractBaseUser | None, status: str | None = None, ruleset: str | None = None, mine: bool = False
) -> QuerySet[Game]:
    """The lobby's list: the games ``user`` may see, filtered, seats prefetched."""
    games = games_visible_to(user).prefetch_related("seats")
    if status in Game.Status.values:
        games = games.filter(status=status)
    if ruleset:
        games = games.filter(ruleset=ruleset)
    if mine and user is not None and user.is_authenticated:
        games = games.filter(seats__user=user)
    return games


def league_list() -> QuerySet[League]:
    return League.objects.order_by("name")


def league_get(*, league_id: int) -> League:
    league = League.objects.filter(pk=league_id).first()
    if league is None:
        raise GameNotFound("There is no such league.")
    return league


def game_get_for(*, game_id: str, user: AbstractBaseUser | None) -> Game:
    """The game if ``user`` may know it exists; otherwise "not found", as for a bad id."""
    try:
        return games_visible_to(user).get(pk=game_id)
    except (Game.DoesNotExist, ValueError, ValidationError):
        raise GameNotFound("There is no such game, or it is not yours to see.") from None


def hosted_game_get(*, game_id: str, user: AbstractBaseUser) -> Game:
    """The game, if ``user`` is its creator or a moderator (others: as if it did not exist,
    or refused if they can see it)."""
    game = game_get_for(game_id=game_id, user=user)
    if not (user.is_staff or (game.created_by_id is not None and game.created_by_id == user.pk)):
        raise SeatError("Only the game's creator or a moderator can invite players to it.")
    return game


def invitations_of(*, game_id: str, user: AbstractBaseUser) -> QuerySet[Invitation]:
    """The game's invitations, for its creator or a moderator."""
    game = hosted_game_get(game_id=game_id, user=user)
    return Invitation.objects.filter(game=game).select_related("user", "invited_by")


def league_queue_order(league: League) -> list[LeagueEntry]:
    """The order players are seated in: the league's seating applied to ``_queue_order``."""
    entries = _queue_order(league)
    if league.seating != League.Seating.RATING:
        return entries
    by_user = {e.user_id: e for e in entries}
    order = ratings_selectors.seated_by_rating(ruleset=league.ruleset, queue=list(by_user),
                                               seats=league.seats_per_game)
    return [by_user[u] for u in order]


def _queue_order(league: League) -> list[LeagueEntry]:
    """Section 4: preference to those who did not play in the last game and to the last
    game's winners; otherwise first come, first served."""
    entries = list(league.entries.select_related("user"))
    if league.last_game is None:
        return entries
    played = set(league.last_game.seats.values_list("user_id", flat=True))
    winners = set(_winners(league.last_game))
    preferred = [e for e in entries if e.user_id not in played or e.user_id in winners]
    return preferred + [e for e in entries if e not in preferred]


def _winners(game: Game) -> list[int]:
    referee = referee_get()
    info = referee.store.get_game(str(game.pk))
    if info.status != "finished":
        return []
    state, _ = referee.current(str(game.pk))
    winner_seats = referee.ruleset_for(info).result(state).winners
    return list(game.seats.filter(number__in=list(winner_seats)).values_list("user_id", flat=True))
