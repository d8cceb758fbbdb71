"""The turn-start phase (§7, §9, §10), run by the scheduler as ``StartTurn``:

1. at the first turn of a round: the water rises by 1 if sudden death was already on
   (§10, "after every round"), the round number goes up, and sudden death begins once
   the announced number of rounds has been played;
2. the team's bubbles and invisible worms have one round less (§5, §11; ruling W-R40);
3. poison ticks (§9), not in a bubble (§5);
4. a crate may fall (§9);
5. the wind is drawn (§7);
6. stalemate (§10): if every team is stuck, sudden death is forced;
7. the turn starts: the team is PMed its weapons, where its invisible worms are and, with
   a crate spy, what every crate and card holds (§7); the turn is skipped at once if the
   team is stuck (§7: no step, no rope or teleport move, no weapon it holds can hit an
   enemy or open a way out, ``games.worms.stuck``).
"""

from __future__ import annotations

from games.base import RuleViolation
from games.worms import events as ev
from games.worms.board import Direction
from games.worms.commands import StartTurn
from games.worms.crates import drop_crate, spy_report
from games.worms.invisibility import reveal, spots
from games.worms.outcome import Outcome
from games.worms.state import Phase, Stage
from games.worms.stuck import is_stalemate, is_stuck
from games.worms.turn import end_turn, settle
from games.worms.water import raise_water

POISON_PER_DOSE = 5
WIND_DIRECTIONS: tuple[Direction, ...] = (Direction.N, Direction.E, Direction.S, Direction.W)


def start_turn(out: Outcome, command: StartTurn, *, digging: bool = True) -> None:
    """``digging``: whether a weapon that can open a way out keeps a team from being stuck
    (W-R10 from version 2.1.1; games of version 2.1 are replayed without it)."""
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
    age_effects(out, out.state.seat)
    tick_poison(out)
    drop_crate(out)
    draw_wind(out)
    if not out.state.stalemate and is_stalemate(out.state, digging=digging):
        out.emit(ev.StalemateDeclared())
        if not out.state.sudden_death:
            out.emit(ev.SuddenDeathBegan(forced=True))
    seat = out.state.seat
    assert seat is not None
    out.emit(ev.TurnStarted(out.state.turn, seat))
    brief(out, seat)
    team = out.state.team(seat)
    if team is None or team.out:
        end_turn(out, "out")
    elif is_stuck(out.state, seat, digging=digging):
        end_turn(out, "stuck")


def age_effects(out: Outcome, seat: int | None) -> None:
    """§5 BUBBLE TROUBLE, §11: "3 rounds", a round being a complete cycle of players'
    turns: counted at the start of the owner's turns (``TurnStarted`` counts down), so the
    effect ends at the start of its third turn after it was used (ruling W-R40). Here: what
    runs out now bursts or becomes visible."""
    if seat is None:
        return
    state = out.state
    for bubble in state.bubbles:
        if bubble.seat == seat and bubble.rounds <= 1:
            out.emit(ev.BubbleGone(bubble.x, bubble.y, "expired"))
    for worm in state.worms:
        if worm.seat == seat and not worm.visible and worm.invisible_rounds <= 1:
            event = reveal(out.state, worm.id, "expired")
            if event is not None:
                out.emit(event)


def brief(out: Outcome, seat: int) -> None:
    """§7: "The player who's turn it is will be PMed a list of their current weapons. If
    they have crate spy then they will also be sent the contents of each weapon, utility
    crate and donor card on the map. If they have any invisible worms, then they will also
    be told where they are on the board." """
    team = out.state.team(seat)
    if team is None or team.out:
        return
    out.emit(ev.TurnBriefing(seat, team.inventory, spots(out.state, seat)))
    if out.state.stock(seat, "crate_spy") != 0:
        spy_report(out, seat)


def tick_poison(out: Outcome) -> None:
    """§9: every poisoned worm loses 5 per dose at the start of each team's turn, never
    going below 1 health (ruling W-R11: all worms on the board, every turn); a worm in a
    bubble is immune to poison (§5 BUBBLE TROUBLE, ruling W-R44)."""
    for worm in out.state.worms:
        if worm.poison and worm.health > 1 and out.state.bubble_at(worm.square) is None:
            health = max(1, worm.health - POISON_PER_DOSE * worm.poison)
            out.emit(ev.WormDamaged(worm.id, worm.health - health, health, "poison"))


def draw_wind(out: Outcome) -> None:
    """§7: N, E, S or W at strength 1-3, or no wind: 13 equally likely outcomes (W-R12)."""
    roll = out.dice.roll("wind (0 calm; 1-3 N, 4-6 E, 7-9 S, 10-12 W; strength 1-3)", 0, 12)
    if roll == 0:
        out.emit(ev.WindChanged(None, 0))
    else:
        out.emit(ev.WindChanged(WIND_DIRECTIONS[(roll - 1) // 3], (roll - 1) % 3 + 1))
