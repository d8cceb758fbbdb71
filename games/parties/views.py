"""What a viewer may know (P-R14). Everything on the board is public: terrain, every bot's
square, strength, score and party, who has chosen a move this tick (not what). Secret:
the moves chosen this tick (a seat sees its own party's), and ally policies (a seat sees
its own). Moderators see everything."""

from __future__ import annotations

from typing import Any

from games.base import Viewer, ViewerKind
from games.parties.board import name
from games.parties.state import PartiesState


def may_see_secrets_of(state: PartiesState, viewer: Viewer, seat: int) -> bool:
    if viewer.kind is ViewerKind.MODERATOR:
        return True
    return viewer.kind is ViewerKind.SEAT and viewer.seat is not None and state.has(viewer.seat) and (
        seat in state.group_of(viewer.seat)
    )


def view(
    state: PartiesState, viewer: Viewer, to_act: frozenset[int], ranking: tuple[tuple[int, ...], ...]
) -> dict[str, Any]:
    chosen = {s for s, _ in state.pending}
    bots = []
    for bot in state.bots:
        group = state.group_of(bot.seat)
        role = "solo" if len(group) == 1 else "leader" if group[0] == bot.seat else "follower"
        entry: dict[str, Any] = {
            "seat": bot.seat, "x": bot.x, "y": bot.y, "square": name(bot.square),
            "strength": bot.strength / 10, "strength_tenths": bot.strength, "score": bot.score,
            "role": role, "party": group[0] if len(group) > 1 else None,
            "moved": bot.seat in chosen,
        }
        if viewer.kind is ViewerKind.MODERATOR or (viewer.kind is ViewerKind.SEAT and viewer.seat == bot.seat):
            entry["ally_policy"] = bot.ally
        bots.append(entry)
    return {
        "ruleset": "parties",
        "you": viewer.seat if viewer.kind is ViewerKind.SEAT else None,
        "width": state.width,
        "height": state.height,
        "terrain": list(state.rows),
        "legend": {".": "open", "M": "mountain", "F": "forest"},
        "tick": state.tick,
        "max_ticks": state.max_ticks,
        "tick_ms": state.tick_ms,
        "tick_start_ms": state.tick_start_ms,
        "tick_deadline_ms": state.deadline_ms if state.tick else None,
        "bots": bots,
        "parties": [{"leader": p[0], "members": list(p)} for p in state.parties],
        "to_act": sorted(to_act),
        "pending": {
            str(s): d for s, d in state.pending if may_see_secrets_of(state, viewer, s)
        },
        "scores": {str(b.seat): b.score for b in state.bots},
        "finished": state.finished,
        "end_reason": state.ended or None,
        "ranking": [list(place) for place in ranking],
    }
