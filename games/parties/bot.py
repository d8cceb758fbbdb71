"""An example bot: pure, from its own JSON view and a ``random.Random`` it is given, so an
HTTP bot can run it on the view the API returns.

    direction = choose_move(view, rng)      # None when it is not this bot's move
    body = move_order(view, rng)            # {"direction": "NE", "tick": 7} or None

It seeks company: it walks towards the nearest group it would gladly meet (a party whose
leader is at least as strong, which it would join; a solo; a weaker squad, which it would
beat more often than not), now and then a random step so that two bots never dance in
step for ever."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Rng(Protocol):
    """The bot's own source of randomness (a ``random.Random`` will do): given, never global."""

    def random(self) -> float: ...

    def choice(self, seq: Sequence[T]) -> T: ...

DIRECTIONS = {
    "N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
    "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1),
}
WANDER = 0.15


def _distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def legal_moves(view: dict[str, Any], me: dict[str, Any]) -> list[str]:
    taken = {(b["x"], b["y"]) for b in view["bots"]}
    rows = view["terrain"]
    moves = []
    for direction, (dx, dy) in DIRECTIONS.items():
        x, y = me["x"] + dx, me["y"] + dy
        if 0 <= y < len(rows) and 0 <= x < len(rows[y]) and rows[y][x] == "." and (x, y) not in taken:
            moves.append(direction)
    return moves


def choose_move(view: dict[str, Any], rng: Rng) -> str | None:
    seat = view.get("you")
    if view.get("finished") or seat not in view.get("to_act", []):
        return None
    bots = {b["seat"]: b for b in view["bots"]}
    me = bots[seat]
    mine = {seat} | {s for p in view["parties"] if p["leader"] == seat for s in p["members"]}
    moves = legal_moves(view, me)
    if not moves:
        return "stay"
    if rng.random() < WANDER:
        return rng.choice([*moves, "stay"])
    my_total = sum(bots[s]["strength_tenths"] for s in mine)
    goals = []
    for other in view["bots"]:
        if other["seat"] in mine:
            continue
        leader = bots[other["party"]] if other["party"] is not None else other
        members = [b for b in view["bots"] if b["party"] == leader["seat"]] or [leader]
        total = sum(b["strength_tenths"] for b in members)
        joins = leader["strength_tenths"] >= me["strength_tenths"] and len(mine) == 1
        if joins or leader["party"] is None or total <= my_total:
            goals.append((other["x"], other["y"]))
    if not goals:
        return rng.choice([*moves, "stay"])
    here = (me["x"], me["y"])
    goal = min(goals, key=lambda g: (_distance(here, g), g))
    if _distance(here, goal) <= 1:
        return "stay"

    def after(direction: str) -> int:
        dx, dy = DIRECTIONS[direction]
        return _distance((here[0] + dx, here[1] + dy), goal)

    best = min(after(d) for d in moves)
    return rng.choice(sorted(d for d in moves if after(d) == best))


def move_order(view: dict[str, Any], rng: Rng) -> dict[str, Any] | None:
    """The JSON body of a ``Move`` order, naming the tick so a late order is refused."""
    direction = choose_move(view, rng)
    return None if direction is None else {"direction": direction, "tick": view["tick"]}
