"""Moving at the end of a tick (§4, §5): leaders and solos step, followers walk single
file into the square vacated by the bot ahead, squeezes cost strength."""

from __future__ import annotations

from games.base import Event
from games.parties.board import STAY, Square, step
from games.parties.events import BotMoved, MoveBlocked, Squeezed
from games.parties.state import PartiesState

SOLO_SQUEEZE = 1  # tenths (§5.3)
LEADER_SQUEEZE = 2
FOLLOWER_SQUEEZE = 1
MIN_STRENGTH = 1  # 0.1 (§5.4)


def movement_events(state: PartiesState, moves: dict[int, str]) -> list[Event]:
    """``moves`` has a direction for every solo and leader. A target was checked when the
    move was chosen (on the grid, open, not taken at the tick's start); two movers choosing
    the same square both stay (P-R8)."""
    targets: dict[int, Square] = {}
    for leader, direction in sorted(moves.items()):
        if direction != STAY:
            targets[leader] = step(state.bot(leader).square, direction)
    claims: dict[Square, list[int]] = {}
    for leader, target in targets.items():
        claims.setdefault(target, []).append(leader)
    events: list[Event] = []
    for leader, target in sorted(targets.items()):
        if len(claims[target]) > 1:
            events.append(MoveBlocked(leader, moves[leader], *target))
            continue
        events += _walk(state, state.group_of(leader), target)
    return events


def _walk(state: PartiesState, group: tuple[int, ...], target: Square) -> list[Event]:
    terrain = state.terrain
    events: list[Event] = []
    ahead = target
    for i, seat in enumerate(group):
        bot = state.bot(seat)
        events.append(BotMoved(seat, bot.x, bot.y, *ahead))
        if terrain.squeezed(bot.square, ahead):
            cost = SOLO_SQUEEZE if len(group) == 1 else LEADER_SQUEEZE if i == 0 else FOLLOWER_SQUEEZE
            after = max(MIN_STRENGTH, bot.strength - cost)
            events.append(Squeezed(seat, bot.strength - after, after))
        ahead = bot.square
    return events
