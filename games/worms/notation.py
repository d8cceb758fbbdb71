"""Position notation: one line of text for a whole position, as FEN is for chess.

    <rows> <water> <wind> <round> <turn> <teams> <worms> <mines> <drums> <crates> <cards> <inventories> <progress>

See docs/notation.md for the grammar and examples. ``parse(text)`` raises
``NotationError`` with a precise reason; ``format_position(state)`` writes it back exactly;
``validate(state)`` lists what is wrong with a position that parses but cannot happen.
"""

from __future__ import annotations

import re
from dataclasses import replace

from games.worms.board import MAX_HEIGHT, SIZE, Direction, SquareError, name, parse_square
from games.worms.items import ITEMS
from games.worms.state import (
    Bubble,
    Card,
    Crate,
    CrateKind,
    Drum,
    Mine,
    MineType,
    Phase,
    Stage,
    Stock,
    Team,
    TurnProgress,
    Wind,
    Worm,
    WormProgress,
    WormsState,
)

FIELDS = (
    "board", "water", "wind", "round", "turn", "teams", "worms", "mines", "drums", "crates",
    "cards", "inventories", "progress",
)
HEIGHT_CHARS = "0123456789x"
RUN_FROM = 4


class NotationError(ValueError):
    """The text is not a position (a syntax error, as opposed to an impossible position)."""


# --- heights ---------------------------------------------------------------------------


def _height_char(h: int) -> str:
    return HEIGHT_CHARS[h]


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
            out.append(f"{_height_char(row[i])}{{{n}}}" if n >= RUN_FROM else _height_char(row[i]) * n)
            i = j
        rows.append("".join(out))
    return "/".join(rows)


_ROW_TOKEN = re.compile(r"([0-9x])(?:\{(\d+)\})?")


def parse_rows(text: str) -> tuple[int, ...]:
    rows = text.split("/")
    if len(rows) != SIZE:
        raise NotationError(f"board: expected {SIZE} rows separated by '/', got {len(rows)}")
    heights: list[int] = []
    for number, row in enumerate(rows, start=1):
        values: list[int] = []
        pos = 0
        while pos < len(row):
            match = _ROW_TOKEN.match(row, pos)
            if match is None:
                raise NotationError(
                    f"board: row {number} has {row[pos]!r} at position {pos + 1}; "
                    f"heights are 0-9 or x (10), runs are written like 3{{5}}"
                )
            count = int(match.group(2)) if match.group(2) else 1
            if count < 1:
                raise NotationError(f"board: row {number} has a run of {count}")
            values.extend([HEIGHT_CHARS.index(match.group(1))] * count)
            pos = match.end()
        if len(values) != SIZE:
            raise NotationError(f"board: row {number} has {len(values)} squares, expected {SIZE}")
        heights.extend(values)
    return tuple(heights)


# --- small parts -----------------------------------------------------------------------


def format_stock(stock: Stock) -> str:
    return f"{stock.item}{'*' if stock.count is None else stock.count}"


_STOCK = re.compile(r"([a-z_]+)(\*|\d+)$")


def parse_stock(text: str, where: str) -> Stock:
    match = _STOCK.match(text)
    if match is None:
        raise NotationError(f"{where}: {text!r} is not an item with a count, like bazooka3 or prod*")
    count = None if match.group(2) == "*" else int(match.group(2))
    return Stock(match.group(1), count)


def format_items(items: tuple[Stock, ...]) -> str:
    return "+".join(format_stock(s) for s in items)


def parse_items(text: str, where: str) -> tuple[Stock, ...]:
    return tuple(parse_stock(t, where) for t in text.split("+")) if text else ()


def _square(text: str, where: str) -> tuple[int, int]:
    try:
        return parse_square(text)
    except SquareError as exc:
        raise NotationError(f"{where}: {exc}") from None


def _list(text: str) -> list[str]:
    return [] if text == "-" else text.split(",")


def _int(text: str, where: str) -> int:
    if not text.isdigit():
        raise NotationError(f"{where}: expected a whole number, got {text!r}")
    return int(text)


# --- the whole position ----------------------------------------------------------------


