"""What a viewer sees. A Wormlord board holds no secret (ruling WL-R11): everyone sees
the whole position; only what teammates say (``TeamSpoke``) is for their team, and that
lives in events, never in the position."""

from __future__ import annotations

from typing import Any

from games.base import Viewer
from games.wormlord import maps
from games.wormlord.board import SQUARES, Colour, xy
from games.wormlord.rounds import scheduled_work, scores
from games.wormlord.state import OBJECTIVES_TO_WIN, ROUNDS_TO_WIN, Phase, WormlordState

_TERRAIN = {".": "plain", "#": "impassable", "*": "objective"}


def view(state: WormlordState, viewer: Viewer, to_act: frozenset[int]) -> dict[str, Any]:
    del viewer  # the same for everyone (WL-R11)
    if state.phase is Phase.NEW:
        return {"phase": state.phase.value, "squares": [], "sides": [], "seats": {}}
    known = maps.drawing(state.map_id, state.grid) if state.map_id else None
    winner = state.winner()
    next_start = next(
        (w.at_ms for w in scheduled_work(state) if w.key[-1] == "start" and w.at_ms is not None), None
    )
    return {
        "map": {"id": state.map_id, "name": known.name if known else state.map_id, "about": known.about if known else ""},
        "phase": state.phase.value,
        "round": state.round,
        "starts_at_ms": state.starts_at_ms,
        "ends_at_ms": state.ends_at_ms,
        "ended_at_ms": state.ended_at_ms,
        "next_round_at_ms": next_start,
        "timing": {
            "knot_interval_ms": state.timing.knot_interval_ms, "untie_ms": state.timing.untie_ms,
            "countdown_ms": state.timing.countdown_ms, "break_ms": state.timing.break_ms,
            "round_ms": state.timing.round_ms,
        },
        "objectives_to_win": OBJECTIVES_TO_WIN,
        "rounds_to_win": ROUNDS_TO_WIN,
        "squares": [_square(state, sq) for sq in SQUARES],
        "sides": [_side(state, s.colour) for s in state.sides],
        "seats": {
            str(seat): {"colour": str(s.colour), "next_at_ms": s.next_at_ms, "teammates": [t for t in s.seats if t != seat]}
            for s in state.sides for seat in s.seats
        },
        "scores": {str(c): v for c, v in scores(state)},
        "to_act": sorted(to_act),
        "winner": None if winner is None else str(winner.colour),
        "winners": [] if winner is None else list(winner.seats),
        "secrets": [],
    }


def _square(state: WormlordState, square: str) -> dict[str, Any]:
    terrain = state.terrain(square)
    knot = state.knot_at(square)
    hq = state.hq_at(square)
    x, y = xy(square)
    return {
        "square": square, "x": x, "y": y,
        "terrain": "base" if terrain.isdigit() else _TERRAIN[terrain],
        "base": str(Colour.of_digit(terrain)) if terrain.isdigit() else None,
        "knot": None if knot is None else {"colour": str(knot.colour), "seat": knot.seat, "at_ms": knot.at_ms},
        "hq": None if hq is None else str(hq.colour),
    }


def _side(state: WormlordState, colour: Colour) -> dict[str, Any]:
    side = state.side(colour)
    return {
        "colour": str(colour), "letter": colour.letter, "seats": list(side.seats), "base": side.base,
        "supply": side.supply, "on_board": sum(1 for k in state.knots if k.colour is colour),
        "hq": side.hq, "next_at_ms": side.next_at_ms, "rounds_won": side.wins,
        "objectives_held": state.objectives_held(colour),
    }
