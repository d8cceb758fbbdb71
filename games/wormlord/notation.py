"""Positions as text (docs/notation-wormlord.md), like chess's FEN::

    ...2.../.#...#./.*...*./#..A..#/.*...*./.#.a.#./...1... a1:13:-:3000:0,b2:15:-:3000:0 by=d4:1@1500

``parse`` checks the syntax only and names the field at fault; ``validate`` reports
positions that the rules could never reach (they can still be loaded on purpose).
"""

from __future__ import annotations

import re
from dataclasses import replace

from games.wormlord.board import BASE_DIGITS, SIZE, SQUARES, Colour, is_square, name, terrain_at
from games.wormlord.maps import grid_problems
from games.wormlord.notation_write import DEFAULTS, NEW, first_seat, format_position
from games.wormlord.state import ROUNDS_TO_WIN, STRINGS, Knot, Phase, Side, Timing, WormlordState

__all__ = ["NotationError", "format_position", "parse", "validate", "with_bases"]

_SIDE = re.compile(r"^([a-d])(\d+(?:\+\d+)*):(\d+):([a-g][1-7]|-):(-?\d+):(\d+)$")
_BY = re.compile(r"^([a-g][1-7]):(\d+)@(-?\d+)$")


class NotationError(ValueError):
    """Text that is not a position; the message names the part at fault."""


# --- reading ---------------------------------------------------------------------------------


def parse(text: str) -> WormlordState:
    parts = text.split()
    if parts == [NEW]:
        return WormlordState()
    if len(parts) < 2:
        raise NotationError("a position is the board, the sides and optional key=value fields (or 'new')")
    grid, letters = _board(parts[0])
    sides = _sides(parts[1])
    fields = dict(DEFAULTS)
    for token in parts[2:]:
        key, eq, value = token.partition("=")
        if not eq:
            raise NotationError(f"{token!r} is not a key=value field")
        if key not in DEFAULTS:
            raise NotationError(f"unknown field {key!r} (known: {', '.join(DEFAULTS)})")
        fields[key] = value
    try:
        phase = Phase(fields["phase"])
    except ValueError:
        raise NotationError(
            f"phase: {fields['phase']!r} is not one of {', '.join(p.value for p in Phase if p is not Phase.NEW)}"
        ) from None
    timing = Timing(
        knot_interval_ms=_int(fields, "knot"), untie_ms=_int(fields, "untie"),
        countdown_ms=_int(fields, "countdown"), break_ms=_int(fields, "break"),
        round_ms=_opt_int(fields, "limit"),
    )
    state = WormlordState(
        phase=phase, map_id=fields["map"], grid=grid, sides=sides, round=_int(fields, "round"),
        starts_at_ms=_opt_int(fields, "start"), ends_at_ms=_opt_int(fields, "end"),
        ended_at_ms=_opt_int(fields, "ended"), timing=timing,
    )
    placed = _by(fields["by"])
    knots = []
    for square, letter in letters:
        colour = Colour.of_letter(letter)
        seat, at = placed.pop(square, (None, 0))
        knot = Knot(square, colour, 0, at)
        knots.append(replace(knot, seat=seat if seat is not None else first_seat(state, knot)))
    if placed:
        raise NotationError(f"by: {', '.join(sorted(placed))} hold(s) no knot")
    return with_bases(replace(state, knots=tuple(knots)))


def _board(text: str) -> tuple[tuple[str, ...], list[tuple[str, str]]]:
    rows = text.split("/")
    if len(rows) != SIZE:
        raise NotationError(f"board: {len(rows)} rows, not {SIZE} (rows are separated by '/')")
    grid, knots = [], []
    for i, row in enumerate(rows):
        number = SIZE - i
        if len(row) != SIZE:
            raise NotationError(f"board: row {number} has {len(row)} squares, not {SIZE}: {row!r}")
        terrain = ""
        for c, ch in enumerate(row):
            if ch in "abcd":
                knots.append((name(c, number - 1), ch))
                terrain += "."
            elif ch in "ABCD":
                knots.append((name(c, number - 1), ch))
                terrain += "*"
            elif ch in ".#*" + BASE_DIGITS:
                terrain += ch
            else:
                raise NotationError(
                    f"board: {name(c, number - 1)} is {ch!r}; a square is one of . # * 1-4 a-d A-D"
                )
        grid.append(terrain)
    return tuple(grid), sorted(knots, key=lambda k: SQUARES.index(k[0]))


