"""Lobby writes: joining with a private order, starting, invitations to private games,
and the league queue (section 4). The reads are in ``referee.lobby_selectors``."""

from __future__ import annotations

import contextlib
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games.base import RuleViolation
from games.serialization import DataError
from referee import limits, lobby_selectors, noticeboard, services
from referee.errors import GameNotActive, InvalidSetting, SeatError
from referee.instance import referee_get
from referee.models import Game, Invitation, League, LeagueEntry, Seat, save_by_key


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
    rules = referee_get().registry.get(game.ruleset, game.ruleset_version)
    try:
        rules.command_from_data(order["type"], payload)
    except DataError as exc:
        raise RuleViolation("order", f"The sign-up order is malformed: {exc}.") from None
    return {"type": order["type"], "payload": payload}


@transaction.atomic
def game_join(
    *, game_id: str, user: AbstractBaseUser, name: str, signup_order: dict[str, Any] | None = None
) -> Seat:
    game = lobby_selectors.game_get_for(game_id=game_id, user=user)
    order = _check_signup_order(game, signup_order)
    seat = services.seat_add(game=game, user=user, name=name)
    if order is not None:
        seat.signup_order = order
        save_by_key(seat, "signup_order")
    game.refresh_from_db()
    if game.seats.count() >= game.max_seats:
        _start(game)
    return seat


@transaction.atomic
def game_begin(*, game_id: str, user: AbstractBaseUser) -> Game:
    """The creator (or a moderator) starts the game before every seat is filled."""
    game = lobby_selectors.game_get_for(game_id=game_id, user=user)
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


def _username(raw: object) -> str:
    name = str(raw).strip()[:150]
    if not name or "\x00" in name:
        raise InvalidSetting("Name the user to invite by their username.", field="username")
    return name


@transaction.atomic
def invitation_create(*, game_id: str, user: AbstractBaseUser, username: str) -> Invitation:
    """``user`` (the creator or a moderator) invites ``username`` to a private game that is
    still open for seats: the invited user then sees it and may join it."""
    game = lobby_selectors.hosted_game_get(game_id=game_id, user=user)
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


@transaction.atomic
def invitation_withdraw(*, game_id: str, user: AbstractBaseUser, username: str) -> None:
    """Withdraw an invitation; a seat already taken stays taken."""
    game = lobby_selectors.hosted_game_get(game_id=game_id, user=user)
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
    rules = referee_get().registry.get(ruleset)
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


@transaction.atomic
def league_next_game(*, league_id: int, moderator: AbstractBaseUser) -> Game:
    if not moderator.is_staff:
        raise SeatError("Only moderators start league games.")
    league = League.objects.select_for_update().get(pk=league_id)
    chosen = lobby_selectors.league_queue_order(league)[: league.seats_per_game]
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
            save_by_key(seat, "signup_order")
        entry.delete()
    # Before the start: the first turn's notices already go to the league's channel.
    noticeboard.league_game_made(league_id=league.pk, game_id=str(game.pk))
    _start(game)
    league.last_game = game
    league.save(update_fields=["last_game"])
    return game