def format_position(state: WormsState) -> str:
    wind = "-" if state.wind.calm else f"{state.wind.direction}{state.wind.strength}"
    flags = ("+" if state.sudden_death else "") + ("!" if state.stalemate else "")
    rnd = f"{state.round}/{state.sudden_death_after}{flags}"
    if state.phase is Phase.FINISHED:
        turn = f"{state.turn}:#{'=' if state.winner is None else state.winner}"
    else:
        stage = ""
        if state.stage is Stage.STARTING:
            stage = "r" if state.round_opening else "s"
        turn = f"{state.turn}:{'-' if state.seat is None else state.seat}{stage}"
    by_seat = {t.seat: t for t in state.teams}
    ordered = [by_seat[s] for s in state.order if s in by_seat]
    ordered += [t for t in state.teams if t.seat not in state.order]
    teams = ",".join(
        f"{t.letter}{t.seat}{'x' if t.out else ''}{'q' if t.surrendered else ''}" for t in ordered
    ) or "-"
    worms = ",".join(
        f"{w.id}@{name(w.square)}:{w.health}"
        + (f"p{w.poison}" if w.poison else "")
        + (f"i{w.invisible_rounds}" if w.invisible_rounds else "")
        for w in state.worms
    ) or "-"
    mines = ",".join(f"{name(m.square)}{m.type.value}" for m in state.mines) or "-"
    drums = ",".join(name(d.square) for d in state.drums) or "-"
    crates = ",".join(
        f"{name(c.square)}{c.kind.value}{'!' if c.booby_trapped else ''}"
        + (f":{format_items(c.contents)}" if c.contents else "")
        for c in state.crates
    ) or "-"
    cards = ",".join(f"{name(c.square)}:{format_items(c.contents)}" for c in state.cards) or "-"
    inventories = ";".join(f"{t.letter}:{format_items(t.inventory)}" for t in state.teams) or "-"
    fields = [
        format_rows(state.heights), str(state.water), wind, rnd, turn, teams, worms, mines,
        drums, crates, cards, inventories, format_progress(state.progress),
    ]
    if state.bubbles:  # the optional 14th field (§5 BUBBLE TROUBLE)
        fields.append(",".join(f"{name(b.square)}={b.seat}:{b.rounds}" for b in state.bubbles))
    return " ".join(fields)


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


_TEAM = re.compile(r"([A-H])(\d+)(x?)(q?)$")
_WORM = re.compile(r"([A-H]\d+)@([a-z]\d+):(\d+)(?:p(\d+))?(?:i(\d+))?$")
_TURN = re.compile(r"(\d+):(?:#(=|\d+)|(-|\d+)([sr]?))$")
_ROUND = re.compile(r"(\d+)/(\d+)(\+?)(!?)$")