def _sides(text: str) -> tuple[Side, ...]:
    if text == "-":
        return ()
    sides = []
    for spec in text.split(","):
        m = _SIDE.match(spec)
        if not m:
            raise NotationError(
                f"sides: {spec!r} is not <colour letter a-d><seats joined by +>:<supply>:<hq square or ->"
                ":<next placement ms>:<rounds won>, e.g. a1:15:-:0:0"
            )
        letter, seats, supply, hq, nxt, wins = m.groups()
        sides.append(Side(
            Colour.of_letter(letter), tuple(int(s) for s in seats.split("+")), "", int(supply),
            None if hq == "-" else hq, int(nxt), int(wins),
        ))
    return tuple(sides)


def _by(text: str) -> dict[str, tuple[int, int]]:
    placed: dict[str, tuple[int, int]] = {}
    for item in filter(None, text.split(",")):
        m = _BY.match(item)
        if not m:
            raise NotationError(f"by: {item!r} is not <square>:<seat>@<ms>, e.g. c3:2@1500")
        placed[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return placed


def _int(fields: dict[str, str], key: str) -> int:
    value = _opt_int(fields, key)
    if value is None:
        raise NotationError(f"{key}: expected a whole number, got '-'")
    return value


def _opt_int(fields: dict[str, str], key: str) -> int | None:
    value = fields[key]
    if value == "-":
        return None
    if not re.fullmatch(r"-?\d+", value):
        raise NotationError(f"{key}: expected a whole number or '-', got {value!r}")
    return int(value)


# --- checking --------------------------------------------------------------------------------


def with_bases(state: WormlordState) -> WormlordState:
    """Fill each side's base from the grid (the notation does not repeat it)."""
    sides = tuple(
        replace(s, base=next((q for q in SQUARES if terrain_at(state.grid, q) == s.colour.digit), ""))
        for s in state.sides
    )
    return replace(state, sides=sides)


def validate(state: WormlordState) -> list[str]:
    """Everything that makes ``state`` a position the rules could not reach (empty if none)."""
    if state.phase is Phase.NEW:
        return []
    problems = grid_problems(state.grid, len(state.sides))
    colours = [s.colour for s in state.sides]
    if colours != list(Colour)[: len(colours)]:
        problems.append(f"sides must be {', '.join(list(Colour)[:len(colours)])} in that order")
    seats = [seat for s in state.sides for seat in s.seats]
    if len(seats) != len(set(seats)):
        problems.append("a seat plays for two colours")
    if len({len(s.seats) for s in state.sides}) > 1 or any(len(s.seats) > 2 for s in state.sides):
        problems.append("sides are one player each, or teams of two each")
    for side in state.sides:
        problems += _side_problems(state, side)
    for knot in state.knots:
        if knot.colour not in colours:
            problems.append(f"{knot.square} holds a {knot.colour} knot but no side is {knot.colour}")
        elif knot.seat not in state.side(knot.colour).seats:
            problems.append(f"{knot.square}: seat {knot.seat} does not play {knot.colour}")
    problems += _phase_problems(state)
    return problems


def _side_problems(state: WormlordState, side: Side) -> list[str]:
    problems = []
    on_board = sum(1 for k in state.knots if k.colour is side.colour)
    if side.supply + on_board != STRINGS:
        problems.append(
            f"{side.colour} has {side.supply} strings in supply and {on_board} on the board: "
            f"{side.supply + on_board}, not {STRINGS}"
        )
    if side.hq is not None:
        knot = state.knot_at(side.hq) if is_square(side.hq) else None
        if knot is None or knot.colour is not side.colour:
            problems.append(f"{side.colour}'s headquarters on {side.hq} is not on a {side.colour} knot")
        elif state.terrain(side.hq) == "*":
            problems.append(f"{side.colour}'s headquarters on {side.hq} stands on an Objective space")
    if side.wins > ROUNDS_TO_WIN:
        problems.append(f"{side.colour} has won {side.wins} rounds; the game ends at {ROUNDS_TO_WIN}")
    return problems


def _phase_problems(state: WormlordState) -> list[str]:
    problems = []
    winners = [s.colour for s in state.sides if s.wins >= ROUNDS_TO_WIN]
    if (state.phase is Phase.OVER) != (len(winners) == 1):
        problems.append("the game is over exactly when one colour has won 2 rounds")
    if state.phase is Phase.RUNNING and state.starts_at_ms is None:
        problems.append("a running round needs its start time")
    if state.phase is Phase.RUNNING:
        for side in state.sides:
            if side.colour in winners or state.objectives_held(side.colour) >= 3:
                problems.append(f"{side.colour} holds 3 Objectives (or has won) but the round still runs")
    if state.phase is Phase.BREAK and state.ended_at_ms is None:
        problems.append("a break needs the time the round ended")
    if state.phase is Phase.WAITING and (state.round != 0 or state.knots):
        problems.append("before round 1 the round is 0 and the board is empty")
    if state.timing.round_ms is not None and state.phase is Phase.RUNNING and state.ends_at_ms is None:
        problems.append("a round under the time limit needs its end time")
    return problems
