"""What an operator watches: /metrics/ (every process's numbers added up, behind a bearer
token) moves with orders, refusals, deadlines and streams; log lines carry the request id,
the game and the seat."""

from __future__ import annotations

import datetime as dt
import io
import json
import logging
import re
import time
import urllib.error
import urllib.request

import pytest
from django.conf import settings
from prometheus_client.parser import text_string_to_metric_families

from bench.streams import AsgiServer, Loop, every, open_streams
from referee import logs, metrics, scheduling
from referee.models import DueWork
from tests.factories import acting_seat, api_client, started_game

pytestmark = [pytest.mark.postgres]
TOKEN = "operator-token-for-tests"
T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def token(settings) -> str:
    settings.REFEREE_METRICS_TOKEN = TOKEN
    return TOKEN


@pytest.fixture
def now(tmp_path, monkeypatch, settings):
    path = tmp_path / "clock"
    monkeypatch.setenv("REFEREE_CLOCK_FILE", str(path))
    settings.REFEREE_OUTAGE_SECONDS = 10**9  # a jump of hours is not an outage here

    def set_now(instant: dt.datetime) -> None:
        from referee.clock import set_fake_now

        set_fake_now(path, instant)

    set_now(T0)
    return set_now


def database_url() -> str:
    db = settings.DATABASES["default"]
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def scrape(client) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = client.get("/metrics/", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200, response.content
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(response.content.decode()) for s in family.samples}


def value(numbers, name: str, **labels: str) -> float:
    return numbers.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.mark.django_db
def test_without_a_token_set_there_is_no_metrics_endpoint(client, settings):
    settings.REFEREE_METRICS_TOKEN = ""
    assert client.get("/metrics/").status_code == 404
    assert client.get("/metrics/", HTTP_AUTHORIZATION="Bearer ").status_code == 404


