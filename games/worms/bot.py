"""The ``bot`` deadline policy (§3 "you will have it taken for you"): a plain, fair player.

It uses only what the acting team may know (no crate contents, no booby traps, no other
team's inventory, no invisible enemy worms) and plays a turn that cannot be refused: safe walks first (no mines,
no water, no falls of more than 2), then at most one weapon as the last act, then the end.

1. If an enemy worm can be prodded into water (or off a cliff), walk there and prod.
2. Otherwise shoot a visible enemy in reach with a weapon the team owns (``bot_shots``):
   the shot that does the enemies most harm and none to the team, tried on a copy.
3. Otherwise walk the first worm that can reach a crate or donor card onto it.
4. Otherwise walk the worm that can get closest to a visible enemy towards it.
5. End the turn (a skip when nothing could be done).
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

from games.base import Actor, ActorKind, Command
from games.worms.board import (
    ORTHOGONAL,
    Direction,
    Square,
    name,
    on_board,
    orthogonal_neighbours,
    step,
)
from games.worms.bot_shots import best_shot
from games.worms.commands import EndTurn, Fire, MoveWorm, SkipTurn, Step, SubmitTurn
from games.worms.movement import step_problem
from games.worms.physics import FALL_SAFE, fall_damage
from games.worms.state import Stage, Worm, WormProgress, WormsState
from games.worms.turn import MAX_WORMS_PER_TURN, MOVES_PER_WORM

DROWN_VALUE = 1000


def plan(state: WormsState, seat: int) -> Command:
    actor = Actor(ActorKind.REFEREE, seat)
    if state.stage is not Stage.ACTING or state.seat != seat:
        return SkipTurn(actor=actor, turn=state.turn)
    state = known_to(state, seat)
    steps: list[Step] = []
    best = _best_prod(state, seat) if state.progress.weapon is None else None
    if best is not None:
        worm, path, direction = best
        if path:
            steps.append(MoveWorm(worm=worm.id, path=tuple(name(s) for s in path)))
        steps.append(Fire(worm=worm.id, weapon="prod", target=direction.value))
    else:
        shot = best_shot(state, seat, _movers(state, seat), _reachable) if state.progress.weapon is None else None
        walk = None if shot is not None else (_walk_to_crate(state, seat) or _walk_to_enemy(state, seat))
        if shot is not None:
            worm, path, fire_order = shot
            if path:
                steps.append(MoveWorm(worm=worm.id, path=tuple(name(s) for s in path)))
            steps.append(fire_order)
        elif walk is not None:
            worm, path = walk
            steps.append(MoveWorm(worm=worm.id, path=tuple(name(s) for s in path)))
    steps.append(EndTurn())
    return SubmitTurn(actor=actor, steps=tuple(steps))


def known_to(state: WormsState, seat: int) -> WormsState:
    """The position as the team knows it (§11): other teams' invisible worms left out. A
    walk may then run into one, which stops it (not a refusal)."""
    worms = tuple(w for w in state.worms if w.visible or w.seat == seat)
    return state if worms == state.worms else replace(state, worms=worms)


def _movers(state: WormsState, seat: int) -> list[tuple[Worm, int]]:
    """Worms that may still walk this turn, with their squares left."""
    progress = state.progress
    out = []
    for worm in state.worms_of(seat):
        mine = progress.of(worm.id)
        if mine is None and len(progress.worms) >= MAX_WORMS_PER_TURN:
            continue
        if progress.weapon is not None and progress.shooter != worm.id:
            continue
        mine = mine or WormProgress(worm.id, 0, MOVES_PER_WORM)
        out.append((worm, mine.allowance - mine.used))
    return out


def _reachable(state: WormsState, worm: Worm, budget: int) -> dict[Square, list[Square]]:
    """Squares the worm can walk to safely, with a shortest path to each."""
    paths: dict[Square, list[Square]] = {worm.square: []}
    queue = deque([worm.square])
    while queue:
        square = queue.popleft()
        if len(paths[square]) >= budget:
            continue
        for nxt in orthogonal_neighbours(square):
            if nxt in paths or step_problem(state, square, nxt) is not None:
                continue
            if state.mine_at(nxt) is not None or state.height(square) - state.height(nxt) > FALL_SAFE:
                continue
            paths[nxt] = [*paths[square], nxt]
            queue.append(nxt)
    return paths


def _prod_value(state: WormsState, seat: int, frm: Square, direction: Direction) -> int:
    target = step(frm, direction)
    if not on_board(target):
        return 0
    enemy = state.worm_at(target)
    if enemy is None or enemy.seat == seat:
        return 0
    if not -1 <= state.height(target) - state.height(frm) <= 0:
        return 0
    landing = step(target, direction)
    air = state.height(target) + 1
    if not on_board(landing) or state.height(landing) > air or state.blocked(landing):
        return 0
    if state.is_water(landing):
        return DROWN_VALUE
    return fall_damage(air - state.height(landing)) + (40 if state.mine_at(landing) else 0)


def _best_prod(state: WormsState, seat: int) -> tuple[Worm, list[Square], Direction] | None:
    best: tuple[int, Worm, list[Square], Direction] | None = None
    for worm, budget in _movers(state, seat):
        for square, path in _reachable(state, worm, budget).items():
            for direction in ORTHOGONAL:
                value = _prod_value(state, seat, square, direction)
                if value > 0 and (best is None or value > best[0]):
                    best = (value, worm, path, direction)
    return None if best is None else (best[1], best[2], best[3])


def _walk_to_crate(state: WormsState, seat: int) -> tuple[Worm, list[Square]] | None:
    for worm, budget in _movers(state, seat):
        paths = _reachable(state, worm, budget)
        goals = [s for s in paths if paths[s] and (state.crate_at(s) or state.card_at(s))]
        if goals:
            goal = min(goals, key=lambda s: (len(paths[s]), s[1], s[0]))
            return worm, paths[goal]
    return None


def _walk_to_enemy(state: WormsState, seat: int) -> tuple[Worm, list[Square]] | None:
    enemies = [w.square for w in state.worms if w.seat != seat and w.visible]
    if not enemies:
        return None

    def gap(square: Square) -> int:
        return min(abs(square[0] - e[0]) + abs(square[1] - e[1]) for e in enemies)

    best: tuple[int, int, Worm, list[Square]] | None = None
    for worm, budget in _movers(state, seat):
        paths = _reachable(state, worm, budget)
        for square, path in paths.items():
            gain = gap(worm.square) - gap(square)
            if path and gain > 0 and (best is None or (gain, -len(path)) > (best[0], best[1])):
                best = (gain, -len(path), worm, path)
    return None if best is None else (best[2], best[3])
