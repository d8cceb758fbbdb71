"""The weapons that do something of their own (§5; ``Delivery.SPECIAL``): the prod and
the fire punch, and the super weapons (crates only): nuclear bomb, armageddon, concrete
donkey, super banana bomb, sheep strike, scales of justice. Each registers its handler by
name (``games.worms.arsenal``)."""

from __future__ import annotations

from games.base import RuleViolation
from games.worms import events as ev
from games.worms.aim import parse_direction, target_square
from games.worms.arsenal import HANDLERS, weapon
from games.worms.blast import Impact, push_drum, push_mine, push_worm, resolve, set_off, shot_blast
from games.worms.blast_specs import center_land, doubled, ring_land
from games.worms.board import (
    ORTHOGONAL,
    Direction,
    Square,
    all_squares,
    away,
    name,
    on_board,
    ring,
    step,
)
from games.worms.commands import Fire
from games.worms.deliveries import adjacent_target, landing
from games.worms.items import blast_of
from games.worms.outcome import Outcome
from games.worms.state import Worm
from games.worms.water import drown_flooded, raise_water


@weapon("prod")
def prod(out: Outcome, worm: Worm, command: Fire) -> None:
    """RNG 1, HGT +0/-1, push 1 in the direction of the shot, knocks 1 into the air; moves
    oil drums without blowing them up; sets mines off where they land."""
    square = adjacent_target(worm, command.target, "prod", own_square=False)
    direction = next(d for d in ORTHOGONAL if step(worm.square, d) == square)
    diff = out.state.height(square) - out.state.height(worm.square)
    if not -1 <= diff <= 0:
        return  # hits the wall above, or swings over the land below: nothing happens
    power = out.power
    target = out.state.worm_at(square)
    if target is not None:
        push_worm(out, target.id, direction, power, power)
    elif out.state.drum_at(square) is not None:
        push_drum(out, square, direction, power, power)
    elif out.state.mine_at(square) is not None:
        push_mine(out, square, direction, power, power, detonate=True)


@weapon("fire_punch")
def fire_punch(out: Outcome, worm: Worm, command: Fire) -> None:
    """RNG 1, HGT +5/-0: the square next to the worm, up to 5 higher, not lower; 30 damage,
    pushed 3 in the direction of the punch and knocked 3 into the air."""
    square = adjacent_target(worm, command.target, "fire punch", own_square=False)
    direction = next(d for d in ORTHOGONAL if step(worm.square, d) == square)
    diff = out.state.height(square) - out.state.height(worm.square)
    if 0 <= diff <= 5:
        shot_blast(out, square, blast_of("fire_punch"), direction)


METEORITES = 25
CLUSTERS = 4


@weapon("nuclear_bomb")
def nuclear_bomb(out: Outcome, worm: Worm, command: Fire) -> None:
    """Every worm but the firer is poisoned, team-mates too; then the water rises by 2."""
    for bubble in out.state.bubbles:  # §5 BUBBLE TROUBLE: the nuclear bomb sinks it (W-R44)
        out.emit(ev.BubbleGone(bubble.x, bubble.y, "sunk"))
    for other in out.state.worms:
        if other.id != worm.id:
            out.emit(ev.WormPoisoned(other.id, other.poison + out.power))
    raise_water(out, out.state.water + 2)


@weapon("armageddon")
def armageddon(out: Outcome, worm: Worm, command: Fire) -> None:
    """25 meteorites, one after another, each on a random square of the board (any of the
    225, drawn when it falls); one that lands in water sinks without exploding."""
    squares = list(all_squares())
    for n in range(1, METEORITES + 1):
        square = out.dice.choice(f"armageddon: square of meteorite {n} of {METEORITES}", squares)
        if out.state.is_water(square):
            continue
        shot_blast(out, square, blast_of("armageddon"), None)


@weapon("concrete_donkey")
def concrete_donkey(out: Outcome, worm: Worm, command: Fire) -> None:
    """The 3x3 squares around the target become water (ruling W-R35): the land drops to the
    water level; worms there drown, mines sink, cards drown; then the oil drums and crates
    there explode, row by row from the north-west."""
    center = target_square(command.target, "Concrete Donkey")
    squares = [center, *ring(center)]
    squares.sort(key=lambda s: (s[1], s[0]))
    out.emit(ev.Exploded(center[0], center[1], "concrete donkey"))
    for s in squares:  # §5 BUBBLE TROUBLE: the concrete donkey sinks it (W-R44)
        if out.state.bubble_at(s) is not None:
            out.emit(ev.BubbleGone(s[0], s[1], "sunk"))
    level = out.state.water
    changes = tuple(ev.SquareHeight(s[0], s[1], level) for s in squares if out.state.height(s) > level)
    if changes:
        out.emit(ev.LandLowered(changes))
    drown_flooded(out, squares, explosives=False)
    for s in squares:
        set_off(out, s)


