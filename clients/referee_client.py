"""A small Python client for the referee's REST API, for scripts and bots.

Standard library only. Every write sends an ``Idempotency-Key`` and is retried on a
network error with the same key, so a bot never places an order twice.

    from clients.referee_client import RefereeClient, RefereeAPIError

    client = RefereeClient("http://127.0.0.1:8000")
    client.login("alice", "demo")                      # or RefereeClient(url, token="...")
    game = client.create_game("Friday worms", "worms", seats=2)
    client.join(game["id"], "Alice's team", signup_order={
        "type": "SubmitShoppingList",
        "payload": {"team_weapon": "minigun", "items": [{"item": "bazooka", "count": 3}]},
    })
    for event in client.events(game["id"], after=0, wait=20)["events"]:
        print(event["seq"], event["type"])
    try:
        client.move(game["id"], "A1", ["c5", "c6"])
    except RefereeAPIError as refused:
        print(refused.rule, refused.detail)            # e.g. "§7", "A1 cannot climb 3 levels ..."

Errors come back as RFC 9457 problem details; ``RefereeAPIError`` carries them.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from typing import Any

Transport = Callable[[str, str, Any, dict[str, str]], tuple[int, Any]]


class RefereeAPIError(Exception):
    def __init__(self, status: int, problem: dict[str, Any]) -> None:
        self.status = status
        self.problem = problem
        self.detail = str(problem.get("detail", ""))
        self.rule = problem.get("rule")
        super().__init__(f"{status} {problem.get('title', '')}: {self.detail}")


class UrllibTransport:
    """HTTP over the standard library."""

    def __init__(self, base_url: str, timeout: float = 60.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout

    def __call__(self, method: str, path: str, body: Any, headers: dict[str, str]) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, method=method, headers={
            "Accept": "application/json", **({"Content-Type": "application/json"} if data else {}), **headers,
        })
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read()
                return response.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as error:
            raw = error.read()
            try:
                return error.code, json.loads(raw)
            except ValueError:
                return error.code, {"title": error.reason, "detail": raw.decode(errors="replace")}


class RefereeClient:
    def __init__(self, base_url: str = "http://127.0.0.1:8000", token: str | None = None,
                 transport: Transport | None = None, retries: int = 3) -> None:
        self.transport = transport or UrllibTransport(base_url)
        self.token = token
        self.retries = retries

    # --- plumbing ---------------------------------------------------------------------------
    def _call(self, method: str, path: str, body: Any = None, *, idempotent_write: bool = False) -> Any:
        headers = {"Authorization": f"Token {self.token}"} if self.token else {}
        if idempotent_write:
            headers["Idempotency-Key"] = uuid.uuid4().hex
        for attempt in range(self.retries):
            try:
                status, data = self.transport(method, "/api" + path, body, headers)
            except OSError:
                if attempt == self.retries - 1:
                    raise
                time.sleep(0.5 * 2**attempt)  # same Idempotency-Key: a retry cannot double an order
                continue
            if status == 429 and attempt < self.retries - 1:
                time.sleep(1 + attempt)
                continue
            if status >= 400:
                raise RefereeAPIError(status, data if isinstance(data, dict) else {"detail": str(data)})
            return data
        raise RuntimeError("unreachable")

    def _write(self, method: str, path: str, body: Any = None) -> Any:
        return self._call(method, path, body, idempotent_write=True)

    # --- accounts -------------------------------------------------------------------------------
    def signup(self, username: str, password: str, email: str = "") -> dict[str, Any]:
        data = self._call("POST", "/auth/signup/", {"username": username, "password": password, "email": email})
        self.token = data["token"]
        return data

    def login(self, username: str, password: str) -> dict[str, Any]:
        data = self._call("POST", "/auth/token/", {"username": username, "password": password})
        self.token = data["token"]
        return data

    # --- lobby ------------------------------------------------------------------------------------
    def rulesets(self) -> list[dict[str, Any]]:
        return self._call("GET", "/rulesets/")

    def games(self, **filters: str) -> list[dict[str, Any]]:
        query = "&".join(f"{k}={v}" for k, v in filters.items())
        return self._call("GET", "/games/" + (f"?{query}" if query else ""))

    def oldest_open_game(self, ruleset: str) -> str | None:
        """The id of the oldest game of ``ruleset`` still open for seats, if any."""
        games = [g for g in self.games(status="open", ruleset=ruleset) if g.get("ruleset") == ruleset]
        return str(games[-1]["id"]) if games else None

    def take_seat(self, *, ruleset: str, game: str | None, join: bool, name: str,
                  user: str | None = None, password: str | None = None) -> str:
        """What every bot's command line does first: sign in (unless a token was given),
        find the game (with ``join`` and no id: the oldest open one of ``ruleset``) and take
        a seat in it if asked. Raises ``ValueError`` with a sentence for the user."""
        if not self.token:
            if not (user and password):
                raise ValueError("give --token (or REFEREE_TOKEN), or --user and --password")
            self.login(user, password)
        found = game or (self.oldest_open_game(ruleset) if join else None)
        if not found:
            raise ValueError(f"no game given and no open {ruleset} game found")
        if join:
            joined = self.join(found, name)
            print(json.dumps({"joined": found, "seat": joined["seat"]}), flush=True)
        return found

    def create_game(self, name: str, ruleset: str, **options: Any) -> dict[str, Any]:
        return self._write("POST", "/games/", {"name": name, "ruleset": ruleset, **options})

    def join(self, game: str, name: str, signup_order: dict[str, Any] | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"name": name}
        if signup_order is not None:
            body["signup_order"] = signup_order
        return self._write("POST", f"/games/{game}/join/", body)

    def start(self, game: str) -> dict[str, Any]:
        return self._write("POST", f"/games/{game}/start/")

    # --- play ---------------------------------------------------------------------------------------
    def game(self, game: str) -> dict[str, Any]:
        return self._call("GET", f"/games/{game}/")

    def state(self, game: str, at: int | None = None) -> dict[str, Any]:
        return self._call("GET", f"/games/{game}/state/" + (f"?at={at}" if at else ""))

    def events(self, game: str, after: int = 0, wait: int = 0, limit: int = 100) -> dict[str, Any]:
        return self._call("GET", f"/games/{game}/events/?after={after}&wait={wait}&limit={limit}")

    def order(self, game: str, type_: str, payload: dict[str, Any] | None = None,
              expected_seq: int | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"type": type_, "payload": payload or {}}
        if expected_seq is not None:
            body["expected_seq"] = expected_seq
        return self._write("POST", f"/games/{game}/commands/", body)

    def move(self, game: str, worm: str, path: list[str]) -> dict[str, Any]:
        return self.order(game, "MoveWorm", {"worm": worm, "path": path})

    def fire(self, game: str, worm: str, weapon: str, target: str = "", **extra: str) -> dict[str, Any]:
        return self.order(game, "Fire", {"worm": worm, "weapon": weapon, "target": target, **extra})

    def submit_turn(self, game: str, steps: list[dict[str, Any]]) -> dict[str, Any]:
        return self._write("POST", f"/games/{game}/turn/", {"steps": steps})

    def end_turn(self, game: str) -> dict[str, Any]:
        return self.order(game, "EndTurn")

    def surrender(self, game: str) -> dict[str, Any]:
        return self.order(game, "Surrender")

    def inbox(self, game: str) -> list[dict[str, Any]]:
        return self._call("GET", f"/games/{game}/inbox/")

    # --- audit ----------------------------------------------------------------------------------------
    def replay(self, game: str, seq: int | None = None) -> dict[str, Any]:
        return self._call("GET", f"/games/{game}/replay/" + (f"?seq={seq}" if seq else ""))

    def dice(self, game: str) -> dict[str, Any]:
        return self._call("GET", f"/games/{game}/dice/")

    def verify(self, game: str) -> dict[str, Any]:
        return self._call("GET", f"/games/{game}/verify/")

    def log(self, game: str) -> list[dict[str, Any]]:
        return self._call("GET", f"/games/{game}/log/")
