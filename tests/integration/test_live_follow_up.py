"""A long-poll's next request, under ASGI, is answered from the process's shared read of the
game: no statement when that read already holds what comes after the client's position, and
only the shared read's own when it has to wait. Who may see what is what the full view found
for the same credentials a moment ago, never longer than ``GRANT_SECONDS``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.test import AsyncRequestFactory
from django.urls import resolve
from rest_framework.authtoken.models import Token

from api.views import live as live_views
from api.views.play import GameEventsApi
from bench.streams import Loop
from games.base import PUBLIC, Viewer
from referee import live, selectors, services
from tests.factories import started_game
from tests.integration.test_live_fanout import Counted, wait_until

pytestmark = [pytest.mark.postgres]


@pytest.mark.django_db  # pytest-django sets the test database up only for a module with one
def test_only_a_plain_json_long_poll_may_be_answered_from_the_shared_read():
    factory = AsyncRequestFactory()
    assert GameEventsApi.long_poll_params(factory.get("/x/?after=3&wait=5")) == (3, 100, 5)
    assert GameEventsApi.long_poll_params(factory.get("/x/?after=3")) is None  # not a long-poll
    assert GameEventsApi.long_poll_params(factory.get("/x/?after=-1&wait=5")) is None  # the view's 400
    assert GameEventsApi.long_poll_params(factory.get("/x/?after=3&wait=5&format=api")) is None
    assert GameEventsApi.long_poll_params(factory.get("/x/?after=3&wait=5", headers={"Accept": "text/html"})) is None


class Server:
    """The events view called as the ASGI handler calls it, on a loop in a thread, with the
    live endpoints' database thread counted."""

    def __init__(self, monkeypatch: Any, settings: Any) -> None:
        settings.LIVE_REDIS_URL = None  # the commits' own notices wake the hub
        settings.REFEREE_LIVE_POLL_SECONDS = 10**6
        self.counted = Counted()
        monkeypatch.setattr(live, "DB_EXECUTOR", self.counted.pool)
        # No clock in these tests: grants and followed games last until a test moves the clock.
        monkeypatch.setattr(live_views, "GRANT_SECONDS", 3600.0)
        monkeypatch.setattr(live, "LINGER_SECONDS", 3600.0)
        live_views.forget_grants()
        self.loop = Loop()
        self.factory = AsyncRequestFactory()

    def get(self, game_id: str, after: int, token: str | None, wait: int = 20) -> tuple[int, Any]:
        path = f"/api/games/{game_id}/events/?after={after}&wait={wait}"
        request = self.factory.get(path, headers={"Authorization": f"Token {token}"} if token else {})
        match = resolve(path.split("?")[0])
        response = self.loop.run(match.func(request, **match.kwargs))
        if hasattr(response, "render") and not response.is_rendered:
            response.render()
        return response.status_code, json.loads(response.content)

    def close(self) -> None:
        self.loop.close()
        self.counted.close()
        live_views.forget_grants()


@pytest.fixture
def server(committed, monkeypatch, settings) -> Iterator[Server]:
    running = Server(monkeypatch, settings)
    yield running
    running.close()


def note(game_id: str, seat: Any, text: str) -> None:
    services.command_handle(game_id=game_id, user=seat.user, command_type="WriteNote", payload={"text": text})


def page_of(game_id: str, viewer: Viewer, after: int) -> dict[str, Any]:
    events = selectors.game_events_list(game_id=game_id, viewer=viewer, after=after)
    return {"events": events, "next_after": events[-1]["seq"] if events else after, "more": False}


@pytest.mark.parametrize("reader", ["seat", "public"])
def test_a_long_polls_next_request_is_answered_from_the_shared_read_without_a_statement(server, reader):
    game, seats = started_game()
    game_id = str(game.pk)
    me = Viewer.for_seat(seats[0].number) if reader == "seat" else PUBLIC
    token = Token.objects.create(user=seats[0].user).key if reader == "seat" else None
    start = selectors.viewer_log_position(game_id=game_id, viewer=me)
    # The first long-poll runs the view (credentials, game, seat, log) and waits on the hub.
    pending = ThreadPoolExecutor(1).submit(server.get, game_id, start, token)
    wait_until(lambda: live.reader_count() == 1, "the long-poll waits")
    note(game_id, seats[0], "secret plan A")
    status, answer = pending.result(60)
    assert (status, answer) == (200, page_of(game_id, me, start))
    # While the client takes the answer in, another record comes and the hub reads it.
    note(game_id, seats[0], "secret plan B")
    position = answer["next_after"]
    wait_until(lambda: bool((share := _share(server, game_id, me)) and share.after(position)),
               "the hub has read the second note")
    before = server.counted.statements()
    status, follow_up = server.get(game_id, position, token)
    assert server.counted.statements() == before  # no credential, game, seat or log read
    assert (status, follow_up) == (200, page_of(game_id, me, position))
    seen = repr(answer) + repr(follow_up)
    assert ("secret plan B" in seen) if reader == "seat" else ("secret plan" not in seen)


