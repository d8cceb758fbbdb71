"""A Nim position as one line of text: ``stones/most seats>to_move winner turn`` (winner
``-`` while playing), e.g. ``12/3 1,2>1 - 1``. Every shipped ruleset has such a notation: the case
catalogue writes its positions in it, and tests and bots read and write them."""

from __future__ import annotations

import re

from tests.rulesets.nim.rules import NimState

_POSITION = re.compile(r"^(\d+)/(\d+) ((?:\d+,)*\d+)?>(\d+) (\d+|-) (\d+)$")


class NotationError(ValueError):
    """Text that is not a Nim position."""


def format_position(state: NimState) -> str:
    seats = ",".join(str(s) for s in state.seats)
    return f"{state.stones}/{state.most} {seats}>{state.to_move} {state.winner or '-'} {state.turn}"


def parse_position(text: str) -> NimState:
    m = _POSITION.match(text.strip())
    if not m:
        raise NotationError(f"{text!r} is not stones/most seats>to_move winner turn (like 12/3 1,2>1 - 1)")
    stones, most, seats, to_move, winner, turn = m.groups()
    return NimState(stones=int(stones), most=int(most), seats=tuple(int(s) for s in (seats or "").split(",") if s),
                    to_move=int(to_move), winner=0 if winner == "-" else int(winner), turn=int(turn))
