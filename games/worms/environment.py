"""The turn-start phase (§7, §9, §10), run by the scheduler as ``StartTurn``:

1. at the first turn of a round: the water rises by 1 if sudden death was already on
   (§10, "after every round"), the round number goes up, and sudden death begins once
   the announced number of rounds has been played;
2. poison ticks (§9);
3. a crate may fall (§9);
4. the wind is drawn (§7);
5. stalemate (§10): if no worm can move or hit another, sudden death is forced;
6. the turn starts, and is skipped at once if the team is stuck (§7).
"""

from __future__ import annotations

from games.base import RuleViolation
from games.worms import events as ev
from games.worms.board import ORTHOGONAL, Direction, on_board, step
from games.worms.commands import StartTurn
from games.worms.crates import drop_crate
from games.worms.movement import can_step
from games.worms.outcome import Outcome
from games.worms.state import Phase, Stage, Worm, WormsState
from games.worms.turn import end_turn, settle

POISON_PER_DOSE = 5
WIND_DIRECTIONS: tuple[Direction, ...] = (Direction.N, Direction.E, Direction.S, Direction.W)


def start_turn(out: Outcome, command: StartTurn) -> None:
    state = out.state
    if state.phase is not Phase.PLAYING or state.stage is not Stage.STARTING:
        raise RuleViolation("§7", "No turn is waiting to start.")
    if command.turn != state.turn:
        raise RuleViolation("§7", f"Turn {command.turn} is not the turn waiting to start ({state.turn}).")
    if state.round_opening and state.turn > 1:
        if state.sudden_death:
            raise_water(out, out.state.water + 1)
        out.emit(ev.RoundBegan(out.state.round + 1))
    if not out.state.sudden_death and out.state.round > out.state.sudden_death_after:
        out.emit(ev.SuddenDeathBegan())
    settle(out)
    if out.state.phase is not Phase.PLAYING:
        return
    tick_poison(out)
    drop_crate(out)
    draw_wind(out)
    if not out.state.stalemate and is_stalemate(out.state):
        out.emit(ev.StalemateDeclared())
        if not out.state.sudden_death:
            out.emit(ev.SuddenDeathBegan(forced=True))
    seat = out.state.seat
    assert seat is not None
    out.emit(ev.TurnStarted(out.state.turn, seat))
    team = out.state.team(seat)
    if team is None or team.out:
        end_turn(out, "out")
    elif is_stuck(out.state, seat):
        end_turn(out, "stuck")


def raise_water(out: Outcome, level: int) -> None:
    """§10: the water rises; whatever is now under it drowns or sinks."""
    out.emit(ev.WaterRose(level))
    state = out.state
    for worm in state.worms:
        if state.is_water(worm.square):
            out.emit(ev.WormDied(worm.id, "drowned"))
    for mine in state.mines:
        if state.is_water(mine.square):
            out.emit(ev.ObjectSank(mine.x, mine.y, "mine"))
    for drum in state.drums:
        if state.is_water(drum.square):
            out.emit(ev.ObjectSank(drum.x, drum.y, "drum"))
    for crate in state.crates:
        if state.is_water(crate.square):
            out.emit(ev.CrateDestroyed(crate.x, crate.y))
    for card in state.cards:
        if state.is_water(card.square):
            out.emit(ev.CardGone(card.x, card.y, "drowned"))


def tick_poison(out: Outcome) -> None:
    """§9: every poisoned worm loses 5 per dose at the start of each team's turn, never
    going below 1 health (ruling W-R11: all worms on the board, every turn)."""
    for worm in out.state.worms:
        if worm.poison and worm.health > 1:
            health = max(1, worm.health - POISON_PER_DOSE * worm.poison)
            out.emit(ev.WormDamaged(worm.id, worm.health - health, health, "poison"))


def draw_wind(out: Outcome) -> None:
    """§7: N, E, S or W at strength 1-3, or no wind: 13 equally likely outcomes (W-R12)."""
    roll = out.dice.roll("wind (0 calm; 1-3 N, 4-6 E, 7-9 S, 10-12 W; strength 1-3)", 0, 12)
    if roll == 0:
        out.emit(ev.WindChanged(None, 0))
    else:
        out.emit(ev.WindChanged(WIND_DIRECTIONS[(roll - 1) // 3], (roll - 1) % 3 + 1))


def can_hit(state: WormsState, worm: Worm) -> bool:
    """W-R10: an enemy worm within prod reach, or in the line of the handgun every team
    holds (8 along the row or column, within its height window, no wall in between)."""
    from games.worms.aim import land_shot

    for d in ORTHOGONAL:
        s = step(worm.square, d)
        if on_board(s):
            other = state.worm_at(s)
            if other is not None and other.seat != worm.seat:
                diff = state.height(s) - state.height(worm.square)
                if -1 <= diff <= 0:
                    return True
    for other in state.worms:
        if other.seat == worm.seat or (other.x != worm.x and other.y != worm.y):
            continue
        if abs(other.x - worm.x) + abs(other.y - worm.y) > 8:
            continue
        if land_shot(state, worm, "handgun", other.square).square == other.square:
            return True
    return False


def is_stuck(state: WormsState, seat: int) -> bool:
    """§7: no worm of the team can take a step or hit anyone."""
    return not any(can_step(state, w.square) or can_hit(state, w) for w in state.worms_of(seat))


def is_stalemate(state: WormsState) -> bool:
    """§10: every remaining worm is stuck and cannot hit another."""
    return bool(state.worms) and all(is_stuck(state, t.seat) for t in state.active_teams())

