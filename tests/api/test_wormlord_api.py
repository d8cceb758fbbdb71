"""Wormlord through the REST API: a whole timed game between two HTTP bots
(clients/wormlord_bot.py, on the Django test client), the round clock run by the
scheduler on an injected clock, the log verified; and two players liberating one space
the same moment: arrival order decides and the second is told why, with the rule."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest
from django.test import Client

from clients.referee_client import RefereeAPIError
from clients.wormlord_bot import WormlordBot, order_of, state_from_view, wake_at
from games.base import Actor, Viewer
from games.wormlord import RULESET
from games.wormlord.commands import Liberate
from referee import scheduling, services
from tests.factories import ModeratorFactory, api_client

pytestmark = pytest.mark.django_db
T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
T0_MS = int(T0.timestamp() * 1000)


@pytest.fixture
def now(tmp_path, monkeypatch, settings):
    """The injected clock (referee/clock.py): ``now.ms`` is the referee's time; ``now.at``
    moves it, and the bots read the same time."""
    path = tmp_path / "clock"
    monkeypatch.setenv("REFEREE_CLOCK_FILE", str(path))
    settings.REFEREE_OUTAGE_SECONDS = 10**9
    from referee.clock import set_fake_now

    class Clock:
        ms = T0_MS

        def at(self, ms: int) -> None:
            self.ms = ms
            set_fake_now(path, dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC))

    clock = Clock()
    clock.at(T0_MS)
    return clock


def players(bot_client, names: list[str], **settings):
    """Signed-up clients; the first opens a Wormlord game, all join (the last seat starts it)."""
    clients = []
    for name in names:
        client = bot_client()
        client.signup(f"{name.lower()}-bot", "a long enough password 1")
        clients.append(client)
    game = clients[0].create_game("Knots", "wormlord", seats=len(names), settings=settings)["id"]
    seats = [c.join(game, name)["seat"] for c, name in zip(clients, names, strict=True)]
    services.game_run_pending(game_id=game)  # on_commit does not fire inside the test's transaction
    return game, clients, seats


def run_scheduler(game: str) -> None:
    scheduling.sweep()
    services.game_run_pending(game_id=game)


def test_a_whole_timed_game_between_two_http_bots_is_played_and_verifies(bot_client, now):
    game, clients, seats = players(bot_client, ["Ann", "Bo"], map="Duel", time_limit=True, round_seconds=60,
                                   knot_interval_ms=4000, untie_ms=1000, countdown_ms=3000, break_ms=5000)
    bots = [WormlordBot(c, game, s, seed=s, clock=lambda: now.ms) for c, s in zip(clients, seats, strict=True)]
    rounds_seen: set[int] = set()
    for _ in range(400):  # bounded: far more than 2-3 rounds need
        run_scheduler(game)
        for bot in bots:
            if bot.step() is not None:
                bot.look()  # its next knot's time
        rounds_seen.add(bots[0].position.get("round") or 0)
        if all(bot.over for bot in bots):
            break
        # the next moment anything can happen: a knot tied, a start, a clock (the scheduler's too)
        wakes = [w for bot in bots if (w := wake_at(bot.position, bot.seat, now.ms)) is not None]
        now.at(min(wakes) if wakes else now.ms + 1000)
    detail = clients[0].game(game)
    assert detail["status"] == "finished", bots[0].position.get("phase")
    result = detail["result"]
    assert len(result["winners"]) == 1 and result["summary"].endswith("won 2 rounds.")
    assert max(rounds_seen) >= 2
    # every accepted order is in the log exactly once, nothing else from the players
    mod = api_client(ModeratorFactory())
    log = mod.get(f"/api/games/{game}/log/").json()
    logged = Counter((r["type"], r["actor"]["seat"]) for r in log
                     if r["kind"] == "command" and r["actor"]["kind"] == "player")
    placed = Counter((p.type, bot.seat) for bot in bots for p in bot.placed)
    assert logged == placed and sum(placed.values()) > 10
    assert any(r["type"] == "RoundWon" for r in log)
    verify = mod.post(f"/api/games/{game}/verify/")
    assert verify.status_code == 200 and verify.json()["ok"], verify.json()
    # the game page tells the result, and offers no more orders
    html = Client().get(f"/games/{game}/").content.decode()
    winner = next(s["colour"] for s in bots[0].position["sides"] if s["rounds_won"] >= 2)
    assert "The game is over." in html and f"{winner.capitalize()} won the game." in html
    assert 'id="wl-act"' not in html


def test_the_round_clock_ends_a_round_when_the_scheduler_runs_at_its_time(bot_client, now):
    game, clients, _ = players(bot_client, ["Ann", "Bo"], time_limit=True, round_seconds=60,
                               knot_interval_ms=1000, countdown_ms=3000)
    position = clients[0].state(game)["position"]
    assert position["phase"] == "running" and position["ends_at_ms"] == T0_MS + 63_000
    now.at(T0_MS + 4000)
    clients[0].order(game, "Conquer", {"square": "d2"})
    now.at(T0_MS + 62_999)
    run_scheduler(game)
    assert clients[0].state(game)["position"]["phase"] == "running"
    now.at(T0_MS + 63_000)
    run_scheduler(game)
    position = clients[0].state(game)["position"]
    assert position["phase"] == "break"
    assert [s["rounds_won"] for s in position["sides"]] == [1, 0]  # pink held one space, blue none


def test_two_players_liberating_one_space_the_second_is_told_why_with_the_rule(bot_client, now):
    game, clients, seats = players(bot_client, ["Ann", "Bo", "Cy"], knot_interval_ms=1000, untie_ms=0,
                                   countdown_ms=3000)
    ann, bo, cy = clients  # pink (base d1), blue (a4), yellow (g4) on the standard 3-player map
    steps = [(ann, "d2"), (bo, "b4"), (cy, "f4"), (bo, "c4"), (cy, "e4"), (bo, "c3"), (cy, "d4"), (cy, "d3")]
    at = T0_MS + 4000
    for client, square in steps:
        now.at(at)
        client.order(game, "Conquer", {"square": square})
        at += 1000
    now.at(at)
    first = ann.order(game, "Liberate", {"square": "d3", "owner": "yellow"})
    assert [e["type"] for e in first["events"] if e["kind"] == "event"] == ["KnotLiberated", "KnotPlaced"]
    with pytest.raises(RefereeAPIError) as refused:
        bo.order(game, "Liberate", {"square": "d3", "owner": "yellow"})
    assert refused.value.rule == "§3.2"
    assert "d3 holds a pink knot, not a yellow one, placed there by seat 1 (pink) 0 s before your order arrived" in (
        refused.value.detail
    )
    square = next(s for s in bo.state(game)["position"]["squares"] if s["square"] == "d3")
    assert square["knot"]["colour"] == "pink"  # the refusal changed nothing
    # a refusal is answered, not recorded (ruling WL-R16): the log holds the one liberation
    log = api_client(ModeratorFactory()).get(f"/api/games/{game}/log/").json()
    assert [r["actor"]["seat"] for r in log if r["type"] == "Liberate"] == [1]


def test_the_bot_rebuilds_the_position_from_a_seats_view(bot_client, now):
    game, clients, seats = players(bot_client, ["Ann", "Bo"], knot_interval_ms=1000)
    now.at(T0_MS + 4000)
    clients[0].order(game, "Conquer", {"square": "d2"})
    clients[0].order(game, "PlaceHeadquarters", {"square": "d2"})
    from referee.instance import referee_get

    state, _ = referee_get().current(game)
    view = clients[1].state(game)["position"]
    assert repr(state_from_view(view)) == repr(state)
    assert RULESET.view(state_from_view(view), Viewer.for_seat(2)) == view
    assert wake_at(view, 1, T0_MS + 4000) == T0_MS + 5000  # pink's next knot
    assert order_of(Liberate(actor=Actor.player(2), at_ms=1, square="d2", owner="pink")) == (
        "Liberate", {"square": "d2", "owner": "pink"})


def test_a_seat_moving_its_headquarters_all_round_adds_a_bounded_number_of_records(bot_client, now):
    """Each accepted headquarters move is a command and its event; a seat sending them as
    fast as it could once grew the log without limit. From version 2 a colour moves it at
    most 30 times a round (WL-R18): 80 moves add 60 records, the rest are refused with the
    rule and leave nothing, and the log verifies."""
    from referee.models import Event

    game, clients, _ = players(bot_client, ["Ann", "Bo"], knot_interval_ms=1000, countdown_ms=3000)
    ann = clients[0]
    for at, square in ((4000, "d2"), (5000, "d3")):
        now.at(T0_MS + at)
        ann.order(game, "Conquer", {"square": square})
    before = Event.objects.filter(game_id=game).count()
    refused = Counter()
    for n in range(80):
        try:
            ann.order(game, "PlaceHeadquarters", {"square": "d2" if n % 2 else "d3"})
        except RefereeAPIError as error:
            refused[error.rule] += 1
    assert Event.objects.filter(game_id=game).count() - before == 60
    assert refused == {"WL-R18": 25, "§5": 25}  # §5: it already stands where the other half asks
    assert next(s["hq"] for s in ann.state(game)["position"]["sides"] if s["colour"] == "pink") == "d2"
    verify = api_client(ModeratorFactory()).post(f"/api/games/{game}/verify/")
    assert verify.status_code == 200 and verify.json()["ok"], verify.json()
