"""Parties through the API in one process: eight example bots (``clients.parties_bot``) on
the Django test client play a whole game; a silent bot's tick is closed at its deadline
by the sweeper on the injected clock; the log verifies and the result ranks the bots.
(The same with real processes over HTTP: tests/integration/test_parties_tournament.py.)"""

from __future__ import annotations

import datetime as dt
import random

import pytest

from clients.parties_bot import PartiesBot, wants_my_move
from clients.referee_client import RefereeAPIError
from referee import scheduling, services
from referee.clock import set_fake_now
from tests.factories import ModeratorFactory, api_client

pytestmark = [pytest.mark.django_db]

T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
SMALL = {"width": 8, "height": 8, "obstacle_percent": 10, "tick_seconds": 2, "max_ticks": 60}


def seat_bots(bot_client, players: int, settings: dict, seed: int = 7) -> tuple[str, list[PartiesBot]]:
    clients = []
    for n in range(players):
        c = bot_client()
        c.signup(f"bot{n + 1}", f"parties-pass-{n + 1}")
        clients.append(c)
    # the tick is the turn limit (P-R4): one figure for both
    game = clients[0].create_game("Arena", "parties", seats=players, settings=settings,
                                  turn_limit_seconds=settings.get("tick_seconds", 2))
    gid = game["id"]
    for n, c in enumerate(clients):
        joined = c.join(gid, f"Bot {n + 1}")
        assert joined["seat"] == n + 1
    services.game_run_pending(game_id=gid)  # on_commit does not fire inside the test's transaction: tick 1
    return gid, [PartiesBot(c, gid, rng=random.Random(seed + n), wait=0) for n, c in enumerate(clients)]


def all_events(bot: PartiesBot, gid: str) -> list[dict]:
    events, after = [], 0
    while True:
        page = bot.client.events(gid, after=after, limit=500)
        events += page["events"]
        if not page["more"]:
            return events
        after = page["next_after"]


def test_eight_bots_play_a_whole_game_through_the_api_and_the_log_verifies(bot_client):
    gid, bots = seat_bots(bot_client, 8, SMALL)
    bots[7].set_ally_policy("never")  # someone refuses company: battles (§3.2)
    for _ in range(2000):
        if not any([bot.step() for bot in bots]):
            break
    summary = bots[0].client.game(gid)
    assert summary["status"] == "finished"
    result = summary["result"]
    assert result["finished"]
    ranking = result["ranking"]
    assert sorted(s for place in ranking for s in place) == list(range(1, 9))
    scores = result["scores"]
    best = [scores[str(s)] for s in ranking[0]]
    assert all(scores[str(s)] <= min(best) for place in ranking[1:] for s in place)
    assert sum(bot.moves for bot in bots) > 0
    position = bots[0].client.state(gid)["position"]
    assert position["finished"] and position["end_reason"] in ("united", "tick cap")
    verify = api_client(ModeratorFactory()).post(f"/api/games/{gid}/verify/")
    assert verify.status_code == 200 and verify.json()["ok"], verify.json()
    types = {e["type"] for e in all_events(bots[0], gid)}
    assert {"GameSetUp", "TickStarted", "TickClosed", "BotMoved", "GameEnded"} <= types


