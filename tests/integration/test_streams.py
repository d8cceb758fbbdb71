"""Waiting and streaming reads against the production shape (gunicorn with uvicorn workers,
on the test database and the test Redis): a waiting reader holds no worker, so orders and
/health/ keep answering; streams deliver each viewer's feed, resume, and end."""

from __future__ import annotations

import json
import os
import statistics
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from rest_framework.authtoken.models import Token

from bench.streams import AsgiServer, Loop, Orders, SseStream, every, median_ms, open_streams
from referee.models import Game
from tests.factories import acting_seat, started_game

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


@pytest.mark.django_db  # pytest-django sets the test database up only for a module with one
def test_the_settings_name_the_asgi_application():
    from config.asgi import application

    assert settings.ASGI_APPLICATION == "config.asgi.application" and callable(application)


def database_url() -> str:
    db = settings.DATABASES["default"]
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


@pytest.fixture
def server_factory(committed, tmp_path) -> Iterator[Any]:
    servers: list[AsgiServer] = []

    def make(workers: int = 2, **env: str) -> AsgiServer:
        server = AsgiServer(database_url(), tmp_path / f"var{len(servers)}", workers=workers,
                            extra_env={"REFEREE_STREAM_HEARTBEAT_SECONDS": "1", **env})
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture
def loop() -> Iterator[Loop]:
    running = Loop()
    yield running
    running.close()


def token_of(seat: Any) -> str:
    return Token.objects.get_or_create(user=seat.user)[0].key


