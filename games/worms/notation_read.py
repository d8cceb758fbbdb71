"""The notation reader (``games.worms.notation``): ``parse(text)`` checks the syntax of
each field and raises ``NotationError`` naming the field and the fault; whether the
position could happen is ``validate``'s business (``games.worms.notation_check``)."""

from __future__ import annotations

import re
from dataclasses import replace

from games.worms.board import SIZE, Direction, Square, SquareError, parse_square
from games.worms.notation_write import HEIGHT_CHARS
from games.worms.pieces import (
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
)
from games.worms.state import WormsState

FIELDS = (
    "board", "water", "wind", "round", "turn", "teams", "worms", "mines", "drums", "crates",
    "cards", "inventories", "progress",
)


class NotationError(ValueError):
    """The text is not a position (a syntax error, as opposed to an impossible position)."""


# --- small parts -----------------------------------------------------------------------

_ROW_TOKEN = re.compile(r"([0-9x])(?:\{(\d+)\})?")
_STOCK = re.compile(r"([a-z_]+)(\*|\d+)$")


def parse_rows(text: str) -> tuple[int, ...]:
    rows = text.split("/")
    if len(rows) != SIZE:
        raise NotationError(f"board: expected {SIZE} rows separated by '/', got {len(rows)}")
    heights: list[int] = []
    for number, row in enumerate(rows, start=1):
        heights.extend(_parse_row(number, row))
    return tuple(heights)


def _parse_row(number: int, row: str) -> list[int]:
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
    return values


def parse_stock(text: str, where: str) -> Stock:
    match = _STOCK.match(text)
    if match is None:
        raise NotationError(f"{where}: {text!r} is not an item with a count, like bazooka3 or prod*")
    count = None if match.group(2) == "*" else int(match.group(2))
    return Stock(match.group(1), count)


def parse_items(text: str, where: str) -> tuple[Stock, ...]:
    return tuple(parse_stock(t, where) for t in text.split("+")) if text else ()


def _square(text: str, where: str) -> Square:
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


def parse(text: str) -> WormsState:
    parts = text.split()
    if len(parts) not in (len(FIELDS), len(FIELDS) + 1):
        raise NotationError(
            f"expected {len(FIELDS)} space-separated fields ({', '.join(FIELDS)}) and optionally "
            f"bubbles, got {len(parts)}"
        )
    f = dict(zip(FIELDS, parts[: len(FIELDS)], strict=True))
    rnd, sd_after, sudden_death, stalemate = _parse_round(f["round"])
    turn, phase, stage, seat, winner, opening = _parse_turn(f["turn"])
    order, teams = _parse_teams(f["teams"], f["inventories"])
    return WormsState(
        phase=phase, heights=parse_rows(f["board"]), water=_int(f["water"], "water"),
        wind=_parse_wind(f["wind"]), round=rnd, turn=turn, seat=seat, stage=stage,
        round_opening=opening, sudden_death_after=sd_after, sudden_death=sudden_death,
        stalemate=stalemate, order=order, teams=teams,
        worms=_parse_worms(f["worms"], {t.letter: t.seat for t in teams}),
        mines=_parse_mines(f["mines"]), drums=tuple(Drum(*_square(t, "drums")) for t in _list(f["drums"])),
        crates=_parse_crates(f["crates"]), cards=_parse_cards(f["cards"]),
        progress=parse_progress(f["progress"]), bubbles=_parse_bubbles(parts[len(FIELDS):]),
        winner=winner, draw=phase is Phase.FINISHED and winner is None,
    )


def _parse_bubbles(tokens: list[str]) -> tuple[Bubble, ...]:
    bubbles: list[Bubble] = []
    for token in tokens:
        for item in token.split(","):
            m = re.match(r"([a-o]\d+)=(\d+):(\d+)$", item)
            if m is None:
                raise NotationError(f"bubbles: {item!r} is not square=seat:rounds, like c5=1:3")
            bubbles.append(Bubble(*_square(m.group(1), "bubbles"), int(m.group(2)), int(m.group(3))))
    return tuple(bubbles)


def _parse_wind(text: str) -> Wind:
    if text == "-":
        return Wind()
    match = re.match(r"([NESW])([0-3])$", text)
    if match is None:
        raise NotationError(f"wind: {text!r} is not - or a direction N/E/S/W with a strength 1-3, like E2")
    return Wind(Direction(match.group(1)), int(match.group(2)))


_ROUND = re.compile(r"(\d+)/(\d+)(\+?)(!?)$")