def test_a_silent_bot_stays_and_the_tick_closes_at_its_deadline(bot_client, tmp_path, monkeypatch):
    clock_file = tmp_path / "clock"
    set_fake_now(clock_file, T0)
    monkeypatch.setenv("REFEREE_CLOCK_FILE", str(clock_file))  # the referee and the sweeper read it
    gid, bots = seat_bots(bot_client, 3, SMALL)
    first = bots[0].client.state(gid)["position"]
    assert first["tick"] == 1 and wants_my_move(first)
    assert first["tick_deadline_ms"] == int(T0.timestamp() * 1000) + 2000
    bots[0].step()
    bots[1].step()  # bot 3 says nothing
    position = bots[0].client.state(gid)["position"]
    assert position["tick"] == 1 and position["to_act"] == [3]
    set_fake_now(clock_file, T0 + dt.timedelta(milliseconds=1500))
    scheduling.sweep()
    assert bots[0].client.state(gid)["position"]["tick"] == 1  # not yet
    set_fake_now(clock_file, T0 + dt.timedelta(seconds=2))
    scheduling.sweep()
    after = bots[0].client.state(gid)["position"]
    assert after["tick"] == 2 and after["tick_start_ms"] == int(T0.timestamp() * 1000) + 2000
    closed = [e for e in all_events(bots[0], gid) if e["type"] == "TickClosed"]
    assert closed[-1]["payload"]["by"] == "deadline"
    assert [3, "stay"] in closed[-1]["payload"]["moves"]


def test_a_late_move_naming_an_old_tick_is_refused_with_its_rule(bot_client):
    gid, bots = seat_bots(bot_client, 2, SMALL)
    bots[0].set_ally_policy("never")  # so that meeting cannot unite them and end the game
    for bot in bots:
        bot.step()  # both moved: tick 1 closed at once, tick 2 is in play
    assert bots[0].client.state(gid)["position"]["tick"] == 2
    with pytest.raises(RefereeAPIError) as refused:
        bots[0].client.order(gid, "Move", {"direction": "stay", "tick": 1})
    assert refused.value.status == 400 and refused.value.rule == "tick"


def test_a_chosen_move_stays_secret_from_the_other_bots_until_the_tick_closes(bot_client):
    gid, bots = seat_bots(bot_client, 3, SMALL)
    bots[0].client.order(gid, "Move", {"direction": "stay"})
    mine = bots[0].client.state(gid)["position"]
    theirs = bots[1].client.state(gid)["position"]
    assert mine["pending"] == {"1": "stay"} and theirs["pending"] == {}
    assert [b["moved"] for b in theirs["bots"]][0] is True  # that it chose is public (P-R14)
    feed = all_events(bots[1], gid)
    assert not any(e["type"] == "MoveChosen" for e in feed)
    assert any(e.get("redacted") for e in feed)  # an order was given, not which


def test_the_bot_waits_out_a_server_error_and_plays_on(bot_client, monkeypatch):
    gid, bots = seat_bots(bot_client, 2, SMALL)
    bot = bots[0]
    real = bot.client.transport
    hiccups = []

    def flaky(method, path, body, headers):
        if path.endswith("/state/") and not hiccups:
            hiccups.append(path)
            return 500, {"title": "Server error", "detail": "a hiccup"}
        return real(method, path, body, headers)

    bot.client.transport = flaky
    monkeypatch.setattr("clients.parties_bot.time.sleep", lambda seconds: None)
    bot.run(max_rounds=2)
    assert hiccups and bot.moves == 1


def test_a_bot_changing_its_mind_all_tick_adds_a_bounded_number_of_records(bot_client):
    """One bot on four threads once added ~570 records in a 3-second tick. From version 2 a
    bot chooses its move at most 3 times a tick (P-R19): the rest are refused, and since the
    game no longer waits for its move, the refusals leave nothing (6 records in all)."""
    from referee.models import Event

    gid, bots = seat_bots(bot_client, 3, {**SMALL, "tick_seconds": 10})
    before = Event.objects.filter(game_id=gid).count()
    refused = []
    for _ in range(40):
        try:
            bots[0].client.order(gid, "Move", {"direction": "stay", "tick": 1})
        except RefereeAPIError as error:
            refused.append(error.problem.get("rule"))
    assert Event.objects.filter(game_id=gid).count() - before == 6
    assert refused == ["P-R19"] * 37
    verify = api_client(ModeratorFactory()).get(f"/api/games/{gid}/verify/")
    assert verify.status_code == 200 and verify.json()["ok"], verify.json()
