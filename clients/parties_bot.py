"""A Parties bot that plays through the API from its own view, one move a tick.

    python -m clients.parties_bot --url http://127.0.0.1:8000 --token TOKEN GAME_ID
    python -m clients.parties_bot --url http://127.0.0.1:8000 --user bob --password demo --join

Each round: read the position (``GET /state/``); if the tick in play awaits this bot (it
is a solo or a party leader that has not chosen yet), choose a move with
``games.parties.bot`` (or a policy of your own, a function ``(view, rng) -> body | None``)
and send it as a ``Move`` naming the tick, so that a late order is refused rather than
played on the next tick; then wait for the next record: on the server-sent events stream
(``GET /stream/``) when the schema lists it, else with the long-polling feed
(``GET /events/?after=SEQ&wait=S``); ``--feed`` chooses. It stops when the game is over and returns the
result (``GET /games/{id}/``).

The token may also come from the environment (``REFEREE_TOKEN``), which keeps it out of
the process list. Only the standard library and the pure ``games.parties.bot`` are used.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from clients.bot_runner import Say, StreamFeed, bot_arguments, bot_main, wait_for_news
from clients.referee_client import RefereeAPIError, RefereeClient

Policy = Callable[[dict[str, Any], random.Random], "dict[str, Any] | None"]
ALLY_POLICIES = ("always", "never", "lead", "follow")


def default_policy() -> Policy:
    from games.parties.bot import move_order

    return move_order


def wants_my_move(position: dict[str, Any]) -> bool:
    """The tick in play waits for this bot (solos and leaders choose; followers follow)."""
    return (not position.get("finished") and bool(position.get("tick"))
            and position.get("you") in position.get("to_act", []))


def schema_lists_stream(client: RefereeClient) -> bool:
    try:
        schema = client._call("GET", "/schema/?format=json")
    except (RefereeAPIError, OSError, ValueError):
        return False
    return isinstance(schema, dict) and any(p.endswith("/stream/") for p in schema.get("paths", {}))


class PartiesBot:
    """One seat of one game. ``step()`` does one round (read, maybe move, wait); ``run()``
    loops until the game is over."""

    def __init__(self, client: RefereeClient, game: str, *, policy: Policy | None = None,
                 rng: random.Random | None = None, wait: int = 20, log: Callable[[str], None] | None = None,
                 stream: StreamFeed | None = None) -> None:
        self.client = client
        self.game = game
        self.policy = policy or default_policy()
        self.rng = rng or random.Random()
        self.wait = wait
        self.log = log or (lambda line: None)
        self.stream = stream
        self.moves = 0
        self.refused = 0
        self.moved_tick = -1
        self.refused_tick = -1
        self.max_failures = 10

    def set_ally_policy(self, policy: str) -> None:
        self.client.order(self.game, "SetAllyPolicy", {"policy": policy})

    def step(self) -> bool:
        """One round; False once the game is over."""
        data = self.client.state(self.game)
        position, seq = data["position"], data["seq"]
        if position.get("finished"):
            return False
        if wants_my_move(position) and position["tick"] != self.moved_tick:
            body = self.policy(position, self.rng)
            if body is not None and self.refused_tick == position["tick"]:
                body = {"direction": "stay", "tick": position["tick"]}  # refused once: stay is always legal
            if body is not None:
                try:
                    self.client.order(self.game, "Move", body)
                except RefereeAPIError as refused:
                    # The tick closed meanwhile (its number is in the order), or a square
                    # was taken: wait for the next record and read again.
                    self.refused += 1
                    self.refused_tick = position["tick"]
                    self.log(f"tick {position['tick']}: refused ({refused.rule}) {refused.detail}")
                else:
                    self.moves += 1
                    self.moved_tick = position["tick"]
                    self.log(f"tick {position['tick']}: {body['direction']}")
                    return True
        self.stream = wait_for_news(self.client, self.game, self.stream, seq, self.wait)
        return True

    def run(self, max_rounds: int = 1_000_000) -> dict[str, Any]:
        """Play until the game is over; the game's summary (status, result)."""
        failures = 0
        try:
            for _ in range(max_rounds):
                try:
                    if not self.step():
                        break
                    failures = 0
                except (RefereeAPIError, OSError) as exc:
                    # A server hiccup (5xx, a dropped connection) is waited out a few times;
                    # anything the server refuses for good (4xx) is not.
                    if isinstance(exc, RefereeAPIError) and exc.status < 500 and exc.status != 429:
                        raise
                    failures += 1
                    if failures > self.max_failures:
                        raise
                    self.log(f"retrying after: {exc}")
                    time.sleep(min(5.0, 0.5 * failures))
        finally:
            if self.stream is not None:
                self.stream.close()
        return self.client.game(self.game)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = bot_arguments((__doc__ or "").splitlines()[0], "Parties")
    parser.add_argument("--ally-policy", choices=ALLY_POLICIES, help="send SetAllyPolicy once the game runs")
    parser.add_argument("--feed", choices=("auto", "stream", "poll"), default="auto",
                        help="wait on the event stream or the long-poll (auto: the stream if the schema lists it)")
    return parser.parse_args(argv)


def play(args: argparse.Namespace, client: RefereeClient, game: str, say: Say) -> dict[str, Any]:
    use_stream = args.feed == "stream" or (args.feed == "auto" and schema_lists_stream(client))
    stream = StreamFeed(args.url, str(client.token), game) if use_stream else None
    say(f"waiting on the {'stream' if stream else 'long-poll'}")
    bot = PartiesBot(client, game, rng=random.Random(args.seed), wait=args.wait, log=say, stream=stream)
    if args.ally_policy:
        while client.game(game)["status"] == "open":
            client.events(game, after=0, wait=min(args.wait, 5) or 1)
        bot.set_ally_policy(args.ally_policy)
    summary = bot.run()
    return {"status": summary["status"], "moves": bot.moves, "refused": bot.refused, "result": summary.get("result")}


def main(argv: list[str] | None = None) -> int:
    return bot_main(parse_args(argv), ruleset="parties", label="Parties", play=play)


if __name__ == "__main__":
    sys.exit(main())
