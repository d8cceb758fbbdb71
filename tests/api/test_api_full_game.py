"""A whole game of Worms played to the end through the API by scripted clients (the
example bot), then replayed, verified, and every dice roll recomputed from the revealed seed."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from clients.example_bot import is_my_turn, play_turn
from referee import services
from tests.factories import ModeratorFactory

pytestmark = [pytest.mark.django_db]

SHOPPING = {"type": "SubmitShoppingList", "payload": {
    "team_weapon": "minigun", "items": [{"item": "bazooka", "count": 2}, {"item": "mine", "count": 2}]}}


def recompute(seed: str, game: str, seq: int, index: int, low: int, high: int) -> int:
    """Written from the procedure the API publishes, independently of games/dice.py."""
    n, attempt = high - low + 1, 0
    while True:
        digest = hmac.new(bytes.fromhex(seed), f"{game}:{seq}:{index}:{attempt}".encode(), hashlib.sha256).digest()
        x = int.from_bytes(digest[:8], "big")
        if x < (2**64 // n) * n:
            return low + x % n
        attempt += 1


def test_a_whole_game_through_the_api_then_replayed_and_verified(bot_client):
    ann, bob = bot_client(), bot_client()
    ann.signup("ann", "correct-horse-1")
    bob.signup("bob", "correct-horse-2")
    game = ann.create_game("API derby", "worms", seats=2, settings={"sudden_death_after": 1})
    assert len(game["seed_hash"]) == 64
    ann.join(game["id"], "Ann", signup_order=SHOPPING)
    joined = bob.join(game["id"], "Bob", signup_order=SHOPPING)
    assert joined["game_status"] == "active"  # the last seat starts it
    gid = game["id"]
    seats = {c: next(s["seat"] for s in c._call("GET", "/me/")["seats"] if s["game"] == gid) for c in (ann, bob)}
    assert ann.inbox(gid)[0]["type"] == "SubmitShoppingList"  # private to Ann
    for _ in range(400):
        services.game_run_pending(game_id=gid)  # what the Celery worker does after each commit
        if ann.game(gid)["status"] == "finished":
            break
        position = ann.state(gid)["position"]
        for client, seat in seats.items():
            if is_my_turn(position, seat):
                play_turn(client, gid, seat)
    assert ann.game(gid)["status"] == "finished"
    final = ann.state(gid)["position"]
    assert final["winner"] is not None or final["draw"]

    steps = bob.replay(gid)["steps"]
    assert steps[0]["type"] == "Setup" and any(s["type"] == "EndTurn" for s in steps)
    move = next(s for s in steps if s["type"] == "MoveWorm")
    detail = bob.replay(gid, move["seq"])
    assert detail["clauses"] == ["§7"] or "§7" in detail["clauses"]
    assert detail["diff"], "a move changes the position"

    moderator = bot_client()
    ModeratorFactory(username="judge", password="judge-pass-1")
    moderator.login("judge", "judge-pass-1")
    report = moderator.verify(gid)
    assert report["ok"], report["problems"]

    dice = ann.dice(gid)
    assert dice["seed"] and hashlib.sha256(bytes.fromhex(dice["seed"])).hexdigest() == dice["seed_hash"]
    rolls = 0
    for record in moderator.log(gid):
        for index, draw in enumerate(record.get("draws", [])):
            assert draw["value"] == recompute(dice["seed"], gid, record["seq"], index, draw["low"], draw["high"])
            rolls += 1
    assert rolls > 20
