"""Lobby services: joining with a private order, starting, invitations to private games,
and the league queue (section 4)."""

from __future__ import annotations

import contextlib
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet

from games.base import RuleViolation
from games.serialization import DataError
from notices import record as notices_record
from referee import limits, ratings_selectors, services
from referee.errors import GameNotActive, GameNotFound, InvalidSetting, SeatError
from referee.models import Game, Invitation, League, LeagueEntry, Seat


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


def _check_signup_order(game: Game, order: dict[str, Any] | None) -> dict[str, Any] | None:
    """Parse the private order now, so a malformed list is refused at the door."""
    if order is None:
        return None
    if not isinstance(order, dict) or not isinstance(order.get("type"), str):
        raise InvalidSetting("A sign-up order is an object with a 'type' and a 'payload'.")
    payload = order.get("payload", {})
    if not isinstance(payload, dict):
        raise InvalidSetting("The sign-up order's payload must be an object.")
    limits.order_check(order["type"], payload)
    rules = services.referee_get().registry.get(game.ruleset, game.ruleset_version)
    try:
        rules.command_from_data(order["type"], payload)
    except DataError as exc:
        raise RuleViolation("order", f"The sign-up order is malformed: {exc}.") from None
    return {"type": order["type"], "payload": payload}


@transaction.atomic
def game_join(
    *, game_id: str, user: AbstractBaseUser, name: str, signup_order: dict[str, Any] | None = None
) -> Seat:
    game = game_get_for(game_id=game_id, user=user)
    order = _check_signup_order(game, signup_order)
    seat = services.seat_add(game=game, user=user, name=name)
    if order is not None:
        seat.signup_order = order
        seat.save(update_fields=["signup_order"])
    game.refresh_from_db()
    if game.seats.count() >= game.max_seats:
        _start(game)
    return seat


@transaction.atomic
def game_begin(*, game_id: str, user: AbstractBaseUser) -> Game:
    """The creator (or a moderator) starts the game before every seat is filled."""
    game = game_get_for(game_id=game_id, user=user)
    if not (user.is_staff or game.created_by_id == user.pk):
        raise SeatError("Only the game's creator or a moderator can start it.")
    if game.status != Game.Status.OPEN:
        raise GameNotActive("The game has already started.")
    _start(game)
    game.refresh_from_db()
    return game


def _start(game: Game) -> None:
    services.game_start(game=game)
    for seat in game.seats.exclude(signup_order=None).select_related("user"):
        # A refusal lands in the seat's inbox; the player resubmits in the game.
        with contextlib.suppress(RuleViolation):
            services.command_handle(
                game_id=str(game.pk), user=seat.user, command_type=seat.signup_order["type"],
                payload=seat.signup_order["payload"],
            )


# --- invitations to private games ------------------------------------------------------------------


def _host(game_id: str, user: AbstractBaseUser) -> Game:
    """The game, if ``user`` is its creator or a moderator (others: as if it did not exist,
    or refused if they can see it)."""
    game = game_get_for(game_id=game_id, user=user)
    if not (user.is_staff or (game.created_by_id is not None and game.created_by_id == user.pk)):
        raise SeatError("Only the game's creator or a moderator can invite players to it.")
    return game


def _username(raw: object) -> str:
    name = str(raw).strip()[:150]
    if not name or "\x00" in name:
        raise InvalidSetting("Name the user to invite by their username.", field="username")
    return name


@transaction.atomic
def invitation_create(*, game_id: str, user: AbstractBaseUser, username: str) -> Invitation:
    """``user`` (the creator or a moderator) invites ``username`` to a private game that is
    still open for seats: the invited user then sees it and may join it."""
    game = _host(game_id, user)
    if not game.is_private:
        raise InvalidSetting("Anyone may join a public game; invitations are for private ones.")
    if game.status != Game.Status.OPEN:
        raise GameNotActive("The game has already started; no more players can be invited.")
    name = _username(username)
    guest = get_user_model().objects.filter(username=name).first()
    if guest is None:
        raise InvalidSetting(f"There is no user named {name!r}.", field="username")
    if Invitation.objects.filter(game=game, user=guest).exists():
        raise InvalidSetting(f"{guest.get_username()} is already invited to this game.")
    return Invitation.objects.create(game=game, user=guest, invited_by=user)