def get_json(url: str, token: str | None = None, timeout: float = 40) -> tuple[int, Any]:
    request = urllib.request.Request(url, headers={"Authorization": f"Token {token}"} if token else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def test_five_hundred_idle_streams_leave_orders_answering_and_every_stream_gets_its_records(
        server_factory, loop):
    game, seats = started_game()
    watched, watched_seats = started_game()
    server = server_factory(workers=2)
    orders = Orders(server.port, token_of(seats[0]))
    try:
        orders.many(str(game.pk), 3, "warm-up")
        before = orders.many(str(game.pk), 20, "before")
        streams = loop.run(open_streams(server.port, f"/api/games/{watched.pk}/stream/", 500))
        assert {s.status for s in streams} == {200}
        assert {s.headers["content-type"] for s in streams} == {"text/event-stream"}
        public = get_json(f"{server.url}/api/games/{watched.pk}/events/?limit=500")[1]["events"]
        assert loop.run(every(streams, lambda s: len(s.records) >= len(public), 60))
        during = orders.many(str(game.pk), 20, "during")  # each raises unless answered 201

        # A public order in the watched game reaches every stream, numbered as the feed numbers it.
        mover = acting_seat(watched, watched_seats)
        status, body, _ = Orders(server.port, token_of(mover)).place(str(watched.pk), {"type": "Hold"})
        assert status == 201, body
        public = get_json(f"{server.url}/api/games/{watched.pk}/events/?limit=500")[1]["events"]
        assert loop.run(every(streams, lambda s: len(s.records) >= len(public), 60))
        # (Scheduled work may append more after the Hold: compare what both have seen.)
        odd = next((s for s in streams if s.records[:len(public)] != public), None)
        assert odd is None, next((a, b) for a, b in zip(odd.records, public, strict=False) if a != b)
    finally:
        orders.close()
    print(f"\norders: median {median_ms(before):.1f} ms without streams, {median_ms(during):.1f} ms with 500 "
          f"idle streams (ratio {statistics.median(during) / statistics.median(before):.2f})")


def test_waiting_long_polls_do_not_hold_the_only_worker(server_factory):
    game, _ = started_game()
    server = server_factory(workers=1)
    first = get_json(f"{server.url}/api/games/{game.pk}/events/?limit=500")[1]["next_after"]
    answers: list[Any] = []

    def long_poll() -> None:
        answers.append(get_json(f"{server.url}/api/games/{game.pk}/events/?after={first}&wait=10"))

    polls = [threading.Thread(target=long_poll) for _ in range(5)]
    for p in polls:
        p.start()
    readers = 0
    for _ in range(80):  # until all five wait (they answer only after 10 s: nothing is appended)
        status, health = get_json(f"{server.url}/health/")
        assert status == 200, health
        readers = health["live_readers"]
        if readers == 5:
            break
        time.sleep(0.1)
    assert readers == 5 and answers == [], "the worker answered /health/ only after the long-polls"
    for p in polls:
        p.join(timeout=40)
    assert [a[0] for a in answers] == [200] * 5 and all(a[1]["events"] == [] for a in answers)


def test_a_long_poll_answers_with_the_record_that_woke_it(server_factory, loop):
    game, seats = started_game()
    server = server_factory(workers=2)
    token = token_of(seats[0])
    after = get_json(f"{server.url}/api/games/{game.pk}/events/?limit=500", token)[1]["next_after"]
    answer: list[Any] = []
    waiter = threading.Thread(target=lambda: answer.append(
        get_json(f"{server.url}/api/games/{game.pk}/events/?after={after}&wait=25", token)))
    waiter.start()
    time.sleep(0.5)
    status, body, _ = Orders(server.port, token).place(str(game.pk), {"type": "WriteNote",
                                                                      "payload": {"text": "wake up"}})
    assert status == 201
    waiter.join(timeout=40)
    status, page = answer[0]
    assert status == 200
    assert [e["seq"] for e in page["events"]] == [after + 1, after + 2]
    assert page["events"][-1]["payload"] == {"seat": seats[0].number, "text": "wake up"}


def test_a_seat_streams_its_own_feed_and_resumes_after_the_last_event_id(server_factory, loop):
    game, seats = started_game()
    server = server_factory()
    token = token_of(seats[0])
    Orders(server.port, token).many(str(game.pk), 2, "secret")
    auth = {"Authorization": f"Token {token}"}
    feed = get_json(f"{server.url}/api/games/{game.pk}/events/?limit=500", token)[1]["events"]
    assert any(e["type"] == "NoteWritten" for e in feed)

    mine = loop.run(SseStream.open(server.port, f"/api/games/{game.pk}/stream/", auth))
    loop.spawn(mine.pump())
    assert loop.run(mine.until(lambda s: len(s.records) >= len(feed), 30))
    assert mine.records[:len(feed)] == feed

    resumed = loop.run(SseStream.open(server.port, f"/api/games/{game.pk}/stream/",
                                      {**auth, "Last-Event-ID": str(feed[-3]["seq"])}))
    loop.spawn(resumed.pump())
    assert loop.run(resumed.until(lambda s: len(s.records) >= 2, 30))
    assert resumed.records[:2] == feed[-2:]
    assert loop.run(resumed.until(lambda s: "heartbeat" in s.comments, 30))

    public = get_json(f"{server.url}/api/games/{game.pk}/events/?limit=500")[1]["events"]
    stranger = loop.run(SseStream.open(server.port, f"/api/games/{game.pk}/stream/?after=0"))
    loop.spawn(stranger.pump())
    assert loop.run(stranger.until(lambda s: len(s.records) >= len(public), 30))
    assert stranger.records[:len(public)] == public and not any(e["type"] == "NoteWritten" for e in public)


def test_a_private_game_stream_is_not_found_for_strangers(server_factory, loop):
    game, _ = started_game()
    Game.objects.filter(pk=game.pk).update(is_private=True)
    server = server_factory()
    stream = loop.run(SseStream.open(server.port, f"/api/games/{game.pk}/stream/"))
    body = json.loads(loop.run(stream.read_body()))
    assert stream.status == 404 and stream.headers["content-type"] == "application/problem+json"
    assert body["type"] == "/problems/game_not_found"


def test_a_stream_ends_when_its_client_goes_away(server_factory, loop):
    game, _ = started_game()
    server = server_factory(workers=1)
    streams = loop.run(open_streams(server.port, f"/api/games/{game.pk}/stream/", 20))
    assert loop.run(every(streams, lambda s: bool(s.records), 30))
    assert get_json(f"{server.url}/health/")[1]["live_readers"] == 20
    for s in streams:
        loop.loop.call_soon_threadsafe(s.close)
    readers = 20
    for _ in range(100):
        readers = get_json(f"{server.url}/health/")[1]["live_readers"]
        if readers == 0:
            break
        time.sleep(0.1)
    assert readers == 0


def test_an_append_in_another_process_wakes_the_reader_through_redis(server_factory, settings):
    """The server's fallback poll is switched off: only the Redis notice can wake it."""
    from referee import live, services

    game, seats = started_game()
    server = server_factory(workers=1, REFEREE_LIVE_POLL_SECONDS="100000")
    settings.LIVE_REDIS_URL = os.environ["REDIS_URL"]
    live._publisher = None
    token = token_of(seats[0])
    after = get_json(f"{server.url}/api/games/{game.pk}/events/?limit=500", token)[1]["next_after"]
    answer: list[Any] = []
    waiter = threading.Thread(target=lambda: answer.append(
        get_json(f"{server.url}/api/games/{game.pk}/events/?after={after}&wait=25", token)))
    waiter.start()
    time.sleep(1.0)
    assert answer == []
    services.command_handle(game_id=str(game.pk), user=seats[0].user, command_type="WriteNote",
                            payload={"text": "from another process"})  # commits, then publishes
    waiter.join(timeout=40)
    live._publisher = None
    status, page = answer[0]
    assert status == 200 and page["events"][-1]["payload"]["text"] == "from another process"


def test_the_real_server_refuses_long_targets_and_bodies_in_problem_json(server_factory):
    server = server_factory(workers=1)
    status, body = get_json(f"{server.url}/api/rulesets/?q={'x' * 9000}")
    assert status == 414 and body["type"] == "/problems/uri_too_long"
    request = urllib.request.Request(f"{server.url}/api/auth/signup/", data=b"{" + b" " * 3_000_000 + b"}",
                                     headers={"Content-Type": "application/json"}, method="POST")
    try:
        urllib.request.urlopen(request, timeout=30)
        raise AssertionError("a 3 MB body was accepted")
    except urllib.error.HTTPError as exc:
        assert exc.code == 413 and exc.headers["Content-Type"] == "application/problem+json"
    except (ConnectionResetError, BrokenPipeError):
        pass  # refused before the whole body was sent: the server closed the connection
    except urllib.error.URLError as exc:  # the same, as urllib reports it while still sending
        assert isinstance(exc.reason, (ConnectionResetError, BrokenPipeError)), exc


@pytest.mark.django_db
def test_a_scheduled_job_announces_its_game_once_when_it_commits(django_capture_on_commit_callbacks):
    """Once per job, though this one ran the expiry, the next turn's start and its notice;
    and a job that finds nothing to do announces nothing."""
    import datetime as dt

    from referee import live, scheduling
    from referee.models import DueWork

    game, _ = started_game()
    row = DueWork.objects.get(game=game, kind="deadline", status="pending")
    before = live._blocking_versions.get(str(game.pk), 0)
    later = row.due_at + dt.timedelta(minutes=1)
    with django_capture_on_commit_callbacks(execute=True):
        result = scheduling.due_work_run(game_id=str(game.pk), key=row.key, kind="deadline", now=later)
    assert result.startswith("referee played")
    assert live._blocking_versions.get(str(game.pk), 0) == before + 1
    with django_capture_on_commit_callbacks(execute=True):
        assert scheduling.due_work_run(game_id=str(game.pk), key=row.key, kind="deadline", now=later) == "nothing to do"
    assert live._blocking_versions.get(str(game.pk), 0) == before + 1
