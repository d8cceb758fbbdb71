"""``evolve``: apply one event. Never checks, raises or rolls (replay is a fold)."""

from __future__ import annotations

from dataclasses import replace

from games.base import Event
from games.lggwg import events as ev
from games.lggwg.board import Terrain
from games.lggwg.sight import refresh_memory
from games.lggwg.state import LggwgState, Mine, Phase, Wear


def _add_scores(state: LggwgState, scores: tuple[tuple[int, int], ...]) -> LggwgState:
    for seat, points in scores:
        team = state.team(seat)
        if team is not None:
            state = state.with_team(seat, score=team.score + points)
    return state


def apply(state: LggwgState, event: Event) -> LggwgState:
    match event:
        case ev.GameStarted():
            state = LggwgState(
                phase=Phase.ORDERS, map=event.map, terrain=event.terrain, teams=event.teams,
                units=event.units, max_turns=event.max_turns, flag_game=event.flag_game,
            )
            return refresh_memory(state)
        case ev.TurnStarted():
            state = replace(
                state, turn=event.turn, team_order=event.team_order, phase=Phase.ORDERS,
                teams=tuple(replace(t, submitted=False, orders=()) for t in state.teams),
            )
            return refresh_memory(state)
        case ev.OrdersSubmitted():
            return state.with_team(event.team, orders=event.orders, submitted=True)
        case ev.TeamSubmitted():
            return state.with_team(event.team, submitted=True)
        case ev.SheepStepped() | ev.UnitMoved():
            return state.with_unit(event.unit, x=event.to[0], y=event.to[1])
        case ev.ShotFired():
            return state
        case ev.UnitDamaged():
            return _add_scores(state.with_unit(event.unit, hp=event.hp), event.scores)
        case ev.UnitHealed():
            return state.with_unit(event.unit, hp=event.hp)
        case ev.UnitDied():
            unit = state.unit(event.unit)
            state = _add_scores(state, event.scores)
            if unit is None:
                return state
            killer = state.team(event.killer)
            if killer is not None and killer.seat != unit.team:
                if unit.kind == "W":
                    state = state.with_team(killer.seat, sheep=killer.sheep + 1)
                elif unit.type.soldier:
                    state = state.with_team(killer.seat, kills=killer.kills + 1)
            return replace(state, units=tuple(u for u in state.units if u.id != event.unit))
        case ev.TerrainChanged():
            x, y = event.square
            state = state.with_terrain(event.square, Terrain(event.terrain))
            others = tuple(w for w in state.wear if (w.x, w.y) != (x, y))
            wear = (*others, Wear(x, y, event.wear)) if event.wear else others
            return replace(state, wear=tuple(sorted(wear, key=lambda w: (w.y, w.x))))
        case ev.Exploded():
            return state
        case ev.MinePlaced():
            unit = state.unit(event.unit)
            if unit is not None:
                state = state.with_unit(unit.id, mines=max(0, unit.mines - 1))
            mines = (*state.mines, Mine(event.square[0], event.square[1], event.team))
            return replace(state, mines=tuple(sorted(mines, key=lambda m: (m.y, m.x))))
        case ev.MineExploded():
            return replace(state, mines=tuple(m for m in state.mines if m.square != tuple(event.square)))
        case ev.OrderResolved():
            steps = state.last_steps if event.record.step > 1 else ()
            return refresh_memory(replace(state, last_steps=(*steps, event.record)))
        case ev.TeamOut():
            state = _add_scores(state.with_team(event.team, out=event.reason, orders=()), event.scores)
            return state
        case ev.GameEnded():
            return replace(_add_scores(state, event.scores), phase=Phase.OVER, end=event.reason)
    return state
