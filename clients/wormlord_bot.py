"""A Wormlord bot over HTTP: it reads its seat's view (``GET /state/``), rebuilds a
position from it and asks the engine's own bot (``games.wormlord.bot.choose``) for an
order; it places as fast as its knot interval allows and stops when the game is over.

    python -m clients.wormlord_bot --url http://127.0.0.1:8000 --user bob --password demo GAME_ID

Nothing on a Wormlord board is secret (ruling WL-R11), so the rebuilt position is the
whole position. Between orders the bot sleeps until its next knot is tied, or until the
round starts, waking early when the feed (long-poll) says the board changed. An order
refused because someone was faster (ruling WL-R5) is simply followed by a fresh look.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from clients.referee_client import RefereeAPIError, RefereeClient
from games.base import Command
from games.dice import Dice
from games.wormlord.board import SIZE, Colour, name
from games.wormlord.bot import choose
from games.wormlord.state import Knot, Phase, Side, Timing, WormlordState

_TERRAIN = {"plain": ".", "impassable": "#", "objective": "*"}


class LocalDice(Dice):
    """The bot's own choices (not the game's dice): a private ``random.Random``."""

    def __init__(self, seed: int | str = 0) -> None:
        super().__init__()
        self.rng = random.Random(seed)

    def _next(self, purpose: str, low: int, high: int) -> int:
        return self.rng.randint(low, high)


def state_from_view(position: Mapping[str, Any]) -> WormlordState:
    """The position a seat's view describes (``games.wormlord.views.view``)."""
    if position.get("phase") in (None, "new") or not position.get("squares"):
        return WormlordState()
    by_square = {s["square"]: s for s in position["squares"]}

    def letter(square: str) -> str:
        s = by_square[square]
        return Colour(s["base"]).digit if s["terrain"] == "base" else _TERRAIN[s["terrain"]]

    grid = tuple("".join(letter(name(x, y)) for x in range(SIZE)) for y in reversed(range(SIZE)))
    sides = tuple(
        Side(colour=Colour(s["colour"]), seats=tuple(s["seats"]), base=s["base"], supply=s["supply"], hq=s["hq"],
             next_at_ms=s["next_at_ms"], wins=s["rounds_won"])
        for s in position["sides"]
    )
    knots = tuple(sorted(
        (Knot(s["square"], Colour(s["knot"]["colour"]), s["knot"]["seat"], s["knot"].get("at_ms", 0))
         for s in position["squares"] if s.get("knot")),
        key=lambda k: k.square,
    ))
    t = position.get("timing") or {}
    return WormlordState(
        phase=Phase(position["phase"]), map_id=(position.get("map") or {}).get("id", ""), grid=grid, sides=sides,
        knots=knots, round=position.get("round") or 0, starts_at_ms=position.get("starts_at_ms"),
        ends_at_ms=position.get("ends_at_ms"), ended_at_ms=position.get("ended_at_ms"),
        timing=Timing(**{k: t[k] for k in ("knot_interval_ms", "untie_ms", "countdown_ms", "break_ms", "round_ms")
                         if k in t}),
    )


def order_of(command: Command) -> tuple[str, dict[str, Any]]:
    """The JSON order for a command (the referee adds ``actor`` and ``at_ms`` itself)."""
    payload = {k: (str(v) if isinstance(v, Colour) else v) for k, v in vars(command).items()
               if k not in ("actor", "at_ms")}
    return type(command).__name__, payload


def wake_at(position: Mapping[str, Any], seat: int, now_ms: int) -> int | None:
    """The next moment (ms) after ``now_ms`` when something may change for this seat
    without anyone acting (the start, its knot tied, the next round, the round clock)."""
    mine = (position.get("seats") or {}).get(str(seat)) or {}
    moments = [position.get("starts_at_ms"), mine.get("next_at_ms"), position.get("next_round_at_ms"),
               position.get("ends_at_ms")]
    return min((m for m in moments if m and m > now_ms), default=None)


@dataclass
class Placed:
    """An order the referee accepted: what it was, when it was sent and answered (local ms)."""

    type: str
    payload: dict[str, Any]
    seq: int
    sent_ms: int
    answered_ms: int
    events: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class WormlordBot:
    client: RefereeClient
    game: str
    seat: int
    seed: int | str = 0
    #: the time the bot believes it is, in ms since the epoch (a test injects the referee's)
    clock: Callable[[], int] = field(default=lambda: int(time.time() * 1000))
    placed: list[Placed] = field(default_factory=list)
    refused: list[tuple[str, str | None, str]] = field(default_factory=list)  # (type, rule, why)
    over: bool = False

    def __post_init__(self) -> None:
        self.dice = LocalDice(self.seed)
        self.position: dict[str, Any] = {}
        self.seq = 0

    def look(self) -> dict[str, Any]:
        data = self.client.state(self.game)
        self.position, self.seq = data.get("position") or {}, data.get("seq", 0)
        self.over = self.position.get("phase") == "over"
        return self.position

    def step(self) -> Placed | None:
        """Look at the board and give one order if the engine's bot has one now."""
        position = self.look()
        if self.over:
            return None
        command = choose(state_from_view(position), self.seat, self.dice, self.clock())
        if command is None:
            return None
        kind, payload = order_of(command)
        sent = self.clock()
        try:
            answer = self.client.order(self.game, kind, payload)
        except RefereeAPIError as refused:
            self.refused.append((kind, refused.rule, refused.detail))
            return None
        done = Placed(kind, payload, answer["seq"], sent, self.clock(), answer.get("events", []))
        self.placed.append(done)
        return done

    def run(self, *, max_seconds: float = 3600, max_orders: int = 10_000,
            sleep: Callable[[float], None] = time.sleep,
            stop: Callable[[Mapping[str, Any]], bool] | None = None) -> None:
        """Play until the game is over (or ``stop(view)`` says so, or the bounds are
        reached), as fast as the knot interval allows."""
        end = time.monotonic() + max_seconds
        while not self.over and time.monotonic() < end and len(self.placed) < max_orders:
            if self.step() is not None:
                continue
            if self.over or (stop is not None and stop(self.position)):
                break
            now = self.clock()
            wake = wake_at(self.position, self.seat, now)
            pause = None if wake is None else (wake - now) / 1000
            if pause is not None and pause < 1:
                sleep(max(pause, 0.005))
            else:
                # nothing to do until the board changes (someone placed, a round began) or our moment
                self.client.events(self.game, after=self.seq, wait=5 if pause is None else min(20, int(pause)),
                                   limit=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--seed", default="0")
    args = parser.parse_args()
    client = RefereeClient(args.url)
    client.login(args.user, args.password)
    me = client._call("GET", "/me/")
    seat = next(s["seat"] for s in me["seats"] if s["game"] == args.game)
    bot = WormlordBot(client, args.game, seat, seed=args.seed)
    bot.run()
    print(f"seat {seat}: {len(bot.placed)} orders accepted, {len(bot.refused)} refused; phase {bot.position.get('phase')}")


if __name__ == "__main__":
    main()
