"""LGGWG through the REST API: HTTP bots (clients/lggwg_bot.py, on the Django test client)
play a whole game, one team sending its lists through ``/turn/`` and the other through
``/commands/``; the log verifies and the record downloads and replays offline. A silent team
gets the plain bot's list at the deadline (policy "bot", the sweeper on an injected clock).
A list stays secret from the other team until it resolves."""

from __future__ import annotations

import datetime as dt
import random
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.test import Client

from clients.bot_runner import StreamFeed
from clients.lggwg_bot import LggwgBot, wants_my_list
from clients.referee_client import RefereeAPIError
from game_pages.lggwg import record
from games.registry import default_registry
from referee import scheduling, services
from referee.clock import set_fake_now
from tests.factories import ModeratorFactory, api_client

pytestmark = [pytest.mark.django_db]

T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


def seat_bots(bot_client, players: int, settings: dict, **options) -> tuple[str, list[LggwgBot]]:
    clients = []
    for n in range(players):
        c = bot_client()
        c.signup(f"lggwg-bot{n + 1}", f"a long enough password {n + 1}")
        clients.append(c)
    gid = clients[0].create_game("Little green guys", "lggwg", seats=players, settings=settings, **options)["id"]
    for n, c in enumerate(clients):
        assert c.join(gid, f"Bot {n + 1}")["seat"] == n + 1
    services.game_run_pending(game_id=gid)  # on_commit does not fire inside the test's transaction
    bots = [LggwgBot(c, gid, rng=random.Random(11 + n), wait=0, via_commands=n % 2 == 1)
            for n, c in enumerate(clients)]
    return gid, bots


def all_events(bot: LggwgBot, gid: str) -> list[dict]:
    events, after = [], 0
    while True:
        page = bot.client.events(gid, after=after, limit=500)
        events += page["events"]
        if not page["more"]:
            return events
        after = page["next_after"]


def test_two_bots_play_a_whole_game_through_the_api_and_the_log_verifies(bot_client):
    gid, bots = seat_bots(bot_client, 2, {"map": "duel", "max_turns": 8})
    for _ in range(200):
        if not any([bot.step() for bot in bots]):
            break
    summary = bots[0].client.game(gid)
    assert summary["status"] == "finished"
    result = summary["result"]
    assert result["finished"] and sorted(s for place in result["ranking"] for s in place) == [1, 2]
    assert all(bot.lists > 0 for bot in bots) and sum(bot.refused for bot in bots) == 0
    position = bots[0].client.state(gid)["position"]
    assert position["phase"] == "over" and position["end"] in ("last_turn_played", "last_team_standing")
    moderator = api_client(ModeratorFactory())
    verify = moderator.post(f"/api/games/{gid}/verify/")
    assert verify.status_code == 200 and verify.json()["ok"], verify.json()
    types = {e["type"] for e in all_events(bots[0], gid)}
    assert {"GameStarted", "TurnStarted", "OrdersSubmitted", "TeamSubmitted", "OrderResolved", "GameEnded"} <= types
    # the record, downloaded by anyone once the game is over, replays offline and verifies
    download = Client().get(f"/games/{gid}/lggwg/record.tak")
    assert download.status_code == 200 and download["Content-Disposition"].endswith('.tak"')
    game = record.loads(download.content.decode())
    assert game.complete and game.game["seed"]
    replay = record.replay(game, default_registry())
    assert replay.ok, replay.problems
    assert replay.report.records == len(game.records)


@pytest.fixture
def clock_file(tmp_path, monkeypatch, settings):
    path = tmp_path / "clock"
    set_fake_now(path, T0)
    monkeypatch.setenv("REFEREE_CLOCK_FILE", str(path))  # the referee and the sweeper read it
    settings.REFEREE_OUTAGE_SECONDS = 10**9
    return path


