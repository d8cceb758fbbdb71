"""The notation writer (``games.lggwg.notation``): a position, and a list of orders, as
one line of text. ``LggwgState.__repr__`` prints with it, so it imports the state only for
type checking."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.lggwg.board import name, rle

if TYPE_CHECKING:
    from games.lggwg.state import LggwgState, Order


def format_order(order: Order) -> str:
    u, t = order.unit, order.target
    return {
        "move": f"{u}>{t}", "fire": f"{u}*{t}", "opp": f"{u}*", "oppmove": f"{u}*>{t}",
        "mine": f"{u}+", "hold": f"{u}-", "forfeit": "!",
    }[order.kind]


def format_orders(orders: tuple[Order, ...]) -> str:
    return ",".join(format_order(o) for o in orders)


def format_position(state: LggwgState) -> str:
    colour = state.colour
    phase = f"{state.phase.value}:{state.turn}/{state.max_turns}" + (f":{state.end}" if state.end else "")
    teams = ",".join(
        f"{t.colour}={t.seat}:{t.score}:{t.kills}:{t.sheep}:{t.out or '-'}:{'y' if t.submitted else 'n'}"
        for t in state.teams
    )
    units = ",".join(
        f"{u.id}={u.kind}@{name(u.square)}:{u.hp}/{u.max_hp}" + (f"m{u.mines}" if u.kind == "N" else "")
        for u in state.units
    )
    parts = [
        state.map or "custom",
        "/".join(rle(r) for r in state.terrain) or "-",
        phase,
        "flags" if state.flag_game else "noflags",
        ",".join(colour(s) for s in state.team_order) or "-",
        teams or "-",
        units or "-",
        ",".join(f"{name(m.square)}{colour(m.team)}" for m in state.mines) or "-",
        ",".join(f"{name((w.x, w.y))}:{w.damage}" for w in state.wear) or "-",
        ";".join(f"{t.colour}:{format_orders(t.orders)}" for t in state.teams if t.submitted) or "-",
        ";".join(f"{t.colour}:{'/'.join(rle(r) for r in t.memory)}" for t in state.teams if t.memory) or "-",
    ]
    return " ".join(parts)