def parse(text: str) -> WormsState:
    parts = text.split()
    if len(parts) not in (len(FIELDS), len(FIELDS) + 1):
        raise NotationError(
            f"expected {len(FIELDS)} space-separated fields ({', '.join(FIELDS)}) and optionally "
            f"bubbles, got {len(parts)}"
        )
    f = dict(zip(FIELDS, parts[: len(FIELDS)], strict=True))
    bubbles: list[Bubble] = []
    for token in parts[len(FIELDS):]:
        for item in token.split(","):
            m = re.match(r"([a-o]\d+)=(\d+):(\d+)$", item)
            if m is None:
                raise NotationError(f"bubbles: {item!r} is not square=seat:rounds, like c5=1:3")
            bubbles.append(Bubble(*_square(m.group(1), "bubbles"), int(m.group(2)), int(m.group(3))))
    heights = parse_rows(f["board"])
    water = _int(f["water"], "water")

    if f["wind"] == "-":
        wind = Wind()
    else:
        match = re.match(r"([NESW])([0-3])$", f["wind"])
        if match is None:
            raise NotationError(f"wind: {f['wind']!r} is not - or a direction N/E/S/W with a strength 1-3, like E2")
        wind = Wind(Direction(match.group(1)), int(match.group(2)))

    match = _ROUND.match(f["round"])
    if match is None:
        raise NotationError(f"round: {f['round']!r} is not round/rounds-before-sudden-death, like 3/10 or 12/10+")
    rnd, sd_after = int(match.group(1)), int(match.group(2))
    sudden_death, stalemate = bool(match.group(3)), bool(match.group(4))

    match = _TURN.match(f["turn"])
    if match is None:
        raise NotationError(f"turn: {f['turn']!r} is not turn:seat, like 7:2, 7:2s, 7:2r or 7:#2")
    turn = int(match.group(1))
    phase, stage, seat, winner, opening = Phase.PLAYING, Stage.ACTING, None, None, False
    if match.group(2) is not None:
        phase, stage = Phase.FINISHED, Stage.STARTING
        winner = None if match.group(2) == "=" else int(match.group(2))
    else:
        seat = None if match.group(3) == "-" else int(match.group(3))
        if match.group(4):
            stage, opening = Stage.STARTING, match.group(4) == "r"

    teams: list[Team] = []
    for token in _list(f["teams"]):
        m = _TEAM.match(token)
        if m is None:
            raise NotationError(f"teams: {token!r} is not a team letter A-H and seat, like A1 or B2x")
        teams.append(Team(int(m.group(2)), m.group(1), out=bool(m.group(3)), surrendered=bool(m.group(4))))
    order = tuple(t.seat for t in teams)

    inventories: dict[str, tuple[Stock, ...]] = {}
    if f["inventories"] != "-":
        for token in f["inventories"].split(";"):
            letter, sep, items = token.partition(":")
            if not sep or len(letter) != 1:
                raise NotationError(f"inventories: {token!r} is not a team letter, ':' and items")
            if letter not in {t.letter for t in teams}:
                raise NotationError(f"inventories: there is no team {letter}")
            inventories[letter] = parse_items(items, f"inventory of team {letter}")
    # teams are stored in inventory order (the order they are listed there), else turn order
    listed = list(inventories)
    team_order = sorted(teams, key=lambda t: listed.index(t.letter) if t.letter in listed else len(listed))
    teams_t = tuple(
        Team(t.seat, t.letter, "", inventories.get(t.letter, ()), t.out, t.surrendered)
        for t in team_order
    )
    seats = {t.letter: t.seat for t in teams}

    worms: list[Worm] = []
    for token in _list(f["worms"]):
        m = _WORM.match(token)
        if m is None:
            raise NotationError(f"worms: {token!r} is not worm@square:health, like A1@c4:150 or B2@d7:90p2")
        letter = m.group(1)[0]
        if letter not in seats:
            raise NotationError(f"worms: {m.group(1)} belongs to no team (no team {letter})")
        x, y = _square(m.group(2), f"worm {m.group(1)}")
        worms.append(
            Worm(m.group(1), seats[letter], x, y, int(m.group(3)), int(m.group(4) or 0), int(m.group(5) or 0))
        )

    mines: list[Mine] = []
    for token in _list(f["mines"]):
        if not token or token[-1] not in "dsp":
            raise NotationError(f"mines: {token!r} is not a square and a type d, s or p, like c5d")
        mines.append(Mine(*_square(token[:-1], "mines"), MineType(token[-1])))

    drums = [Drum(*_square(t, "drums")) for t in _list(f["drums"])]

    crates: list[Crate] = []
    for token in _list(f["crates"]):
        head, _, items = token.partition(":")
        m = re.match(r"([a-o]\d+)([whu])(!?)$", head)
        if m is None:
            raise NotationError(f"crates: {token!r} is not square, kind w/h/u, optional ! and :contents, like e5w:bazooka3")
        crates.append(
            Crate(*_square(m.group(1), "crates"), CrateKind(m.group(2)),
                  parse_items(items, f"crate at {m.group(1)}"), bool(m.group(3)))
        )

    cards: list[Card] = []
    for token in _list(f["cards"]):
        head, _, items = token.partition(":")
        cards.append(Card(*_square(head, "cards"), parse_items(items, f"card at {head}")))

    progress = parse_progress(f["progress"])
    return WormsState(
        phase=phase, heights=heights, water=water, wind=wind, round=rnd, turn=turn, seat=seat,
        stage=stage, round_opening=opening, sudden_death_after=sd_after,
        sudden_death=sudden_death, stalemate=stalemate, order=order, teams=teams_t,
        worms=tuple(worms), mines=tuple(mines), drums=tuple(drums), crates=tuple(crates),
        cards=tuple(cards), progress=progress, bubbles=tuple(bubbles), winner=winner, draw=phase is Phase.FINISHED and winner is None,
    )


