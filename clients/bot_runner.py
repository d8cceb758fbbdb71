"""What the example bots share: waiting on a game's event stream for news, and the command
line that seats a bot in a game, runs it and prints its summary as one JSON line.

Standard library only, like the rest of ``clients``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any

from clients.referee_client import RefereeClient

Say = Callable[[str], None]


class StreamFeed:
    """Waits on the server-sent events stream (``GET /api/games/{id}/stream/``) for a record
    newer than the one asked for. One connection is kept open and read on at the next wait;
    a broken or silent one (the server sends a heartbeat every 15 s) is closed, and the next
    wait opens a new one after the record it asks about."""

    def __init__(self, base_url: str, token: str | None, game: str, timeout: float = 40.0) -> None:
        self.url = f"{base_url.rstrip('/')}/api/games/{game}/stream/"
        self.token = token
        self.timeout = timeout
        self.response: Any = None

    def _open(self, after: int) -> None:
        headers = {"Accept": "text/event-stream", **({"Authorization": f"Token {self.token}"} if self.token else {})}
        request = urllib.request.Request(f"{self.url}?after={after}", headers=headers)
        self.response = urllib.request.urlopen(request, timeout=self.timeout)  # noqa: S310 - the server's own URL

    def wait(self, after: int, seconds: float | None = None) -> bool:
        """Until a record after ``after`` arrives (or, given ``seconds``, the first line
        read after that long: heartbeats let the clock be read), or the stream breaks; the
        caller then reads the position again. False if the server has no stream (404): the
        caller long-polls instead. Any other refusal is raised."""
        until = None if seconds is None else time.monotonic() + seconds
        try:
            if self.response is None:
                self._open(after)
            while True:
                line = self.response.readline()
                if not line:
                    self.close()
                    return True
                if line.startswith(b"id:") and int(line[3:].strip() or 0) > after:
                    return True
                if until is not None and time.monotonic() >= until:
                    return True
        except urllib.error.HTTPError as error:
            self.close()
            if error.code == 404:
                return False
            raise
        except (OSError, ValueError):
            self.close()  # nothing came in time, or the connection broke: read the position again
        return True

    def close(self) -> None:
        if self.response is not None:
            try:
                self.response.close()
            except OSError:
                pass
        self.response = None


def wait_for_news(client: RefereeClient, game: str, stream: StreamFeed | None, after: int, wait: int,
                  seconds: float | None = None) -> StreamFeed | None:
    """Wait for a record after ``after``: on ``stream`` (at most about ``seconds``, if given),
    else on the long-poll for ``wait`` seconds (0: no wait). Returns the stream to wait on
    next time: None once the server has answered that it has none."""
    if stream is not None:
        if stream.wait(after, seconds):
            return stream
        stream.close()  # no stream on this server: long-poll from now on
    if wait:
        client.events(game, after=after, wait=wait, limit=1)
    return None


def bot_arguments(description: str, label: str) -> argparse.ArgumentParser:
    """The options every bot takes; a bot adds its own."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("game", nargs="?", help=f"the game id (default: with --join, the oldest open {label} game)")
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", default=os.environ.get("REFEREE_TOKEN"))
    parser.add_argument("--user")
    parser.add_argument("--password")
    parser.add_argument("--join", action="store_true", help="take a seat first")
    parser.add_argument("--name", help="the seat's name when joining (default: the user name)")
    parser.add_argument("--seed", type=int, help="seed of the bot's own random choices")
    parser.add_argument("--wait", type=int, default=20, help="long-poll seconds (0-25)")
    parser.add_argument("--quiet", action="store_true")
    return parser


def bot_main(
    args: argparse.Namespace, *, ruleset: str, label: str,
    play: Callable[[argparse.Namespace, RefereeClient, str, Say], Mapping[str, Any]],
) -> int:
    """Sign in, find the game and take a seat as asked, then ``play(args, client, game,
    say)`` and print the game and what ``play`` returns (its status, counts and result) as
    one JSON line. Exit status 2 when the seat cannot be taken (the reason on stderr)."""
    client = RefereeClient(args.url, token=args.token)
    try:
        game = client.take_seat(ruleset=ruleset, game=args.game, join=args.join,
                                name=args.name or args.user or f"{label} bot", user=args.user, password=args.password)
    except ValueError as problem:
        print(problem, file=sys.stderr)
        return 2

    def say(line: str) -> None:
        if not args.quiet:
            print(line, flush=True)

    summary = play(args, client, game, say)
    print(json.dumps({"game": game, **summary}), flush=True)
    return 0
