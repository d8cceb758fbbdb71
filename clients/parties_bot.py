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
import json
import os
import random
import sys
import time
import urllib.request
from collections.abc import Callable
from typing import Any

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


class StreamFeed:
    """Waits on the server-sent events stream (``GET /api/games/{id}/stream/``): one
    connection kept open, read until a record newer than the one asked for arrives. A
    broken or silent stream (the server sends a heartbeat every 15 s) is simply reopened
    on the next wait, after the last record seen."""

    def __init__(self, base_url: str, token: str, game: str, timeout: float = 40.0) -> None:
        self.url = f"{base_url.rstrip('/')}/api/games/{game}/stream/"
        self.token = token
        self.timeout = timeout
        self.response: Any = None

    def _open(self, after: int) -> None:
        request = urllib.request.Request(f"{self.url}?after={after}", headers={
            "Accept": "text/event-stream", "Authorization": f"Token {self.token}"})
        self.response = urllib.request.urlopen(request, timeout=self.timeout)  # noqa: S310 - the server's own URL

    def wait(self, after: int) -> None:
        try:
            if self.response is None:
                self._open(after)
            while True:
                line = self.response.readline()
                if not line:
                    self.close()
                    return
                if line.startswith(b"id:") and int(line[3:].strip() or 0) > after:
                    return
        except (OSError, ValueError):
            self.close()

    def close(self) -> None:
        if self.response is not None:
            try:
                self.response.close()
            except OSError:
                pass
        self.response = None


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
        if self.stream is not None:
            self.stream.wait(seq)
        elif self.wait:
            self.client.events(self.game, after=seq, wait=self.wait, limit=1)
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
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", nargs="?", help="the game id (default: with --join, the oldest open Parties game)")
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", default=os.environ.get("REFEREE_TOKEN"))
    parser.add_argument("--user")
    parser.add_argument("--password")
    parser.add_argument("--join", action="store_true", help="take a seat first")
    parser.add_argument("--name", help="the seat's name when joining (default: the user name)")
    parser.add_argument("--ally-policy", choices=ALLY_POLICIES, help="send SetAllyPolicy once the game runs")
    parser.add_argument("--seed", type=int, help="seed of the bot's own random choices")
    parser.add_argument("--wait", type=int, default=20, help="long-poll seconds (0-25)")
    parser.add_argument("--feed", choices=("auto", "stream", "poll"), default="auto",
                        help="wait on the event stream or the long-poll (auto: the stream if the schema lists it)")
    parser.add_argument("--quiet", action="store_true")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    client = RefereeClient(args.url, token=args.token)
    try:
        game = client.take_seat(ruleset="parties", game=args.game, join=args.join,
                                name=args.name or args.user or "Parties bot", user=args.user, password=args.password)
    except ValueError as problem:
        print(problem, file=sys.stderr)
        return 2

    def say(line: str) -> None:
        if not args.quiet:
            print(line, flush=True)

    use_stream = args.feed == "stream" or (args.feed == "auto" and schema_lists_stream(client))
    stream = StreamFeed(args.url, str(client.token), game) if use_stream else None
    say(f"waiting on the {'stream' if stream else 'long-poll'}")
    bot = PartiesBot(client, game, rng=random.Random(args.seed), wait=args.wait, log=say, stream=stream)
    if args.ally_policy:
        while client.game(game)["status"] == "open":
            client.events(game, after=0, wait=min(args.wait, 5) or 1)
        bot.set_ally_policy(args.ally_policy)
    summary = bot.run()
    print(json.dumps({"game": game, "status": summary["status"], "moves": bot.moves, "refused": bot.refused,
                      "result": summary.get("result")}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