@pytest.mark.django_db
def test_the_metrics_are_refused_without_the_token(client, token):
    for header in ({}, {"HTTP_AUTHORIZATION": "Bearer wrong"}, {"HTTP_AUTHORIZATION": f"Token {TOKEN}"}):
        refused = client.get("/metrics/", **header)
        assert refused.status_code == 401 and refused["WWW-Authenticate"].startswith("Bearer")
        assert b"referee_" not in refused.content
    assert client.get("/metrics/", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 200


@pytest.mark.django_db
def test_an_accepted_order_counts_for_its_ruleset_with_its_latency(client, token):
    game, seats = started_game()
    before = scrape(client)
    placed = api_client(acting_seat(game, seats).user).post(f"/api/games/{game.pk}/commands/", {"type": "Roll"},
                                                           format="json")
    assert placed.status_code == 201
    after = scrape(client)
    assert value(after, "referee_orders_accepted_total", ruleset="pig") - \
        value(before, "referee_orders_accepted_total", ruleset="pig") == 1
    assert value(after, "referee_order_seconds_count", ruleset="pig") - \
        value(before, "referee_order_seconds_count", ruleset="pig") == 1
    assert value(after, "referee_orders_refused_total", ruleset="pig", rule="turn") == \
        value(before, "referee_orders_refused_total", ruleset="pig", rule="turn")


@pytest.mark.django_db
def test_a_refused_order_counts_under_the_clause_that_refused_it(client, token):
    game, seats = started_game()
    waiting = next(s for s in seats if s != acting_seat(game, seats))
    before = scrape(client)
    refused = api_client(waiting.user).post(f"/api/games/{game.pk}/commands/", {"type": "Roll"}, format="json")
    assert refused.status_code == 400 and refused.json()["rule"] == "turn"
    after = scrape(client)
    assert value(after, "referee_orders_refused_total", ruleset="pig", rule="turn") - \
        value(before, "referee_orders_refused_total", ruleset="pig", rule="turn") == 1
    assert value(after, "referee_orders_accepted_total", ruleset="pig") == \
        value(before, "referee_orders_accepted_total", ruleset="pig")
    assert value(after, "referee_order_seconds_count", ruleset="pig") - \
        value(before, "referee_order_seconds_count", ruleset="pig") == 1


@pytest.mark.django_db
def test_a_deadline_that_ran_late_is_counted_with_how_late_it_ran(client, token, now):
    game, _ = started_game()
    due = DueWork.objects.get(game=game, kind="deadline", status="pending").due_at
    now(due + dt.timedelta(seconds=90))  # the sweeper comes a minute and a half late
    before = scrape(client)
    assert value(before, "referee_due_work_waiting", kind="deadline") == 1
    assert value(before, "referee_due_work_oldest_wait_seconds", kind="deadline") == 90
    scheduling.sweep()
    after = scrape(client)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("referee_due_work_ran_total", kind="deadline", outcome="done") == 1
    assert moved("referee_due_work_lateness_seconds_count", kind="deadline") == 1
    assert moved("referee_due_work_lateness_seconds_sum", kind="deadline") == pytest.approx(90)
    assert moved("referee_due_work_lateness_seconds_bucket", kind="deadline", le="60.0") == 0
    assert moved("referee_due_work_lateness_seconds_bucket", kind="deadline", le="300.0") == 1
    assert value(after, "referee_due_work_waiting", kind="deadline") == 0


def server_scrape(server) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    request = urllib.request.Request(server.url + "/metrics/", headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read().decode()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def readers_become(server, expected: float, timeout: float = 60) -> float:
    """The streams gauge once it is ``expected`` (a closed connection is noticed at the
    stream's next heartbeat), or what it was when the time ran out."""
    end = time.monotonic() + timeout
    while True:
        seen = value(server_scrape(server), "referee_live_readers", kind="stream")
        if seen == expected or time.monotonic() > end:
            return seen
        time.sleep(0.2)


@pytest.mark.redis  # committed games: the server is another process
def test_streams_open_in_several_web_workers_are_counted_in_one_scrape(committed, tmp_path):
    game, _ = started_game()
    server = AsgiServer(database_url(), tmp_path / "var", workers=2, extra_env={
        "REFEREE_METRICS_TOKEN": TOKEN, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"),
        "REFEREE_STREAM_HEARTBEAT_SECONDS": "1"})
    loop = Loop()
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(server.url + "/metrics/", timeout=30)
        assert refused.value.code == 401
        assert readers_become(server, 0) == 0
        streams = loop.run(open_streams(server.port, f"/api/games/{game.pk}/stream/", 3))
        assert [s.status for s in streams] == [200] * 3, server.log_path.read_text()[-3000:]
        assert loop.run(every(streams, lambda s: "heartbeat" in s.comments, 60)), server.log_path.read_text()[-3000:]
        assert readers_become(server, 3) == 3
        for stream in streams:
            loop.loop.call_soon_threadsafe(stream.close)  # the client goes away
        assert readers_become(server, 0) == 0
    finally:
        loop.close()
        server.stop()


@pytest.mark.django_db
def test_a_failed_notice_delivery_is_counted_by_channel(client, token):
    before = value(scrape(client), "referee_notice_deliveries_failed_total", channel="webhook")
    metrics.notice_delivery_failed("webhook")
    assert value(scrape(client), "referee_notice_deliveries_failed_total", channel="webhook") == before + 1


@pytest.fixture
def json_lines():
    """What the loggers write, as the production JSON formatter writes it."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logs.JsonFormatter())
    access = logging.getLogger("referee.access")
    level = access.level
    access.addHandler(handler)
    access.setLevel(logging.INFO)
    yield lambda: [json.loads(line) for line in out.getvalue().splitlines()]
    access.removeHandler(handler)
    access.setLevel(level)


@pytest.mark.django_db
def test_a_json_log_line_carries_the_request_id_the_game_and_the_seat(json_lines):
    game, seats = started_game()
    mover = acting_seat(game, seats)
    response = api_client(mover.user).post(f"/api/games/{game.pk}/commands/", {"type": "Roll"}, format="json",
                                           HTTP_X_REQUEST_ID="forum-bot-7f3a")
    assert response.status_code == 201 and response["X-Request-ID"] == "forum-bot-7f3a"
    line = next(x for x in json_lines() if x["path"] == f"/api/games/{game.pk}/commands/")
    assert line["request_id"] == "forum-bot-7f3a"
    assert line["game_id"] == str(game.pk) and line["seat"] == mover.number
    assert line["status"] == 201 and line["level"] == "INFO" and line["logger"] == "referee.access"


@pytest.mark.django_db
def test_a_request_without_a_plain_request_id_gets_one_of_its_own(json_lines):
    game, seats = started_game()
    reader = api_client(seats[1].user)
    for sent in (None, "two words", "x" * 200):
        headers = {} if sent is None else {"HTTP_X_REQUEST_ID": sent}
        answer = reader.get(f"/api/games/{game.pk}/state/", **headers)
        assert answer.status_code == 200
        made = answer["X-Request-ID"]
        assert made != sent and re.fullmatch(r"[0-9a-f]{32}", made), made
    lines = [x for x in json_lines() if x["path"].endswith("/state/")]
    assert len({x["request_id"] for x in lines}) == 3
    assert all(x["seat"] == seats[1].number and x["game_id"] == str(game.pk) for x in lines)


def _due_work_samples() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for metric in (metrics.DUE_WORK_RAN, metrics.DUE_WORK_LATENESS)
            for family in metric.collect() for s in family.samples if not s.name.endswith("_created")}


def _moved(before: dict, after: dict) -> dict:
    return {k: v - before.get(k, 0.0) for k, v in after.items() if v != before.get(k, 0.0)}


def test_a_tally_of_due_work_records_what_recording_each_row_records():
    rows = [("deadline", 0.0, "referee played Hold"), ("deadline", 90.0, "referee played Hold"),
            ("deadline", 90.0, "refused: not your turn"), ("deadline", 7200.0, "referee played Hold"),
            ("notify", 0.25, "notified 2"), ("notify", 1e9, "notified 0"), ("now", None, "ran")]

    def moved_by(record) -> dict:
        before = _due_work_samples()
        record()
        return _moved(before, _due_work_samples())

    def each() -> None:
        for kind, late, result in rows:
            metrics.due_work_ran(kind=kind, due_at=None if late is None else T0 - dt.timedelta(seconds=late), now=T0,
                                 result=result)

    def tallied() -> None:
        tally = metrics.DueWorkTally()
        for kind, late, result in rows:
            tally.add(kind=kind, due_at=None if late is None else T0 - dt.timedelta(seconds=late), now=T0,
                      result=result)
        tally.record()

    one_by_one = moved_by(each)
    assert one_by_one[("referee_due_work_lateness_seconds_count", (("kind", "deadline"),))] == 4
    tally_moved = moved_by(tallied)
    assert tally_moved.keys() == one_by_one.keys()
    assert tally_moved == pytest.approx(one_by_one)
