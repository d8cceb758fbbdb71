"""An LGGWG bot that plays through the API from its own team's view, one list a turn.

    python -m clients.lggwg_bot --url http://127.0.0.1:8000 --token TOKEN GAME_ID
    python -m clients.lggwg_bot --url http://127.0.0.1:8000 --user bob --password demo --join

Each round: read the position (``GET /state/``); if the game waits for this team's list
(phase ``orders``, the team still in, its list not in yet), write one with
``games.lggwg.bot.bot_orders_from_view`` (or a policy of your own, a function
``(view, rng) -> list of orders``) and send it as the whole-turn order (``POST /turn/
{"steps": [...]}``, the ruleset's ``SubmitOrders``) or, with ``--commands``, as ``POST
/commands/ {"type": "SubmitOrders", "payload": {"orders": [...]}}``; then wait for the next
record: the server-sent event stream (``GET /stream/?after=SEQ``) over HTTP, or the
long-polling feed (``GET /events/?after=SEQ&wait=S``) where there is no stream (a server
without it answers 404) or no HTTP (tests on the Django test client). A refused list (the turn resolved meanwhile, a unit
died) is followed by a fresh read; a second refusal in the same turn sends one hold. It
stops when the game is over and returns the result (``GET /games/{id}/``).

The token may also come from the environment (``REFEREE_TOKEN``). Only the standard library
and the pure ``games.lggwg.bot`` are used.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from typing import Any

from clients.bot_runner import Say, StreamFeed, bot_arguments, bot_main, wait_for_news
from clients.referee_client import RefereeAPIError, RefereeClient, UrllibTransport

Policy = Callable[[dict[str, Any], random.Random], list[dict[str, str]]]
HOLD = [{"kind": "hold", "unit": "", "target": ""}]


def default_policy() -> Policy:
    from games.dice import Dice
    from games.lggwg.bot import bot_orders_from_view

    class RandomDice(Dice):
        """The bot's own choices (a random direction): the bot's generator, not the referee's dice."""

        def __init__(self, rng: random.Random) -> None:
            super().__init__()
            self.rng = rng

        def _next(self, purpose: str, low: int, high: int) -> int:
            return self.rng.randint(low, high)

    def policy(view: dict[str, Any], rng: random.Random) -> list[dict[str, str]]:
        return bot_orders_from_view(view, RandomDice(rng))

    return policy


def my_team(position: dict[str, Any]) -> dict[str, Any] | None:
    return next((t for t in position.get("teams") or [] if t.get("seat") == position.get("you")), None)


def wants_my_list(position: dict[str, Any]) -> bool:
    """The turn in play waits for this team's list."""
    team = my_team(position)
    return position.get("phase") == "orders" and team is not None and not team["out"] and not team["submitted"]


class LggwgBot:
    """One team of one game. ``step()`` does one round (read, maybe send, wait); ``run()``
    loops until the game is over."""

    def __init__(self, client: RefereeClient, game: str, *, policy: Policy | None = None,
                 rng: random.Random | None = None, wait: int = 20, via_commands: bool = False,
                 log: Callable[[str], None] | None = None) -> None:
        self.client = client
        self.game = game
        self.policy = policy or default_policy()
        self.rng = rng or random.Random()
        self.wait = wait
        self.via_commands = via_commands
        self.log = log or (lambda line: None)
        self.lists = 0
        self.refused = 0
        self.refused_turn = -1
        #: Over HTTP the bot waits on the event stream; on the Django test client it long-polls.
        self.stream = (StreamFeed(client.transport.base_url, client.token, game)
                       if isinstance(client.transport, UrllibTransport) else None)

    def send(self, orders: list[dict[str, str]]) -> None:
        if self.via_commands:
            self.client.order(self.game, "SubmitOrders", {"orders": orders})
        else:
            self.client.submit_turn(self.game, orders)

    def step(self) -> bool:
        """One round; False once the game is over."""
        try:
            data = self.client.state(self.game)
        except RefereeAPIError as not_yet:  # the game has not started: wait for its first record
            self.log(f"no position yet ({not_yet.status})")
            self.wait_for_news(0)
            return True
        position, seq = data["position"], data["seq"]
        if position.get("phase") == "over":
            return False
        if wants_my_list(position):
            turn = position["turn"]
            orders = HOLD if self.refused_turn == turn else (self.policy(position, self.rng) or HOLD)
            try:
                self.send(orders)
            except RefereeAPIError as refused:
                self.refused += 1
                self.refused_turn = turn
                self.log(f"turn {turn}: refused ({refused.rule}) {refused.detail}")
            else:
                self.lists += 1
                self.log(f"turn {turn}: sent {len(orders)} orders")
                return True
        self.wait_for_news(seq)
        return True

    def wait_for_news(self, seq: int) -> None:
        if self.wait:
            self.stream = wait_for_news(self.client, self.game, self.stream, seq, self.wait, seconds=self.wait)

    def run(self, max_rounds: int = 1_000_000) -> dict[str, Any]:
        try:
            for _ in range(max_rounds):
                if not self.step():
                    break
        finally:
            if self.stream is not None:
                self.stream.close()
        return self.client.game(self.game)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = bot_arguments((__doc__ or "").splitlines()[0], "LGGWG")
    parser.add_argument("--commands", action="store_true", help="send lists to /commands/ instead of /turn/")
    parser.add_argument("--no-stream", action="store_true", help="long-poll /events/ instead of the stream")
    return parser.parse_args(argv)


def play(args: argparse.Namespace, client: RefereeClient, game: str, say: Say) -> dict[str, Any]:
    bot = LggwgBot(client, game, rng=random.Random(args.seed), wait=args.wait, via_commands=args.commands, log=say)
    if args.no_stream:
        bot.stream = None
    summary = bot.run()
    return {"status": summary["status"], "lists": bot.lists, "refused": bot.refused, "result": summary.get("result")}


def main(argv: list[str] | None = None) -> int:
    return bot_main(parse_args(argv), ruleset="lggwg", label="LGGWG", play=play)


if __name__ == "__main__":
    sys.exit(main())
