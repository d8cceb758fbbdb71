"""Applying events: never checks, raises or rolls (replay is a fold)."""

from __future__ import annotations

from dataclasses import replace

from games.base import Event
from games.parties.events import (
    AllianceFormed,
    AllyPolicySet,
    BattleFought,
    BotMoved,
    GameEnded,
    GameSetUp,
    MoveChosen,
    PartyJoined,
    Squeezed,
    TickClosed,
    TickStarted,
)
from games.parties.state import Bot, PartiesState


def evolve(state: PartiesState, event: Event) -> PartiesState:
    match event:
        case GameSetUp():
            bots = tuple(Bot(b.seat, b.x, b.y, b.strength) for b in sorted(event.bots, key=lambda b: b.seat))
            return PartiesState(rows=event.rows, bots=bots, tick_ms=event.tick_ms, max_ticks=event.max_ticks)
        case TickStarted():
            return replace(state, tick=event.tick, tick_start_ms=event.start_ms, pending=())
        case MoveChosen():
            pending = {**dict(state.pending), event.seat: event.direction}
            return replace(state, pending=tuple(sorted(pending.items())))
        case AllyPolicySet():
            return state.with_bot(event.seat, ally=event.policy)
        case TickClosed():
            return replace(state, pending=())
        case BotMoved():
            return state.with_bot(event.seat, x=event.x, y=event.y)
        case Squeezed():
            return state.with_bot(event.seat, strength=event.strength)
        case AllianceFormed():
            return replace(state, parties=tuple(sorted((*state.parties, (event.leader, event.follower)))))
        case PartyJoined():
            return replace(
                state, parties=tuple((*p, event.seat) if p[0] == event.leader else p for p in state.parties)
            )
        case BattleFought():
            return _battle(state, event)
        case GameEnded():
            return replace(state, ended=event.reason)
    return state


def _battle(state: PartiesState, event: BattleFought) -> PartiesState:
    winners = next(s for s in event.sides if s[0] == event.winner)
    parties = [p for p in state.parties if p[0] not in (event.winner, event.loser)]
    joined = (*winners, *event.absorbed)
    if len(joined) > 1:
        parties.append(joined)
    scores = dict(event.awards)
    bots = tuple(replace(b, score=b.score + scores.get(b.seat, 0)) for b in state.bots)
    state = replace(state, bots=bots, parties=tuple(sorted(parties)))
    return state.with_bot(event.loser, x=event.respawn_x, y=event.respawn_y)
