"""The record file goes through the referee's visibility like every other read: two games
that differ only in one seat's secret (its Worms shopping list) give another seat, and the
public, byte-identical files while the game runs; the moderator's file tells them apart."""

from __future__ import annotations

import json

from games.base import MODERATOR_VIEW, PUBLIC, Actor, SeatInfo, Viewer, work_key_text
from games.registry import default_registry
from referee.core import Referee
from referee.records import record_file
from referee.store.memory import InMemoryEventStore
from tests.fakes import FakeClock

LISTS = {
    "a": {"team_weapon": "mad_cow", "items": [{"item": "bazooka", "count": 3}, {"item": "mine", "count": 2}]},
    "b": {"team_weapon": "minigun", "items": [{"item": "sheep", "count": 1}, {"item": "dynamite", "count": 2}]},
}
PLAIN = {"team_weapon": "minigun", "items": [{"item": "shotgun", "count": 3}]}


def files(secret: str) -> dict[str, bytes]:
    """Each viewer's record file of a Worms game started with seat 2's list ``secret``."""
    referee = Referee(InMemoryEventStore(), default_registry(), FakeClock(), backoff=lambda attempt: None)
    info = referee.create_game(ruleset="worms", settings={"mines": 2}, seed="3c" * 32, game_id="leak")
    referee.start_game(info.id, [SeatInfo(n, f"p{n}") for n in (1, 2, 3)])
    for seat, order in ((1, PLAIN), (2, LISTS[secret]), (3, PLAIN)):
        referee.handle(info.id, command_type="SubmitShoppingList", payload=order, actor=Actor.player(seat))
    for _ in range(3):  # the game starts and its first turn begins
        state, _ = referee.current(info.id)
        rules = referee.ruleset_for(info)
        for work in rules.scheduled_work(state):
            if work.when == "now":
                referee.run_due(info.id, work_key_text(work.key))
    viewers = {"seat 1": Viewer.for_seat(1), "seat 2": Viewer.for_seat(2), "public": PUBLIC,
               "moderator": MODERATOR_VIEW}
    return {name: json.dumps(record_file(referee, info.id, v), sort_keys=True).encode() for name, v in viewers.items()}


def test_two_games_differing_only_in_a_seats_secret_give_the_same_file_to_another_seat_and_the_public():
    a, b = files("a"), files("b")
    assert a["seat 1"] == b["seat 1"]
    assert a["public"] == b["public"]
    assert b"hash" not in a["seat 1"]  # every hash covers the secret
    # the secret really differs underneath: its owner and the moderator see it
    assert a["seat 2"] != b["seat 2"] and b"sheep" in b["seat 2"] and b"sheep" not in b["seat 1"]
    assert a["moderator"] != b["moderator"]