def parse_progress(text: str) -> TurnProgress:
    if text == "-":
        return TurnProgress()
    segments = text.split(";")
    worms: list[WormProgress] = []
    for token in filter(None, segments[0].split(",")):
        m = re.match(r"([A-H]\d+)=(\d+)(?:\+(\d+))?/(\d+)(r?)(f?)$", token)
        if m is None:
            raise NotationError(
                f"progress: {token!r} is not worm=moved[+lost]/allowance[r][f], like A1=2/3 or A1=1+2/6rf"
            )
        worms.append(
            WormProgress(m.group(1), int(m.group(2)), int(m.group(4)), bool(m.group(5)), bool(m.group(6)),
                         int(m.group(3) or 0))
        )
    progress = TurnProgress(worms=tuple(worms))
    for segment in segments[1:]:
        if segment.startswith("fuse@"):
            progress = replace(progress, fuse=_square(segment[5:], "progress fuse"))
            continue
        if segment == "double":
            progress = replace(progress, double=True)
            continue
        m = re.match(r"([a-z_]+)@([A-H]\d+)/(\d+)$", segment)
        if m is None:
            raise NotationError(
                f"progress: {segment!r} is not weapon@worm/shots-left, double or fuse@square"
            )
        progress = replace(progress, weapon=m.group(1), shooter=m.group(2), shots_left=int(m.group(3)))
    return progress


# --- positions that parse but cannot happen --------------------------------------------


def validate(state: WormsState) -> list[str]:
    problems: list[str] = []
    for i, h in enumerate(state.heights):
        if not 0 <= h <= MAX_HEIGHT:
            problems.append(f"{name((i % SIZE, i // SIZE))} has height {h}, outside 0-{MAX_HEIGHT}")
    if not 0 <= state.water <= MAX_HEIGHT:
        problems.append(f"the water level {state.water} is outside 0-{MAX_HEIGHT}")
    if not state.wind.calm and not 1 <= state.wind.strength <= 3:
        problems.append(f"the wind strength {state.wind.strength} is outside 1-3")
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
    squares: dict[tuple[int, int], str] = {}

    def occupy(square: tuple[int, int], what: str) -> None:
        if square in squares:
            problems.append(f"{name(square)} holds both {squares[square]} and {what}")
        else:
            squares[square] = what

    for worm in state.worms:
        team = state.team(worm.seat)
        if team is None or not worm.id.startswith(team.letter):
            problems.append(f"worm {worm.id} does not match its team")
        elif team.out:
            problems.append(f"worm {worm.id} is on the board but team {team.letter} is out")
        if state.is_water(worm.square):
            problems.append(f"worm {worm.id} is in the water at {name(worm.square)}; it would have drowned")
        if worm.health <= 0:
            problems.append(f"worm {worm.id} has {worm.health} health; it would have died")
        if state.mine_at(worm.square) is not None:
            problems.append(f"worm {worm.id} stands on a mine at {name(worm.square)}; it would have gone off")
        if state.crate_at(worm.square) is not None or state.card_at(worm.square) is not None:
            problems.append(f"worm {worm.id} stands on a crate or card at {name(worm.square)}; it would have collected it")
        occupy(worm.square, f"worm {worm.id}")
    for drum in state.drums:
        occupy(drum.square, "an oil drum")
        if state.is_water(drum.square):
            problems.append(f"the oil drum at {name(drum.square)} is in the water")
    mine_squares: set[tuple[int, int]] = set()
    for mine in state.mines:
        if mine.square in mine_squares:
            problems.append(f"{name(mine.square)} holds two mines")
        mine_squares.add(mine.square)
        if state.is_water(mine.square):
            problems.append(f"the mine at {name(mine.square)} is in the water")
        if state.card_at(mine.square) is not None:
            problems.append(f"the mine at {name(mine.square)} shares a square with a donor card (§9)")
        if state.crate_at(mine.square) is not None:
            problems.append(f"the mine at {name(mine.square)} sits on a crate; it would have booby-trapped it")
    for crate in state.crates:
        if state.is_water(crate.square):
            problems.append(f"the crate at {name(crate.square)} is in the water")
        if crate.kind is not CrateKind.HEALTH and not crate.contents:
            problems.append(f"the crate at {name(crate.square)} is empty")
        for stock in crate.contents:
            if stock.item not in ITEMS or ITEMS[stock.item].free or stock.count is None:
                problems.append(f"the crate at {name(crate.square)} holds {stock.item}, which no crate can")
    for card in state.cards:
        if state.is_water(card.square):
            problems.append(f"the donor card at {name(card.square)} is in the water")
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
