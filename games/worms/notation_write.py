"""The notation writer (``games.worms.notation``): a position as one line of text.

It imports ``WormsState`` only for type checking, as ``WormsState.__repr__`` uses it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.worms.board import SIZE, name
from games.worms.pieces import Phase, Stage, Stock, TurnProgress

if TYPE_CHECKING:
    from games.worms.state import WormsState

HEIGHT_CHARS = "0123456789x"
#: the writer spells out shorter runs of equal heights: 555 but 5{4}
RUN_FROM = 4


def format_rows(heights: tuple[int, ...]) -> str:
    rows = []
    for y in range(SIZE):
        row = heights[y * SIZE : (y + 1) * SIZE]
        out, i = [], 0
        while i < SIZE:
            j = i
            while j < SIZE and row[j] == row[i]:
                j += 1
            n = j - i
            char = HEIGHT_CHARS[row[i]]
            out.append(f"{char}{{{n}}}" if n >= RUN_FROM else char * n)
            i = j
        rows.append("".join(out))
    return "/".join(rows)


def format_stock(stock: Stock) -> str:
    return f"{stock.item}{'*' if stock.count is None else stock.count}"


def format_items(items: tuple[Stock, ...]) -> str:
    return "+".join(format_stock(s) for s in items)


def format_position(state: WormsState) -> str:
    fields = [
        format_rows(state.heights), str(state.water), _wind(state), _round(state), _turn(state),
        _teams(state), _worms(state), _mines(state), _drums(state), _crates(state), _cards(state),
        _inventories(state), format_progress(state.progress),
    ]
    if state.bubbles:  # the optional 14th field (§5 BUBBLE TROUBLE)
        fields.append(",".join(f"{name(b.square)}={b.seat}:{b.rounds}" for b in state.bubbles))
    return " ".join(fields)


def _wind(state: WormsState) -> str:
    return "-" if state.wind.calm else f"{state.wind.direction}{state.wind.strength}"


def _round(state: WormsState) -> str:
    flags = ("+" if state.sudden_death else "") + ("!" if state.stalemate else "")
    return f"{state.round}/{state.sudden_death_after}{flags}"


def _turn(state: WormsState) -> str:
    if state.phase is Phase.FINISHED:
        return f"{state.turn}:#{'=' if state.winner is None else state.winner}"
    stage = ""
    if state.stage is Stage.STARTING:
        stage = "r" if state.round_opening else "s"
    return f"{state.turn}:{'-' if state.seat is None else state.seat}{stage}"


def _teams(state: WormsState) -> str:
    by_seat = {t.seat: t for t in state.teams}
    ordered = [by_seat[s] for s in state.order if s in by_seat]
    ordered += [t for t in state.teams if t.seat not in state.order]
    return ",".join(
        f"{t.letter}{t.seat}{'x' if t.out else ''}{'q' if t.surrendered else ''}" for t in ordered
    ) or "-"


def _worms(state: WormsState) -> str:
    return ",".join(
        f"{w.id}@{name(w.square)}:{w.health}"
        + (f"p{w.poison}" if w.poison else "")
        + (f"i{w.invisible_rounds}" if w.invisible_rounds else "")
        for w in state.worms
    ) or "-"


def _mines(state: WormsState) -> str:
    return ",".join(f"{name(m.square)}{m.type.value}" for m in state.mines) or "-"


def _drums(state: WormsState) -> str:
    return ",".join(name(d.square) for d in state.drums) or "-"


def _crates(state: WormsState) -> str:
    return ",".join(
        f"{name(c.square)}{c.kind.value}{'!' if c.booby_trapped else ''}"
        + (f":{format_items(c.contents)}" if c.contents else "")
        for c in state.crates
    ) or "-"


def _cards(state: WormsState) -> str:
    return ",".join(f"{name(c.square)}:{format_items(c.contents)}" for c in state.cards) or "-"


def _inventories(state: WormsState) -> str:
    return ";".join(f"{t.letter}:{format_items(t.inventory)}" for t in state.teams) or "-"


def format_progress(progress: TurnProgress) -> str:
    if progress == TurnProgress():
        return "-"
    parts = [
        ",".join(
            f"{p.worm}={p.moved}{f'+{p.lost}' if p.lost else ''}/{p.allowance}"
            f"{'r' if p.rope else ''}{'f' if p.fast else ''}"
            for p in progress.worms
        )
    ]
    if progress.weapon is not None:
        parts.append(f"{progress.weapon}@{progress.shooter}/{progress.shots_left}")
    if progress.double:
        parts.append("double")
    if progress.fuse is not None:
        parts.append(f"fuse@{name(progress.fuse)}")
    return ";".join(parts)