def test_a_waiting_follow_up_costs_only_the_shared_read_of_the_record_that_answers_it(server):
    game, seats = started_game()
    game_id, me = str(game.pk), Viewer.for_seat(seats[0].number)
    token = Token.objects.create(user=seats[0].user).key
    start = selectors.viewer_log_position(game_id=game_id, viewer=me)
    assert server.get(game_id, start, token, wait=1)[0] == 200  # the full view: it grants, then times out
    before = server.counted.statements()
    pending = ThreadPoolExecutor(1).submit(server.get, game_id, start, token)
    wait_until(lambda: live.reader_count() == 1, "the follow-up waits")
    note(game_id, seats[0], "secret plan C")
    status, answer = pending.result(60)
    assert (status, answer) == (200, page_of(game_id, me, start))
    assert server.counted.statements() - before == 2  # the hub's: the game's row and the new records


def test_a_grant_is_per_credential_and_a_revoked_token_stops_working_once_it_runs_out(server, monkeypatch):
    game, seats = started_game(is_private=True)
    game_id = str(game.pk)
    token = Token.objects.create(user=seats[0].user)
    note(game_id, seats[0], "secret plan D")
    status, answer = server.get(game_id, 0, token.key, wait=1)
    assert status == 200 and "secret plan D" in repr(answer)
    # A stranger right after is not answered from the seat's grant: the game is not found.
    assert server.get(game_id, 0, None, wait=1)[0] == 404
    other = Token.objects.create(user=seats[1].user).key
    status, theirs = server.get(game_id, 0, other, wait=1)
    assert status == 200 and "secret plan D" not in repr(theirs)
    key = token.key
    token.delete()  # (which clears token.key)
    clock = live_views._clock
    monkeypatch.setattr(live_views, "_clock", lambda: clock() + live_views.GRANT_SECONDS)
    status, refused = server.get(game_id, 0, key, wait=1)
    assert status == 401 and "secret plan D" not in repr(refused)


def _share(server: Server, game_id: str, viewer: Viewer) -> Any:
    hubs = [h for loop, h in live._hubs.items() if loop is server.loop.loop]
    return hubs[0].share_of(game_id, viewer) if hubs else None


def test_follow_ups_answered_from_the_shared_read_count_against_the_throttle(server, monkeypatch):
    from rest_framework import throttling

    game, seats = started_game()
    game_id, me = str(game.pk), Viewer.for_seat(seats[0].number)
    token = Token.objects.create(user=seats[0].user).key
    start = selectors.viewer_log_position(game_id=game_id, viewer=me)
    pending = ThreadPoolExecutor(1).submit(server.get, game_id, start, token)
    wait_until(lambda: live.reader_count() == 1, "the long-poll waits")
    note(game_id, seats[0], "secret plan G")
    assert pending.result(60)[0] == 200  # the full view: the first of three
    monkeypatch.setattr(throttling.UserRateThrottle, "THROTTLE_RATES", {"anon": "3/min", "user": "3/min"})
    wait_until(lambda: bool((share := _share(server, game_id, me)) and share.after(start)), "the hub read it")
    codes = [server.get(game_id, start, token)[0] for _ in range(3)]
    assert codes == [200, 200, 429]


def test_a_grant_in_use_is_checked_again_before_it_runs_out_and_a_revoked_token_loses_it(server, monkeypatch):
    game, seats = started_game(is_private=True)
    game_id, me = str(game.pk), Viewer.for_seat(seats[0].number)
    token = Token.objects.create(user=seats[0].user)
    start = selectors.viewer_log_position(game_id=game_id, viewer=me)
    pending = ThreadPoolExecutor(1).submit(server.get, game_id, start, token.key)
    wait_until(lambda: live.reader_count() == 1, "the long-poll waits")
    note(game_id, seats[0], "secret plan H")
    assert pending.result(60)[0] == 200
    key = token.key
    token.delete()  # (which clears token.key)
    clock = live_views._clock
    monkeypatch.setattr(live_views, "_clock", lambda: clock() + 0.75 * live_views.GRANT_SECONDS)
    # Within its grant the token still reads (the bound the docs give), and its grant is checked again ...
    status, answer = server.get(game_id, start, key)
    assert status == 200 and "secret plan H" in repr(answer)
    wait_until(lambda: not live_views._rechecking, "the grant was checked again")
    # ... which the revoked token fails: the next long-poll goes through the full view, refused.
    monkeypatch.setattr(live_views, "_clock", clock)
    status, refused = server.get(game_id, start, key)
    assert status == 401 and "secret plan" not in repr(refused)