def test_a_silent_team_gets_the_bots_list_at_the_deadline(bot_client, clock_file):
    gid, bots = seat_bots(bot_client, 3, {"map": "triangle", "max_turns": 5},
                          turn_limit_seconds=60, deadline_policy="bot")
    first = bots[0].client.state(gid)["position"]
    assert first["turn"] == 1 and wants_my_list(first)
    bots[0].step()
    bots[1].step()  # bot 3 says nothing
    assert [t["submitted"] for t in bots[0].client.state(gid)["position"]["teams"]] == [True, True, False]
    set_fake_now(clock_file, T0 + dt.timedelta(seconds=59))
    scheduling.sweep()
    assert bots[0].client.state(gid)["position"]["turn"] == 1  # not yet
    set_fake_now(clock_file, T0 + dt.timedelta(seconds=60))
    scheduling.sweep()
    after = bots[2].client.state(gid)["position"]
    assert after["turn"] == 2 and not any(t["submitted"] for t in after["teams"])
    log = api_client(ModeratorFactory()).get(f"/api/games/{gid}/log/").json()
    records = log if isinstance(log, list) else log.get("records", log.get("events", []))
    given = [r for r in records if r["type"] == "ResolveAtDeadline"]
    assert len(given) == 1 and given[0]["payload"]["missed"] == [3] and given[0]["payload"]["policy"] == "bot"
    team3 = [r for r in records if r["type"] == "OrdersSubmitted" and r["payload"]["team"] == 3]
    assert team3 and any(o["kind"] != "hold" for o in team3[0]["payload"]["orders"])  # the bot's list
    verify = api_client(ModeratorFactory()).post(f"/api/games/{gid}/verify/")
    assert verify.json()["ok"], verify.json()


def test_a_list_stays_secret_from_the_other_team_until_it_resolves(bot_client):
    gid, bots = seat_bots(bot_client, 2, {"map": "duel"})
    bots[0].client.submit_turn(gid, [{"kind": "hold", "unit": "R1", "target": ""}])
    mine = bots[0].client.state(gid)["position"]
    theirs = bots[1].client.state(gid)["position"]
    assert mine["orders"] == {"1": ["R1-"]} and theirs["orders"] == {}
    assert [t["submitted"] for t in theirs["teams"]] == [True, False]  # that it is in is public
    feed = all_events(bots[1], gid)
    assert not any(e["type"] == "OrdersSubmitted" for e in feed)
    assert any(e["type"] == "TeamSubmitted" for e in feed)


def test_a_list_naming_another_teams_unit_is_refused_with_its_rule(bot_client):
    gid, bots = seat_bots(bot_client, 2, {"map": "duel"})
    with pytest.raises(RefereeAPIError) as refused:
        bots[0].client.order(gid, "SubmitOrders", {"orders": [{"kind": "move", "unit": "B1", "target": "N"}]})
    assert refused.value.status == 400 and refused.value.rule
    assert "B1" in refused.value.detail


def test_a_team_resending_its_list_all_turn_adds_a_bounded_number_of_records(bot_client):
    """A team may send a new list until the last one is in, and each list is a record and its
    event. From version 3 a team sends at most 5 lists a turn (L-R29): the rest are refused,
    and since the game no longer waits for that team, the refusals leave nothing (11 records:
    5 orders, 5 secret lists and the public TeamSubmitted)."""
    from referee.models import Event

    gid, bots = seat_bots(bot_client, 2, {"map": "duel"})
    before = Event.objects.filter(game_id=gid).count()
    refused = []
    for n in range(40):
        try:
            bots[0].client.order(gid, "SubmitOrders", {"orders": [{"kind": "hold", "unit": "", "target": ""}] * (1 + n % 3)})
        except RefereeAPIError as error:
            refused.append((error.status, error.problem.get("rule")))
    assert Event.objects.filter(game_id=gid).count() - before == 11
    assert refused == [(400, "L-R29")] * 35
    mine = bots[0].client.state(gid)["position"]
    assert mine["orders"] == {"1": ["-", "-"]}  # the fifth list stands
    bots[1].step()  # the other team's list resolves the turn; a new turn counts again
    assert bots[0].client.state(gid)["position"]["turn"] == 2
    bots[0].client.order(gid, "SubmitOrders", {"orders": [{"kind": "hold", "unit": "", "target": ""}]})
    verify = api_client(ModeratorFactory()).post(f"/api/games/{gid}/verify/")
    assert verify.status_code == 200 and verify.json()["ok"], verify.json()


class FakeStream(BaseHTTPRequestHandler):
    """A server-sent event stream with one record after a heartbeat, or none at all (404)."""

    seen: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - the http.server's name
        FakeStream.seen.append(f"{self.path} {self.headers.get('Authorization')}")
        if "/nostream/" in self.path:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        self.wfile.write(b": heartbeat\n\nid: 4\nevent: record\ndata: {}\n\n")
        self.wfile.flush()

    def log_message(self, *args) -> None:  # noqa: ANN002
        pass


def test_the_http_bot_waits_on_the_event_stream_and_falls_back_to_long_polling():
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeStream)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        assert StreamFeed(url, "tok", "g1").wait(3, 5) is True
        assert FakeStream.seen[-1] == "/api/games/g1/stream/?after=3 Token tok"
        FakeStream.seen.clear()
        assert StreamFeed(url + "/nostream", None, "g1").wait(3, 5) is False
    finally:
        server.shutdown()
        server.server_close()
