"""Meetings after the moves of a tick (§1, §2, §3; P-R7).

Two groups (a solo or a party) meet when a bot of one stands on one of the eight squares
around a bot of the other. Meetings are settled one at a time, the pair with the lowest
leader seats first, and the position is looked at again after each: a join or a battle
changes who is next to whom. A pair of solos that declined is not asked again this tick,
and a leader who lost and respawned meets nobody until the next tick (P-R7)."""

from __future__ import annotations

from games.base import Event
from games.dice import Dice
from games.parties.board import adjacent, near_any
from games.parties.events import AllianceDeclined, AllianceFormed, BattleFought, Bout, PartyJoined
from games.parties.evolve import evolve
from games.parties.state import PartiesState

BOUTS = 3
DIE = 20


def encounter_events(state: PartiesState, dice: Dice) -> tuple[PartiesState, list[Event]]:
    events: list[Event] = []
    settled: set[tuple[int, int]] = set()
    respawned: set[int] = set()
    while True:
        pair = _next_meeting(state, settled, respawned)
        if pair is None:
            return state, events
        a, b = pair
        new = _settle(state, a, b, dice)
        if isinstance(new, AllianceDeclined):
            settled.add((a[0], b[0]))
        if isinstance(new, BattleFought):
            respawned.add(new.loser)
        events.append(new)
        state = evolve(state, new)


def _next_meeting(
    state: PartiesState, settled: set[tuple[int, int]], respawned: set[int]
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    groups = [g for g in state.groups() if not (len(g) == 1 and g[0] in respawned)]
    for i, a in enumerate(groups):
        for b in groups[i + 1 :]:
            if (a[0], b[0]) in settled:
                continue
            squares_a = [state.bot(s).square for s in a]
            if any(adjacent(sa, state.bot(s).square) for s in b for sa in squares_a):
                return a, b
    return None


def _settle(state: PartiesState, a: tuple[int, ...], b: tuple[int, ...], dice: Dice) -> Event:
    if len(a) == 1 and len(b) == 1:
        return _solos(state, a[0], b[0])
    if len(a) == 1 or len(b) == 1:
        solo, party = (a, b) if len(a) == 1 else (b, a)
        if state.bot(party[0]).strength >= state.bot(solo[0]).strength:
            return PartyJoined(solo[0], party[0])
        return battle(state, a, b, "refused to join", dice)
    return battle(state, a, b, "party against party", dice)


def lead_order(state: PartiesState, one: int, other: int) -> tuple[int, int]:
    """(leader, follower) of two solos: greater strength, then higher score (§1.2), then
    the lower seat (P-R10)."""
    def rank(seat: int) -> tuple[int, int, int]:
        bot = state.bot(seat)
        return -bot.strength, -bot.score, seat

    first, second = sorted((one, other), key=rank)
    return first, second


def _solos(state: PartiesState, one: int, other: int) -> Event:
    leader, follower = lead_order(state, one, other)
    wants = {"always": (True, True), "never": (False, False), "lead": (True, False), "follow": (False, True)}
    refused = []
    for seat in (one, other):
        as_leader, as_follower = wants[state.bot(seat).ally]
        if not (as_leader if seat == leader else as_follower):
            refused.append(seat)
    if refused:
        return AllianceDeclined((one, other), tuple(refused))
    return AllianceFormed(leader, follower)


def battle(state: PartiesState, a: tuple[int, ...], b: tuple[int, ...], cause: str, dice: Dice) -> BattleFought:
    """§2.2 to §2.4. Every bout is rolled, even when two have settled it; a tied bout is
    fought again (P-R15)."""
    totals = (state.total_strength(a), state.total_strength(b))
    bouts: list[Bout] = []
    wins = [0, 0]
    for number in range(1, BOUTS + 1):
        attempt = 0
        while True:
            again = f" (again {attempt})" if attempt else ""
            rolls = (
                dice.roll(f"battle {a[0]} v {b[0]}, bout {number}{again}: D20 for {a[0]}", 1, DIE),
                dice.roll(f"battle {a[0]} v {b[0]}, bout {number}{again}: D20 for {b[0]}", 1, DIE),
            )
            scores = (rolls[0] * totals[0], rolls[1] * totals[1])
            if scores[0] == scores[1]:
                bouts.append(Bout(number, rolls, scores, None))
                attempt += 1
                continue
            side = 0 if scores[0] > scores[1] else 1
            wins[side] += 1
            bouts.append(Bout(number, rolls, scores, (a, b)[side][0]))
            break
    winners, losers = (a, b) if wins[0] > wins[1] else (b, a)
    awards = ((winners[0], 2), *((s, 1) for s in winners[1:]), (losers[0], -1))
    absorbed = losers[1:]
    x, y = _respawn_square(state, losers[0], dice)
    return BattleFought(
        sides=(a, b), cause=cause, bouts=tuple(bouts), winner=winners[0], loser=losers[0],
        awards=tuple(sorted(awards)), absorbed=absorbed, respawn_x=x, respawn_y=y,
    )


def _respawn_square(state: PartiesState, loser: int, dice: Dice) -> tuple[int, int]:
    """A random free square (§2.4): open, nobody on it and, where there is one, nobody on
    the eight squares around it, so the respawned bot meets nobody at once (P-R16)."""
    others = [b.square for b in state.bots if b.seat != loser]
    free = [sq for sq in state.terrain.open_squares() if sq not in others]
    spaced = [sq for sq in free if not near_any(sq, others, 1)] or free
    index = dice.roll(f"respawn of {loser} (of {len(spaced)} free squares, row by row)", 0, len(spaced) - 1)
    return spaced[index]
