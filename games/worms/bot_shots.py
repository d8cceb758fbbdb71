"""The bot's shot (W-R15): try each weapon the team owns at each visible enemy in reach,
from each square its worms can safely walk to, on a working copy with dice that always
roll the lowest value; keep the shot that hurts the enemies most and the team not at all.
Deterministic: the same position gives the same shot."""

from __future__ import annotations

from collections.abc import Callable

from games.base import Actor, ActorKind, RuleViolation
from games.dice import Dice, DiceError
from games.worms import events as ev
from games.worms.aim import check_reach, land_shot
from games.worms.board import Square, name
from games.worms.commands import Fire, MoveWorm
from games.worms.items import ITEMS
from games.worms.movement import move
from games.worms.outcome import Outcome
from games.worms.state import Worm, WormsState
from games.worms.weapons import fire

#: weapons aimed at one square that cannot hurt the shooter standing elsewhere, best first
SHOTS: tuple[str, ...] = (
    "minigun", "shotgun", "bazooka", "grenade", "homing_missile", "longbow", "handgun",
)
KILL = 1000


class LowestDice(Dice):
    """Every draw is its lowest value: a cautious estimate, and no randomness."""

    def _next(self, purpose: str, low: int, high: int) -> int:
        return low


def _score(state: WormsState, seat: int, worm: Worm, path: list[Square], order: Fire) -> int | None:
    actor = Actor(ActorKind.REFEREE, seat)
    out = Outcome(state, LowestDice())
    try:
        if path:
            move(out, MoveWorm(actor=actor, worm=worm.id, path=tuple(name(s) for s in path)))
        if out.turn_over is not None:
            return None
        fire(out, Fire(actor=actor, worm=order.worm, weapon=order.weapon, target=order.target))
    except (RuleViolation, DiceError):
        return None
    score = 0
    for event in out.events:
        victim = state.worm(getattr(event, "worm", ""))
        if victim is None or victim.id == worm.id and isinstance(event, ev.WormMoved):
            continue
        own = victim.seat == seat
        if isinstance(event, ev.WormDamaged | ev.WormDied) and own:
            return None
        if isinstance(event, ev.WormDamaged):
            score += event.amount
        elif isinstance(event, ev.WormDied):
            score += KILL
    return score or None


def best_shot(
    state: WormsState,
    seat: int,
    movers: list[tuple[Worm, int]],
    reachable: Callable[[WormsState, Worm, int], dict[Square, list[Square]]],
) -> tuple[Worm, list[Square], Fire] | None:
    owned = [w for w in SHOTS if state.stock(seat, w) != 0]
    enemies = [w for w in state.worms if w.seat != seat and w.visible]
    if not owned or not enemies:
        return None
    best: tuple[int, Worm, list[Square], Fire] | None = None
    for worm, budget in movers:
        paths = reachable(state, worm, budget)
        for square in sorted(paths, key=lambda s: (len(paths[s]), s[1], s[0])):
            path = paths[square]
            if path and state.crate_at(square) is not None:
                continue
            standing = Worm(worm.id, worm.seat, square[0], square[1], worm.health)
            for weapon in owned:
                if path and ITEMS[weapon].reach is None:
                    continue  # reaches everywhere: no need to walk first
                for enemy in enemies:
                    try:
                        check_reach(state, standing, weapon, enemy.square)
                    except RuleViolation:
                        continue
                    if land_shot(state, standing, weapon, enemy.square).square != enemy.square:
                        continue
                    order = Fire(worm=worm.id, weapon=weapon, target=name(enemy.square))
                    score = _score(state, seat, worm, path, order)
                    if score is not None and (best is None or score > best[0]):
                        best = (score, worm, path, order)
    return None if best is None else (best[1], best[2], best[3])
