"""Shared helpers: a started game on a map, a bot game played to the end."""

from __future__ import annotations

from games.base import Actor, SeatInfo
from games.dice import SeededDice
from games.lggwg import RULESET
from games.lggwg.bot import bot_orders
from games.lggwg.commands import SubmitOrders
from games.lggwg.state import LggwgState

SEED = "1990" * 16


def started(map_name: str = "duel", seats: int = 2, game: str = "g", max_turns: int = 30) -> LggwgState:
    settings = RULESET.parse_settings({"map": map_name, "max_turns": max_turns})
    infos = [SeatInfo(n, f"player {n}") for n in range(1, seats + 1)]
    return RULESET.fold(RULESET.initial_state(), RULESET.setup(settings, infos, SeededDice(SEED, game, 1)))


def bot_command(state: LggwgState, seat: int, game: str, seq: int) -> SubmitOrders:
    orders = bot_orders(state, seat, SeededDice(SEED, f"{game}-bot", seq))
    return SubmitOrders(actor=Actor.player(seat), orders=orders)
