"""Rounds (§3.1 the synchronised start, §6 two rounds win, §7.2 the round timer) and the
work the scheduler does for them."""

from __future__ import annotations

from games.base import SCHEDULER, ActorKind, Command, Event, RuleViolation, Work
from games.wormlord import events as ev
from games.wormlord.board import Colour
from games.wormlord.checks import seconds
from games.wormlord.commands import EndRound, StartRound
from games.wormlord.state import ROUNDS_TO_WIN, Phase, WormlordState


def _referee_only(command: Command, what: str) -> None:
    if command.actor.kind not in (ActorKind.SCHEDULER, ActorKind.REFEREE):
        raise RuleViolation("§3.1", f"Only the referee {what}.")


def start_round(state: WormlordState, command: StartRound) -> tuple[Event, ...]:
    _referee_only(command, "starts a round")
    due = 1 if state.phase is Phase.WAITING else state.round + 1 if state.phase is Phase.BREAK else None
    if due is None or command.round != due:
        raise RuleViolation("§3.1", f"Round {command.round} is not waiting to start.")
    timing = state.timing
    starts = command.at_ms + timing.countdown_ms
    ends = None if timing.round_ms is None else starts + timing.round_ms
    return (ev.RoundStarted(command.round, starts, ends, starts + timing.knot_interval_ms),)


def end_round(state: WormlordState, command: EndRound) -> tuple[Event, ...]:
    """§7.2: "the player who occupies the most spaces wins, with Objective spaces counting
    double. If there is a tie, play again." """
    _referee_only(command, "ends a round")
    if state.phase is not Phase.RUNNING or command.round != state.round or state.ends_at_ms is None:
        raise RuleViolation("§7.2", f"Round {command.round} is not being played against the clock.")
    if command.at_ms < state.ends_at_ms:
        raise RuleViolation(
            "§7.2", f"Round {state.round} has {seconds(state.ends_at_ms - command.at_ms)} left."
        )
    table = scores(state)
    best = max(points for _, points in table)
    leaders = tuple(colour for colour, points in table if points == best)
    if len(leaders) > 1:
        return (ev.RoundTied(state.round, leaders, command.at_ms, table),)
    return round_won(state, leaders[0], "time", command.at_ms, table)


def scores(state: WormlordState) -> tuple[tuple[Colour, int], ...]:
    """§7.2: spaces occupied, Objectives double (bases are everyone's alike: not counted, WL-R9)."""
    return tuple(
        (s.colour, sum(2 if state.terrain(k.square) == "*" else 1 for k in state.knots if k.colour is s.colour))
        for s in state.sides
    )


def round_won(
    state: WormlordState, colour: Colour, reason: str, at_ms: int, table: tuple[tuple[Colour, int], ...] = ()
) -> tuple[Event, ...]:
    events: tuple[Event, ...] = (ev.RoundWon(state.round, colour, reason, at_ms, table),)
    side = state.side(colour)
    if side.wins + 1 >= ROUNDS_TO_WIN:
        events += (ev.GameWon(colour, side.seats),)
    return events


def scheduled_work(state: WormlordState) -> tuple[Work, ...]:
    """Round 1 starts at once (``now``); later rounds after the break (``at``, ruling WL-R8);
    under §7.2 the round's clock rings at its end. There is never deadline work (WL-R10)."""
    if state.phase is Phase.WAITING:
        return (Work(("round", 1, "start"), "now", StartRound(actor=SCHEDULER, round=1)),)
    if state.phase is Phase.BREAK:
        nxt = state.round + 1
        at = (state.ended_at_ms or 0) + state.timing.break_ms
        return (Work(("round", nxt, "start"), "at", StartRound(actor=SCHEDULER, round=nxt), at_ms=at),)
    if state.phase is Phase.RUNNING and state.ends_at_ms is not None:
        command = EndRound(actor=SCHEDULER, round=state.round)
        return (Work(("round", state.round, "clock"), "at", command, at_ms=state.ends_at_ms),)
    return ()
