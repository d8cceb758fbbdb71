"""A pure bot: the order a seat might give now, from the position, the time and dice.

It waits (None) when it may not place (before "NOW!", while its knot is being tied, with
an empty supply, outside a round). Otherwise it takes a winning Objective if there is one,
else prefers Objectives, then liberations, choosing among the best with the dice; with its
knot not yet tied it may put its headquarters on a knot next to an Objective instead.
"""

from __future__ import annotations

from games.base import Actor, Command
from games.dice import Dice
from games.wormlord.board import SQUARES, neighbours
from games.wormlord.bounds import hq_moves_left
from games.wormlord.commands import Conquer, Liberate, PlaceHeadquarters
from games.wormlord.state import OBJECTIVES_TO_WIN, Phase, Side, WormlordState


def choose(state: WormlordState, seat: int, dice: Dice, at_ms: int) -> Command | None:
    side = state.side_of_seat(seat)
    if side is None or state.phase is not Phase.RUNNING or at_ms < (state.starts_at_ms or 0):
        return None
    if state.ends_at_ms is not None and at_ms >= state.ends_at_ms:
        return None
    actor = Actor.player(seat)
    if at_ms < side.next_at_ms or side.supply <= 0:
        return _headquarters(state, side, actor, at_ms)
    options = placements(state, side)
    if not options:
        return None
    best = max(score for score, _ in options)
    square = dice.choice("bot placement", [sq for score, sq in options if score == best])
    knot = state.knot_at(square)
    if knot is None:
        return Conquer(actor=actor, at_ms=at_ms, square=square)
    return Liberate(actor=actor, at_ms=at_ms, square=square, owner=knot.colour)


def placements(state: WormlordState, side: Side) -> list[tuple[int, str]]:
    """Every square the side could knot now, with how much the bot likes it."""
    held = state.objectives_held(side.colour)
    out = []
    for square in SQUARES:
        terrain = state.terrain(square)
        if terrain == "#" or terrain.isdigit():
            continue
        knot = state.knot_at(square)
        if knot is not None and (knot.colour is side.colour or state.side(knot.colour).hq == square):
            continue
        if not any(state.holds(side.colour, n) for n in neighbours(square)):
            continue
        score = 1 + (2 if knot is not None else 0)
        if terrain == "*":
            score += 100 if held + 1 >= OBJECTIVES_TO_WIN else 5
        out.append((score, square))
    return out


def _headquarters(state: WormlordState, side: Side, actor: Actor, at_ms: int) -> Command | None:
    """Guard the own knot that touches the most Objectives (if it is not guarded already and
    the colour has headquarters moves left this round, WL-R18)."""
    def value(square: str) -> int:
        return sum(1 for n in neighbours(square) if state.terrain(n) == "*")

    mine = [k.square for k in state.knots if k.colour is side.colour and state.terrain(k.square) == "."]
    if not mine or hq_moves_left(state, side.colour) <= 0:
        return None
    target = max(mine, key=lambda sq: (value(sq), sq))
    if target == side.hq or value(target) == 0 or (side.hq is not None and value(side.hq) >= value(target)):
        return None
    return PlaceHeadquarters(actor=actor, at_ms=at_ms, square=target)
