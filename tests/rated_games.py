"""Pig games played to their end through the referee (target 1: the first Hold with points
in hand wins), for the ratings' tests at every layer."""

from __future__ import annotations

from referee import services
from referee.models import Game, Seat
from tests.factories import GameFactory, SeatFactory


def new_game(users, *, rated: bool = True) -> tuple[Game, list[Seat]]:
    game = GameFactory(settings={"target": 1}, rated=rated, seats=len(users))
    seats = [SeatFactory(game=game, user=u) for u in users]
    services.game_start(game=game)
    services.game_run_pending(game_id=str(game.pk))
    return game, seats


def acting(game: Game, seats: list[Seat]) -> tuple[Seat, object]:
    state, _ = services.referee_get().current(str(game.pk))
    return next(s for s in seats if s.number == state.order[state.to_move]), state


def to_the_brink(game: Game, seats: list[Seat]) -> Seat:
    """Roll until the acting seat has points in hand: its Hold then wins (target 1)."""
    for _ in range(200):
        seat, state = acting(game, seats)
        if state.turn_total > 0:
            return seat
        services.command_handle(game_id=str(game.pk), user=seat.user, command_type="Roll", payload={})
        services.game_run_pending(game_id=str(game.pk))
    raise AssertionError("no points in 200 rolls")


def play_out(game: Game, seats: list[Seat]) -> None:
    seat = to_the_brink(game, seats)
    services.command_handle(game_id=str(game.pk), user=seat.user, command_type="Hold", payload={})
