"""Water (§2 "0 represents open water", §10 the rising water; ruling W-R13): what stands
on a square at or below the water level drowns or sinks."""

from __future__ import annotations

from collections.abc import Iterable

from games.worms import events as ev
from games.worms.board import Square
from games.worms.outcome import Outcome


def drown_flooded(out: Outcome, squares: Iterable[Square], *, explosives: bool = True) -> None:
    """§8 "Water appears where land reaches the water level": on each of ``squares`` that is
    now water, a worm drowns, a mine sinks, a card drowns and (with ``explosives``) an oil
    drum sinks and a crate is lost. Without ``explosives`` the caller sets the drums and
    crates off instead (§5 CONCRETE DONKEY)."""
    for s in squares:
        state = out.state
        if not state.is_water(s):
            continue
        worm = state.worm_at(s)
        if worm is not None:
            out.emit(ev.WormDied(worm.id, "drowned"))
        if state.mine_at(s) is not None:
            out.emit(ev.ObjectSank(s[0], s[1], "mine"))
        if explosives and state.drum_at(s) is not None:
            out.emit(ev.ObjectSank(s[0], s[1], "drum"))
        if explosives and state.crate_at(s) is not None:
            out.emit(ev.CrateDestroyed(s[0], s[1]))
        if state.card_at(s) is not None:
            out.emit(ev.CardGone(s[0], s[1], "drowned"))


def raise_water(out: Outcome, level: int) -> None:
    """§10: the water rises; whatever is now under it drowns or sinks."""
    out.emit(ev.WaterRose(level))
    state = out.state
    for worm in state.worms:
        if state.is_water(worm.square):
            out.emit(ev.WormDied(worm.id, "drowned"))
    for mine in state.mines:
        if state.is_water(mine.square):
            out.emit(ev.ObjectSank(mine.x, mine.y, "mine"))
    for drum in state.drums:
        if state.is_water(drum.square):
            out.emit(ev.ObjectSank(drum.x, drum.y, "drum"))
    for crate in state.crates:
        if state.is_water(crate.square):
            out.emit(ev.CrateDestroyed(crate.x, crate.y))
    for card in state.cards:
        if state.is_water(card.square):
            out.emit(ev.CardGone(card.x, card.y, "drowned"))
    for bubble in state.bubbles:  # §5 BUBBLE TROUBLE: a bubble under water sinks
        if state.is_water(bubble.square):
            out.emit(ev.BubbleGone(bubble.x, bubble.y, "sunk"))