def _parse_round(text: str) -> tuple[int, int, bool, bool]:
    """round, rounds before sudden death, sudden death on, stalemate declared."""
    match = _ROUND.match(text)
    if match is None:
        raise NotationError(f"round: {text!r} is not round/rounds-before-sudden-death, like 3/10 or 12/10+")
    return int(match.group(1)), int(match.group(2)), bool(match.group(3)), bool(match.group(4))


_TURN = re.compile(r"(\d+):(?:#(=|\d+)|(-|\d+)([sr]?))$")


def _parse_turn(text: str) -> tuple[int, Phase, Stage, int | None, int | None, bool]:
    """turn, phase, stage, seat to act, winner, whether the turn opens a round."""
    match = _TURN.match(text)
    if match is None:
        raise NotationError(f"turn: {text!r} is not turn:seat, like 7:2, 7:2s, 7:2r or 7:#2")
    turn = int(match.group(1))
    if match.group(2) is not None:
        winner = None if match.group(2) == "=" else int(match.group(2))
        return turn, Phase.FINISHED, Stage.STARTING, None, winner, False
    seat = None if match.group(3) == "-" else int(match.group(3))
    if match.group(4):
        return turn, Phase.PLAYING, Stage.STARTING, seat, None, match.group(4) == "r"
    return turn, Phase.PLAYING, Stage.ACTING, seat, None, False


_TEAM = re.compile(r"([A-H])(\d+)(x?)(q?)$")


def _parse_teams(text: str, inventories_text: str) -> tuple[tuple[int, ...], tuple[Team, ...]]:
    """The turn order and the teams, stored in inventory order (the order they are listed
    there), else turn order."""
    teams: list[Team] = []
    for token in _list(text):
        m = _TEAM.match(token)
        if m is None:
            raise NotationError(f"teams: {token!r} is not a team letter A-H and seat, like A1 or B2x")
        teams.append(Team(int(m.group(2)), m.group(1), out=bool(m.group(3)), surrendered=bool(m.group(4))))
    inventories = _parse_inventories(inventories_text, {t.letter for t in teams})
    listed = list(inventories)
    ordered = sorted(teams, key=lambda t: listed.index(t.letter) if t.letter in listed else len(listed))
    return tuple(t.seat for t in teams), tuple(
        replace(t, inventory=inventories.get(t.letter, ())) for t in ordered
    )


def _parse_inventories(text: str, letters: set[str]) -> dict[str, tuple[Stock, ...]]:
    inventories: dict[str, tuple[Stock, ...]] = {}
    if text == "-":
        return inventories
    for token in text.split(";"):
        letter, sep, items = token.partition(":")
        if not sep or len(letter) != 1:
            raise NotationError(f"inventories: {token!r} is not a team letter, ':' and items")
        if letter not in letters:
            raise NotationError(f"inventories: there is no team {letter}")
        inventories[letter] = parse_items(items, f"inventory of team {letter}")
    return inventories


_WORM = re.compile(r"([A-H]\d+)@([a-z]\d+):(\d+)(?:p(\d+))?(?:i(\d+))?$")


def _parse_worms(text: str, seats: dict[str, int]) -> tuple[Worm, ...]:
    worms: list[Worm] = []
    for token in _list(text):
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
    return tuple(worms)


def _parse_mines(text: str) -> tuple[Mine, ...]:
    mines: list[Mine] = []
    for token in _list(text):
        if not token or token[-1] not in "dsp":
            raise NotationError(f"mines: {token!r} is not a square and a type d, s or p, like c5d")
        mines.append(Mine(*_square(token[:-1], "mines"), MineType(token[-1])))
    return tuple(mines)


def _parse_crates(text: str) -> tuple[Crate, ...]:
    crates: list[Crate] = []
    for token in _list(text):
        head, _, items = token.partition(":")
        m = re.match(r"([a-o]\d+)([whu])(!?)$", head)
        if m is None:
            raise NotationError(
                f"crates: {token!r} is not square, kind w/h/u, optional ! and :contents, like e5w:bazooka3"
            )
        crates.append(
            Crate(*_square(m.group(1), "crates"), CrateKind(m.group(2)),
                  parse_items(items, f"crate at {m.group(1)}"), bool(m.group(3)))
        )
    return tuple(crates)


def _parse_cards(text: str) -> tuple[Card, ...]:
    cards: list[Card] = []
    for token in _list(text):
        head, _, items = token.partition(":")
        cards.append(Card(*_square(head, "cards"), parse_items(items, f"card at {head}")))
    return tuple(cards)


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
