"""The notation writer (``games.wormlord.notation``): a position as one line of text.

``WormlordState.__repr__`` prints with it, so it imports the state only for type checking.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.wormlord.board import SIZE, name, terrain_at

if TYPE_CHECKING:
    from games.wormlord.state import Knot, WormlordState

NEW = "new"
#: field, default (as text) — printed in this order, and only when not the default
DEFAULTS = {
    "phase": "running", "round": "1", "start": "0", "end": "-", "ended": "-", "by": "",
    "map": "", "knot": "3000", "untie": "1000", "countdown": "3000", "break": "10000", "limit": "-",
}


def format_position(state: WormlordState) -> str:
    if state.phase == NEW:  # the StrEnum Phase.NEW
        return NEW
    rows = []
    for r in range(SIZE - 1, -1, -1):
        row = ""
        for c in range(SIZE):
            square = name(c, r)
            knot = state.knot_at(square)
            terrain = terrain_at(state.grid, square)
            if knot is None:
                row += terrain
            else:
                row += knot.colour.letter.upper() if terrain == "*" else knot.colour.letter
        rows.append(row)
    sides = ",".join(
        f"{s.colour.letter}{'+'.join(map(str, s.seats))}:{s.supply}:{s.hq or '-'}:{s.next_at_ms}:{s.wins}"
        for s in state.sides
    )
    fields = _fields(state)
    extra = [f"{k}={v}" for k, v in fields.items() if v != DEFAULTS[k]]
    return " ".join(["/".join(rows), sides or "-", *extra])


def _fields(state: WormlordState) -> dict[str, str]:
    t = state.timing
    by = ",".join(
        f"{k.square}:{k.seat}@{k.at_ms}" for k in state.knots if (k.seat, k.at_ms) != (first_seat(state, k), 0)
    )
    return {
        "phase": state.phase.value, "round": str(state.round), "start": _opt(state.starts_at_ms),
        "end": _opt(state.ends_at_ms), "ended": _opt(state.ended_at_ms), "by": by, "map": state.map_id,
        "knot": str(t.knot_interval_ms), "untie": str(t.untie_ms), "countdown": str(t.countdown_ms),
        "break": str(t.break_ms), "limit": _opt(t.round_ms),
    }


def first_seat(state: WormlordState, knot: Knot) -> int:
    side = next((s for s in state.sides if s.colour is knot.colour), None)
    return side.seats[0] if side and side.seats else 0


def _opt(value: int | None) -> str:
    return "-" if value is None else str(value)
