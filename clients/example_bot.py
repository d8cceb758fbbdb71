"""An example bot that plays Worms: Evolved through the API, using only what its seat
may see (the position view). Each turn: walk up to three worms safely toward the nearest
enemy, prod an enemy standing next to one of them, end the turn.

    python -m clients.example_bot --url http://127.0.0.1:8000 --user bob --password demo GAME_ID

It waits for its turn with the long-polling event feed, so it does not hammer the server.
"""

from __future__ import annotations

import argparse
from typing import Any

from clients.referee_client import RefereeAPIError, RefereeClient

COLUMNS = "abcdefghijklmno"
SIZE = 15
STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def square(x: int, y: int) -> str:
    return f"{COLUMNS[x]}{y + 1}"


def height(position: dict[str, Any], x: int, y: int) -> int:
    return position["heights"][y * SIZE + x]


def is_my_turn(position: dict[str, Any], seat: int) -> bool:
    return position.get("phase") == "playing" and position.get("seat") == seat and position.get("stage") == "acting"


def safe_step(position: dict[str, Any], frm: tuple[int, int], to: tuple[int, int], blocked: set[tuple[int, int]]) -> bool:
    x, y = to
    if not (0 <= x < SIZE and 0 <= y < SIZE) or to in blocked:
        return False
    here, there = height(position, *frm), height(position, x, y)
    return there > position["water"] and -2 <= there - here <= 1


def plan_walk(position: dict[str, Any], worm: dict[str, Any], seat: int) -> list[str]:
    enemies = [(w["x"], w["y"]) for w in position["worms"] if w["seat"] != seat and w.get("x") is not None]
    if not enemies:
        return []
    occupied = {(w["x"], w["y"]) for w in position["worms"] if w.get("x") is not None}
    blocked = occupied | {(d["x"], d["y"]) for d in position["drums"]} | {(m["x"], m["y"]) for m in position["mines"]}
    at = (worm["x"], worm["y"])
    path: list[str] = []
    for _ in range(3):
        best = min(enemies, key=lambda e: abs(e[0] - at[0]) + abs(e[1] - at[1]))
        if abs(best[0] - at[0]) + abs(best[1] - at[1]) <= 1:
            break
        options = [(at[0] + dx, at[1] + dy) for dx, dy in STEPS]
        options = [o for o in options if safe_step(position, at, o, blocked)]
        options.sort(key=lambda o: abs(best[0] - o[0]) + abs(best[1] - o[1]))
        if not options or abs(best[0] - options[0][0]) + abs(best[1] - options[0][1]) >= abs(best[0] - at[0]) + abs(best[1] - at[1]):
            break
        at = options[0]
        blocked.add(at)
        path.append(square(*at))
    return path


def adjacent_enemy(position: dict[str, Any], seat: int) -> tuple[str, str] | None:
    """(my worm, the square of an enemy next to it), if any: prod range is 1, orthogonal."""
    enemies = {(w["x"], w["y"]) for w in position["worms"] if w["seat"] != seat and w.get("x") is not None}
    for worm in position["worms"]:
        if worm["seat"] != seat or worm.get("x") is None:
            continue
        for dx, dy in STEPS:
            if (worm["x"] + dx, worm["y"] + dy) in enemies:
                return worm["id"], square(worm["x"] + dx, worm["y"] + dy)
    return None


def play_turn(client: RefereeClient, game: str, seat: int) -> None:
    position = client.state(game)["position"]
    mine = [w for w in position["worms"] if w["seat"] == seat and w.get("x") is not None]
    for worm in mine[:3]:
        path = plan_walk(position, worm, seat)
        if path:
            try:
                client.move(game, worm["id"], path)
            except RefereeAPIError:
                pass  # refused (something unseen blocked it): try the next worm
            position = client.state(game)["position"]
            if not is_my_turn(position, seat):
                return  # a fall or a mine ended the turn
    target = adjacent_enemy(position, seat)
    if target is not None:
        try:
            client.fire(game, target[0], "prod", target[1])
        except RefereeAPIError:
            pass  # the prod is spent, or out of its height window
        if not is_my_turn(client.state(game)["position"], seat):
            return
    try:
        client.end_turn(game)
    except RefereeAPIError:
        pass  # the turn had already ended


def run(client: RefereeClient, game: str, seat: int, wait: int = 20) -> None:
    """Play until the game is over."""
    after = 0
    while True:
        info = client.game(game)
        if info["status"] == "finished":
            return
        position = client.state(game)["position"]
        if is_my_turn(position, seat):
            play_turn(client, game, seat)
        after = client.events(game, after=after, wait=wait)["next_after"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    args = parser.parse_args()
    client = RefereeClient(args.url)
    client.login(args.user, args.password)
    seat = next(s["seat"] for s in client._call("GET", "/me/")["seats"] if s["game"] == args.game)
    run(client, args.game, seat)


if __name__ == "__main__":
    main()
