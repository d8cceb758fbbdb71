"""The team turn (§7): who may act, ending the turn, passing it on, and the end of the game."""

from __future__ import annotations

from games.base import Actor, ActorKind, RuleViolation
from games.worms import events as ev
from games.worms.blast import explode
from games.worms.blast_specs import doubled
from games.worms.items import blast_of
from games.worms.outcome import Outcome
from games.worms.state import Phase, Stage, Worm, WormsState

MAX_WORMS_PER_TURN = 3
MOVES_PER_WORM = 3


def acting_seat(state: WormsState, actor: Actor) -> int:
    """The seat giving the order, which must be the seat to act."""
    if state.phase is not Phase.PLAYING:
        raise RuleViolation("§7", "The game is not being played: there is no turn to take.")
    if actor.kind is not ActorKind.PLAYER and actor.seat is None and state.seat is not None:
        # the referee (a deadline's bot turn) or a moderator plays for the seat to act
        actor = Actor(actor.kind, state.seat)
    if actor.seat is None:
        raise RuleViolation("§7", "Only a player can give orders for a team.")
    if actor.seat != state.seat:
        raise RuleViolation("§7", f"It is not your turn: seat {state.seat} is to act.")
    if state.stage is not Stage.ACTING:
        raise RuleViolation("§7", "Your turn has not started yet; wait for the turn-start phase.")
    return actor.seat


def own_worm(state: WormsState, seat: int, worm_id: str) -> Worm:
    worm = state.worm(worm_id)
    if worm is None:
        team = state.team_of_letter(worm_id[:1].upper())
        if team is not None and team.seat == seat:
            raise RuleViolation("§7", f"{worm_id} is dead and cannot act.")
        raise RuleViolation("§7", f"There is no worm {worm_id} on your team.")
    if worm.seat != seat:
        raise RuleViolation("§7", f"{worm_id} is not your worm.")
    return worm


def check_may_act(state: WormsState, worm: Worm) -> None:
    """§2, §7: up to 3 worms of the team act in a turn."""
    progress = state.progress
    if progress.of(worm.id) is None and len(progress.worms) >= MAX_WORMS_PER_TURN:
        used = ", ".join(p.worm for p in progress.worms)
        raise RuleViolation(
            "§7", f"Only 3 worms may act in a turn and {used} already have; {worm.id} cannot."
        )


def next_seat(state: WormsState) -> tuple[int | None, bool]:
    """The next seat in turn order whose team is still in, and whether the order wrapped
    round (a round is over)."""
    order = state.order
    if not order or state.seat not in order:
        return None, False
    i = order.index(state.seat)
    for k in range(1, len(order) + 1):
        j = (i + k) % len(order)
        team = state.team(order[j])
        if team is not None and not team.out:
            return order[j], j <= i
    return None, False


def settle(out: Outcome) -> None:
    """§7: teams with no worms are out, even if they never played; the last team standing
    wins; if the last turn killed everyone it is a draw."""
    state = out.state
    if state.phase is not Phase.PLAYING:
        return
    for team in state.teams:
        if not team.out and not state.worms_of(team.seat):
            out.emit(ev.TeamEliminated(team.seat, "no worms left"))
    active = out.state.active_teams()
    if len(active) == 1:
        out.emit(ev.GameWon(active[0].seat))
    elif not active:
        out.emit(ev.GameDrawn())


def end_turn(out: Outcome, reason: str) -> None:
    """Finish the acting team's turn: a burning dynamite goes off, then the turn passes."""
    fuse = out.state.progress.fuse
    if fuse is not None:
        explode(out, fuse, doubled(blast_of("dynamite"), 2 if out.state.progress.double else 1))
    settle(out)
    state = out.state
    if state.phase is not Phase.PLAYING or state.seat is None:
        return
    following, round_over = next_seat(state)
    out.emit(ev.TurnEnded(state.turn, state.seat, reason, following, round_over))


def finish(out: Outcome) -> None:
    """After a step: settle deaths and the end; end the turn if a step ended it, or if
    the acting team has no worms left."""
    settle(out)
    state = out.state
    if state.phase is not Phase.PLAYING or state.stage is not Stage.ACTING:
        return
    if out.turn_over is not None:
        end_turn(out, out.turn_over)
    elif state.seat is not None and not state.worms_of(state.seat):
        end_turn(out, "no worms left")