@weapon("super_banana_bomb")
def super_banana_bomb(out: Outcome, worm: Worm, command: Fire) -> None:
    """RNG 4, HGT +4/-ALL: a dynamite-strength blast where it lands, then 4 clusters on 4
    different random squares of the 16 at distance 2 (on the board), one after another,
    each pushing away from the first blast (ruling W-R33)."""
    landed = landing(out, worm, command)
    if landed is None:
        return
    center, direction, _ = landed
    banana = blast_of("super_banana_bomb")
    shot_blast(out, center, banana, direction)
    squares = list(ring(center, 2))
    for n in range(1, CLUSTERS + 1):
        if not squares:
            break
        square = squares.pop(out.dice.roll(f"super banana cluster {n}: which square at distance 2", 0, len(squares) - 1))
        shot_blast(out, square, banana, away(center, square))


def sheep_strike_squares(text: str) -> tuple[list[Square], Direction]:
    """``c3 S`` (first sheep and direction) or ``c3-c11``: 5 sheep along a row or column,
    one square apart (9 squares), all on the board."""
    parts = text.replace("-", " ").replace(",", " ").split()
    if len(parts) != 2:
        raise RuleViolation("§5", "Aim the sheep strike with its first square and a direction (c3 S) or c3-c11.")
    start = target_square(parts[0], "Sheep Strike")
    direction = parse_direction(parts[1])
    if direction is None:
        end = target_square(parts[1], "Sheep Strike")
        direction = away(start, end)
        if direction is None or step(start, direction, 8) != end:
            raise RuleViolation(
                "§5", f"The sheep strike covers 9 squares in a row or column: {name(start)} to {name(end)} is not."
            )
    if not direction.orthogonal:
        raise RuleViolation("§5", "The sheep can't be dropped diagonally: give N, E, S or W.")
    squares = [step(start, direction, 2 * k) for k in range(5)]
    if not all(on_board(s) for s in squares):
        raise RuleViolation("§5", "All 5 sheep of the strike must land on the board.")
    return squares, direction


@weapon("sheep_strike")
def sheep_strike(out: Outcome, worm: Worm, command: Fire) -> None:
    """5 sheep at once, one blast (ruling W-R35): each centre takes 60-75 (rolled per
    sheep) and LND 2 and is pushed 2 randomly; a surrounding square is counted once (35,
    land 1 from the first sheep that reaches it) and pushed away from all the sheep that
    reach it, so a worm between two sheep is not moved."""
    centers, _ = sheep_strike_squares(f"{command.target} {command.mine_type}".strip())
    spec = doubled(blast_of("sheep_strike"), out.power)
    ring_spec = spec.rings[0]
    state = out.state
    hits: list[Impact] = []
    for n, c in enumerate(centers, start=1):
        out.emit(ev.Exploded(c[0], c[1], spec.source))
        land = center_land(state.height(c), spec)
        hits.append(Impact(c, f"sheep {n}", spec.center_damage, land, spec.center_push, None,
                           spec.center_throw, 0, True))
    seen = set(centers)
    for c in centers:
        h = state.height(c)
        for s in ring(c):
            if s in seen:
                continue
            seen.add(s)
            a = state.height(s)
            land = ring_land(h, a, ring_spec)
            sx = sy = 0
            for other in centers:
                if max(abs(other[0] - s[0]), abs(other[1] - s[1])) == 1:
                    sx += (s[0] > other[0]) - (s[0] < other[0])
                    sy += (s[1] > other[1]) - (s[1] < other[1])
            direction = away((0, 0), (sx, sy))
            push = ring_spec.push if direction is not None else 0
            hits.append(Impact(s, "ring 1", ring_spec.damage, land, push, direction,
                               ring_spec.throw, 0, h - 1 <= a <= h + 1, held=direction is None))
    head = hits[: len(centers)]
    rest = sorted(hits[len(centers):], key=lambda i: (i.square[1], i.square[0]))
    resolve(out, head + rest, spec)


@weapon("scales_of_justice")
def scales_of_justice(out: Outcome, worm: Worm, command: Fire) -> None:
    """The total health of all worms is shared evenly between the teams still in, then each
    team's share evenly between its worms (ruling W-R35: remainders one point each to the
    first teams in turn order, and to a team's worms in name order)."""
    state = out.state
    seats = [s for s in state.order if state.worms_of(s)] or sorted({w.seat for w in state.worms})
    total = sum(w.health for w in state.worms)
    share, extra = divmod(total, len(seats))
    for i, seat in enumerate(seats):
        team_total = share + (1 if i < extra else 0)
        worms = sorted(state.worms_of(seat), key=lambda w: w.id)
        each, more = divmod(team_total, len(worms))
        for j, w in enumerate(worms):
            new = max(1, each + (1 if j < more else 0))  # it "causes no real damage"
            if new > w.health:
                out.emit(ev.WormHealed(w.id, new - w.health, new))
            elif new < w.health:
                out.emit(ev.WormDamaged(w.id, w.health - new, new, "scales of justice"))


#: every handler above, registered by name as its module was read
SPECIAL = HANDLERS
