"""``validate(state)``: what is wrong with a position that parses but cannot happen
(``games.worms.notation``). Each check returns plain sentences; none raises."""

from __future__ import annotations

from games.worms.board import MAX_HEIGHT, SIZE, Square, name
from games.worms.items import ITEMS
from games.worms.pieces import CrateKind, Phase
from games.worms.state import WormsState


def validate(state: WormsState) -> list[str]:
    return [
        *_board(state), *_teams(state), *_worms(state), *_occupied(state), *_mines(state),
        *_crates_and_cards(state), *_inventories(state), *_progress(state),
    ]


def _board(state: WormsState) -> list[str]:
    problems = [
        f"{name((i % SIZE, i // SIZE))} has height {h}, outside 0-{MAX_HEIGHT}"
        for i, h in enumerate(state.heights) if not 0 <= h <= MAX_HEIGHT
    ]
    if not 0 <= state.water <= MAX_HEIGHT:
        problems.append(f"the water level {state.water} is outside 0-{MAX_HEIGHT}")
    if not state.wind.calm and not 1 <= state.wind.strength <= 3:
        problems.append(f"the wind strength {state.wind.strength} is outside 1-3")
    return problems


def _teams(state: WormsState) -> list[str]:
    problems = []
    letters = [t.letter for t in state.teams]
    if len(set(letters)) != len(letters):
        problems.append("two teams share a letter")
    seats = [t.seat for t in state.teams]
    if len(set(seats)) != len(seats):
        problems.append("two teams share a seat")
    if state.phase is Phase.PLAYING:
        team = state.team(state.seat) if state.seat is not None else None
        if team is None:
            problems.append(f"the seat to act ({state.seat}) has no team")
        elif team.out:
            problems.append(f"the seat to act ({state.seat}) is out of the game")
    return problems


def _worms(state: WormsState) -> list[str]:
    problems = []
    for worm in state.worms:
        team = state.team(worm.seat)
        where = name(worm.square)
        if team is None or not worm.id.startswith(team.letter):
            problems.append(f"worm {worm.id} does not match its team")
        elif team.out:
            problems.append(f"worm {worm.id} is on the board but team {team.letter} is out")
        if state.is_water(worm.square):
            problems.append(f"worm {worm.id} is in the water at {where}; it would have drowned")
        if worm.health <= 0:
            problems.append(f"worm {worm.id} has {worm.health} health; it would have died")
        if state.mine_at(worm.square) is not None:
            problems.append(f"worm {worm.id} stands on a mine at {where}; it would have gone off")
        if state.crate_at(worm.square) is not None or state.card_at(worm.square) is not None:
            problems.append(f"worm {worm.id} stands on a crate or card at {where}; it would have collected it")
    return problems


def _occupied(state: WormsState) -> list[str]:
    """§8: worms and oil drums occupy their square, one thing each."""
    problems = []
    squares: dict[Square, str] = {}
    things = [(w.square, f"worm {w.id}") for w in state.worms] + [(d.square, "an oil drum") for d in state.drums]
    for square, what in things:
        if square in squares:
            problems.append(f"{name(square)} holds both {squares[square]} and {what}")
        else:
            squares[square] = what
    for drum in state.drums:
        if state.is_water(drum.square):
            problems.append(f"the oil drum at {name(drum.square)} is in the water")
    return problems


def _mines(state: WormsState) -> list[str]:
    problems = []
    seen: set[Square] = set()
    for mine in state.mines:
        where = name(mine.square)
        if mine.square in seen:
            problems.append(f"{where} holds two mines")
        seen.add(mine.square)
        if state.is_water(mine.square):
            problems.append(f"the mine at {where} is in the water")
        if state.card_at(mine.square) is not None:
            problems.append(f"the mine at {where} shares a square with a donor card (§9)")
        if state.crate_at(mine.square) is not None:
            problems.append(f"the mine at {where} sits on a crate; it would have booby-trapped it")
    return problems


def _crates_and_cards(state: WormsState) -> list[str]:
    problems = []
    for crate in state.crates:
        where = name(crate.square)
        if state.is_water(crate.square):
            problems.append(f"the crate at {where} is in the water")
        if crate.kind is not CrateKind.HEALTH and not crate.contents:
            problems.append(f"the crate at {where} is empty")
        for stock in crate.contents:
            if stock.item not in ITEMS or ITEMS[stock.item].free or stock.count is None:
                problems.append(f"the crate at {where} holds {stock.item}, which no crate can")
    for card in state.cards:
        if state.is_water(card.square):
            problems.append(f"the donor card at {name(card.square)} is in the water")
    return problems


def _inventories(state: WormsState) -> list[str]:
    problems = []
    for team in state.teams:
        for stock in team.inventory:
            if stock.item not in ITEMS:
                problems.append(f"team {team.letter} holds {stock.item!r}, which is not an item")
            elif stock.count is not None and stock.count < 1:
                problems.append(f"team {team.letter} holds {stock.count} {stock.item}")
            elif stock.count is None and not ITEMS[stock.item].free:
                problems.append(f"team {team.letter} holds unlimited {stock.item}; only prods and handguns are")
        if state.phase is Phase.PLAYING and not team.out and not state.worms_of(team.seat):
            problems.append(f"team {team.letter} has no worms but is not out")
    return problems


def _progress(state: WormsState) -> list[str]:
    problems = []
    progress = state.progress
    if len(progress.worms) > 3:
        problems.append(f"{len(progress.worms)} worms acted this turn; at most 3 may")
    for p in progress.worms:
        worm = state.worm(p.worm)
        if worm is not None and worm.seat != state.seat:
            problems.append(f"{p.worm} acted this turn but is not on the acting team")
        if p.used > p.allowance:
            problems.append(f"{p.worm} moved {p.used} squares, more than its {p.allowance}")
    if progress.weapon is not None and progress.weapon not in ITEMS:
        problems.append(f"{progress.weapon!r} is not a weapon")
    return problems
