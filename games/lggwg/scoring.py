"""§7 scoring (the rulebook's "Basics" chapter is missing; L-R20..L-R25) and the end.

* Damage: 1 point per hit point an enemy unit or any flag loses, to the team that dealt
  it (sheep are worth nothing); damage to your own units or flags is penalty damage, taken
  off your score.
* Kills: 5 more points for each enemy soldier killed.
* Executive: his killer also scores his whole team: each remaining unit's hit points and
  the kill bonus (the team is out; its units surrender).
* Forfeit: every unit's remaining hit points are penalty damage, except in flag games.
* Flags: at the end, the last team standing scores every flag still standing.
* The game ends when at most one team is still in, or after the last turn (setting
  ``max_turns``). The highest score wins; equal scores share a place."""

from __future__ import annotations

from games.base import Result
from games.lggwg import events as ev
from games.lggwg.outcome import Outcome
from games.lggwg.state import COLOUR_NAMES, LggwgState, Phase


def end_of_turn(o: Outcome) -> None:
    state = o.state
    living = state.in_teams()
    if len(living) <= 1 or state.turn >= state.max_turns:
        reason = "last team standing" if len(living) == 1 else ("no team left" if not living else "last turn played")
        scores: tuple[tuple[int, int], ...] = ()
        if len(living) == 1:
            flags = sum(u.hp for u in state.units if u.kind == "G")
            if flags:
                scores = ((living[0].seat, flags),)
        o.emit(ev.GameEnded(reason.replace(" ", "_"), scores))
        return
    order = o.dice.shuffle(f"team order, turn {state.turn + 1}", [t.seat for t in living])
    o.emit(ev.TurnStarted(state.turn + 1, order))


def result(state: LggwgState) -> Result:
    teams = sorted(state.teams, key=lambda t: (-t.score, t.seat))
    places: list[tuple[int, ...]] = []
    for t in teams:
        if places and state.team(places[-1][0]).score == t.score:
            places[-1] = (*places[-1], t.seat)
        else:
            places.append((t.seat,))
    finished = state.phase is Phase.OVER
    winners = places[0] if finished and places else ()
    most = max((t.sheep for t in state.teams), default=0)
    sheepinators = [COLOUR_NAMES[t.colour] for t in state.teams if most and t.sheep == most]
    summary = ", ".join(f"{COLOUR_NAMES[t.colour]} {t.score}" for t in teams)
    if sheepinators:
        summary += f"; The Sheepinator: {' and '.join(sheepinators)}"
    return Result(
        finished=finished, winners=winners, ranking=tuple(places),
        scores=tuple((t.seat, float(t.score)) for t in state.teams),
        draw=finished and len(winners) > 1, summary=summary,
    )
