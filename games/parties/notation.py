"""Position notation: one line of text for a whole position, as FEN is for chess.

    <grid> <bots> <parties> <clock> <pending> <end>

* grid: rows from the north, separated by "/"; in a row "M" is a mountain, "F" a forest
  and a number is that many open squares (``3M4`` is 3 open, a mountain, 4 open).
* bots: ``seat@square:strength:score[:policy]`` separated by ","; strength has one
  decimal (``1.2``); the ally policy is written only when it is not "always".
* parties: leader first then followers in file order, ``1>3>2``, separated by ";", or "-".
* clock: ``tick@start_ms+tick_ms/max_ticks`` (tick 0: not started yet).
* pending: this tick's chosen moves ``seat:direction`` separated by ",", or "-".
* end: "-" while playing, "united" or "cap" when over.

See docs/notation-parties.md. ``parse(text)`` raises ``NotationError`` with a precise
reason; ``format_position(state)`` writes it back exactly; ``validate(state)`` lists what
is wrong with a position that parses but cannot happen.
"""

from __future__ import annotations

import re

from games.parties.board import CHOICES, FOREST, MAX_SIZE, MOUNTAIN, OPEN, name, parse_square
from games.parties.notation_write import ENDS, format_bot, format_grid, format_position
from games.parties.state import ALLY_POLICIES, DEFAULT_POLICY, Bot, PartiesState, tenths

__all__ = ["ENDS", "NotationError", "format_bot", "format_grid", "format_position", "parse", "validate"]


class NotationError(ValueError):
    """The text is not a position (a syntax error, not an impossible position)."""


# --- parsing -----------------------------------------------------------------------------


def parse_grid(text: str) -> tuple[str, ...]:
    if text == "-":
        return ()
    rows = []
    for number, row in enumerate(text.split("/"), start=1):
        out = []
        for token in re.findall(r"\d+|.", row):
            if token.isdigit():
                if token.startswith("0"):
                    raise NotationError(f"grid row {number}: {token!r} is not a run of open squares (1 or more, no leading 0)")
                out.append(OPEN * int(token))
            elif token in (MOUNTAIN, FOREST):
                out.append(token)
            else:
                raise NotationError(
                    f"grid row {number}: {token!r} is not terrain (M mountain, F forest, a number of open squares)"
                )
        rows.append("".join(out))
    return tuple(rows)


_BOT = re.compile(r"(\d+)@([a-z]\d+):(\d+)\.(\d):(-?\d+)(?::([a-z]+))?$")


def parse_bot(text: str) -> Bot:
    match = _BOT.match(text)
    if not match:
        raise NotationError(
            f"bots: {text!r} is not seat@square:strength:score[:policy] (like 1@c4:1.2:0)"
        )
    seat, square, whole, tenth, score, policy = match.groups()
    if policy is not None and policy not in ALLY_POLICIES:
        raise NotationError(f"bots: seat {seat}: {policy!r} is not an ally policy ({', '.join(ALLY_POLICIES)})")
    try:
        x, y = parse_square(square)
    except ValueError as exc:
        raise NotationError(f"bots: seat {seat}: {exc}") from None
    return Bot(int(seat), x, y, int(whole) * 10 + int(tenth), int(score), policy or DEFAULT_POLICY)


def parse_parties(text: str) -> tuple[tuple[int, ...], ...]:
    if text == "-":
        return ()
    parties = []
    for part in text.split(";"):
        if not re.fullmatch(r"\d+(>\d+)+", part):
            raise NotationError(f"parties: {part!r} is not leader>follower>... (like 1>3>2)")
        parties.append(tuple(int(s) for s in part.split(">")))
    return tuple(parties)


_CLOCK = re.compile(r"(\d+)@(\d+)\+(\d+)/(\d+)$")


def parse(text: str) -> PartiesState:
    fields = text.split()
    if len(fields) != 6:
        raise NotationError(
            f"expected 6 fields (grid bots parties clock pending end) separated by spaces, got {len(fields)}"
        )
    grid, bots_text, parties_text, clock, pending_text, end = fields
    rows = parse_grid(grid)
    bots = () if bots_text == "-" else tuple(parse_bot(t) for t in bots_text.split(","))
    match = _CLOCK.match(clock)
    if not match:
        raise NotationError(f"clock: {clock!r} is not tick@start_ms+tick_ms/max_ticks (like 3@0+10000/600)")
    tick, start, length, cap = (int(g) for g in match.groups())
    pending = []
    if pending_text != "-":
        for item in pending_text.split(","):
            m = re.fullmatch(r"(\d+):(\w+)", item)
            if not m or m.group(2) not in CHOICES:
                raise NotationError(f"pending: {item!r} is not seat:direction ({', '.join(CHOICES)})")
            pending.append((int(m.group(1)), m.group(2)))
    ends = {v: k for k, v in ENDS.items()}
    if end not in ends:
        raise NotationError(f"end: {end!r} is not '-', 'united' or 'cap'")
    return PartiesState(
        rows=rows, bots=bots, parties=parse_parties(parties_text), tick=tick, tick_start_ms=start,
        tick_ms=length, max_ticks=cap, pending=tuple(pending), ended=ends[end],
    )


# --- validation ------------------------------------------------------------------------------


def validate(state: PartiesState) -> list[str]:
    """What makes this position impossible (empty if it could happen)."""
    problems: list[str] = []
    rows = state.rows
    if rows:
        if len({len(r) for r in rows}) != 1:
            problems.append(f"grid rows differ in width: {[len(r) for r in rows]}")
        if not (1 <= len(rows) <= MAX_SIZE and 1 <= len(rows[0]) <= MAX_SIZE):
            problems.append(f"the grid is {len(rows[0])}x{len(rows)}; at most {MAX_SIZE}x{MAX_SIZE}")
    terrain = state.terrain
    seats = [b.seat for b in state.bots]
    if seats != sorted(set(seats)):
        problems.append(f"bots must be listed once each by seat: {seats}")
    squares: dict[tuple[int, int], int] = {}
    for bot in state.bots:
        if terrain.blocked(bot.square):
            problems.append(f"bot {bot.seat} at {name(bot.square)} is off the grid or on an obstacle")
        if bot.square in squares:
            problems.append(f"bots {squares[bot.square]} and {bot.seat} share {name(bot.square)}")
        squares[bot.square] = bot.seat
        if bot.strength < 1:
            problems.append(f"bot {bot.seat} has strength {tenths(bot.strength)}; the least is 0.1 (§5.4)")
    member: dict[int, int] = {}
    for party in state.parties:
        for seat in party:
            if seat not in seats:
                problems.append(f"party {'>'.join(map(str, party))}: there is no bot {seat}")
            if seat in member:
                problems.append(f"bot {seat} is in two parties")
            member[seat] = party[0]
    if list(state.parties) != sorted(state.parties):
        problems.append("parties must be listed by their leader's seat")
    movers = {s for s in seats if member.get(s, s) == s}
    for seat, _direction in state.pending:
        if seat not in movers:
            problems.append(f"bot {seat} has a pending move but is not a solo or a leader")
    if [s for s, _ in state.pending] != sorted({s for s, _ in state.pending}):
        problems.append("pending moves must be listed once each by seat")
    if state.tick > state.max_ticks:
        problems.append(f"tick {state.tick} is past the tick cap {state.max_ticks}")
    if state.tick == 0 and state.pending:
        problems.append("moves are pending before the first tick")
    if state.ended and state.pending:
        problems.append("moves are pending in a finished game")
    return problems