def invitations_of(*, game_id: str, user: AbstractBaseUser) -> QuerySet[Invitation]:
    """The game's invitations, for its creator or a moderator."""
    game = _host(game_id, user)
    return Invitation.objects.filter(game=game).select_related("user", "invited_by")


@transaction.atomic
def invitation_withdraw(*, game_id: str, user: AbstractBaseUser, username: str) -> None:
    """Withdraw an invitation; a seat already taken stays taken."""
    game = _host(game_id, user)
    name = _username(username)
    deleted, _ = Invitation.objects.filter(game=game, user__username=name).delete()
    if not deleted:
        raise InvalidSetting(f"{name!r} is not invited to this game.", field="username")


# --- the league queue ----------------------------------------------------------------------------


@transaction.atomic
def league_create(
    *, name: str, ruleset: str, seats_per_game: int, moderator: AbstractBaseUser,
    game_settings: dict[str, Any] | None = None, turn_limit_seconds: int | None = None,
    seating: str = League.Seating.QUEUE,
) -> League:
    if not moderator.is_staff:
        raise SeatError("Only moderators create leagues.")
    rules = services.referee_get().registry.get(ruleset)
    if not rules.min_seats <= seats_per_game <= rules.max_seats:
        raise InvalidSetting(f"{rules.name} games take {rules.min_seats} to {rules.max_seats} players.")
    clocked, limit = services.game_clock_settings(rules=rules, settings=game_settings or {},
                                                  turn_limit_seconds=turn_limit_seconds)
    rules.parse_settings(clocked)
    if seating not in League.Seating.values:
        raise InvalidSetting("A league seats its games by 'queue' (first come) or by 'rating'.", field="seating")
    if League.objects.filter(name=name.strip()).exists():
        raise InvalidSetting("There is already a league with that name.")
    return League.objects.create(
        name=name.strip(), ruleset=rules.name, seats_per_game=seats_per_game,
        game_settings=game_settings or {}, turn_limit_seconds=limit, seating=League.Seating(seating),
    )


@transaction.atomic
def league_queue_join(
    *, league_id: int, user: AbstractBaseUser, signup_order: dict[str, Any] | None = None
) -> LeagueEntry:
    league = League.objects.select_for_update().get(pk=league_id)
    if LeagueEntry.objects.filter(league=league, user=user).exists():
        raise SeatError("You are already in this league's queue.")
    return LeagueEntry.objects.create(league=league, user=user, signup_order=signup_order)


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
    referee = services.referee_get()
    info = referee.store.get_game(str(game.pk))
    if info.status != "finished":
        return []
    state, _ = referee.current(str(game.pk))
    winner_seats = referee.ruleset_for(info).result(state).winners
    return list(game.seats.filter(number__in=list(winner_seats)).values_list("user_id", flat=True))


@transaction.atomic
def league_next_game(*, league_id: int, moderator: AbstractBaseUser) -> Game:
    if not moderator.is_staff:
        raise SeatError("Only moderators start league games.")
    league = League.objects.select_for_update().get(pk=league_id)
    chosen = league_queue_order(league)[: league.seats_per_game]
    if len(chosen) < league.seats_per_game:
        raise InvalidSetting(
            f"The queue has {len(chosen)} players; a game needs {league.seats_per_game}."
        )
    number = Game.objects.filter(name__startswith=f"{league.name} #").count() + 1
    game = services.game_create(
        name=f"{league.name} #{number}", ruleset=league.ruleset, settings=league.game_settings,
        created_by=moderator, turn_limit_seconds=league.turn_limit_seconds, rated=True,
    )
    Game.objects.filter(pk=game.pk).update(max_seats=league.seats_per_game)
    game.refresh_from_db()
    for entry in chosen:
        seat = services.seat_add(game=game, user=entry.user, name=entry.user.get_username())
        if entry.signup_order:
            seat.signup_order = entry.signup_order
            seat.save(update_fields=["signup_order"])
        entry.delete()
    # Before the start: the first turn's notices already go to the league's channel.
    notices_record.league_game_made(league_id=league.pk, game_id=str(game.pk))
    _start(game)
    league.last_game = game
    league.save(update_fields=["last_game"])
    return game
