"""Hostile and careless input gets a clear 4xx in problem+json, never a 500 and never an
HTML page: what an outside tester sent."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from django.test import override_settings
from django.urls import include, path
from rest_framework.test import APIClient
from rest_framework.views import APIView

from api.middleware import RequestLimitsASGI
from tests.factories import UserFactory, acting_seat, api_client, started_game

pytestmark = [pytest.mark.django_db]

NESTED = b"[" * 100_000 + b"]" * 100_000
SURROGATE = '"\\ud800"'  # a JSON escape for half of a UTF-16 pair: valid JSON, not text


def assert_problem(response: Any, status: int | tuple[int, ...]) -> dict:
    statuses = status if isinstance(status, tuple) else (status,)
    assert response.status_code in statuses, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/problem+json"), response["Content-Type"]
    body = json.loads(response.content)
    assert {"type", "title", "status", "detail"} <= set(body) and body["status"] == response.status_code
    return body


def post_raw(client: APIClient, url: str, raw: bytes | str, **headers: str) -> Any:
    return client.generic("POST", url, raw, content_type="application/json", **headers)


@pytest.mark.parametrize("url", ["/api/auth/signup/", "/api/games/", "/api/auth/token/"])
def test_json_nested_too_deeply_is_a_bad_request(url):
    body = assert_problem(post_raw(api_client(UserFactory()), url, NESTED), 400)
    assert "nested" in body["detail"]


def test_json_nested_a_little_too_deeply_is_refused_too():
    deep = "[" * 40 + "]" * 40
    body = assert_problem(post_raw(api_client(UserFactory()), "/api/games/",
                                   f'{{"name": "x", "ruleset": "pig", "settings": {{"a": {deep}}}}}'), 400)
    assert "nested" in body["detail"]


def test_a_lone_surrogate_in_an_order_is_a_bad_request():
    game, seats = started_game()
    client = api_client(acting_seat(game, seats).user)
    raw = f'{{"type": "WriteNote", "payload": {{"text": {SURROGATE}}}}}'
    body = assert_problem(post_raw(client, f"/api/games/{game.pk}/commands/", raw), 400)
    assert "surrogate" in body["detail"]


def test_a_lone_surrogate_in_a_setting_key_is_a_bad_request():
    raw = f'{{"name": "x", "ruleset": "pig", "settings": {{{SURROGATE}: 1}}}}'
    assert_problem(post_raw(api_client(UserFactory()), "/api/games/", raw), 400)


def test_a_lone_surrogate_in_an_idempotent_put_is_a_bad_request():
    game, seats = started_game()
    client = api_client(seats[0].user)
    raw = f'{{"enabled": true, "note": {SURROGATE}}}'
    response = client.generic("PUT", f"/api/games/{game.pk}/reminders/", raw, content_type="application/json",
                              HTTP_IDEMPOTENCY_KEY="k-1")
    assert_problem(response, 400)


def test_a_lone_surrogate_in_a_sign_up_order_is_a_bad_request():
    from tests.factories import GameFactory

    game = GameFactory()
    raw = f'{{"name": "Team", "signup_order": {{"type": {SURROGATE}, "payload": {{}}}}}}'
    assert_problem(post_raw(api_client(UserFactory()), f"/api/games/{game.pk}/join/", raw), 400)


def test_a_square_with_a_five_thousand_digit_row_is_refused_by_the_rules():
    from referee import selectors, services

    game, seats = started_game(ruleset="worms", settings={})
    state, _ = services.referee_get().current(str(game.pk))
    to_act = selectors.ruleset_get(game_id=str(game.pk)).to_act(state)
    client = api_client(next(s for s in seats if s.number in to_act).user)
    raw = json.dumps({"type": "MoveWorm", "payload": {"worm": "A1", "path": ["c" + "7" * 5000]}})
    assert_problem(post_raw(client, f"/api/games/{game.pk}/commands/", raw), (400, 409, 422))


def test_a_body_over_the_limit_is_413_not_an_html_page(settings):
    response = post_raw(APIClient(), "/api/auth/signup/", b'{"username": "' + b"a" * (10 * 1024 * 1024) + b'"}')
    body = assert_problem(response, 413)
    assert str(settings.DATA_UPLOAD_MAX_MEMORY_SIZE) in body["detail"]


@pytest.mark.parametrize("url", ["/api/nothing/", "/api/games/x/nothing/", "/api/games/%00/", "/api/leagues/1x/queue/"])
def test_an_unknown_api_path_is_a_problem_404(url):
    assert_problem(APIClient().get(url), (400, 404))


def test_a_post_to_an_api_path_without_its_slash_says_so():
    body = assert_problem(post_raw(APIClient(), "/api/games", "{}"), 404)
    assert "/api/games/" in body["detail"]


def test_a_method_the_endpoint_lacks_is_a_problem_405():
    assert_problem(APIClient().delete("/api/rulesets/"), 405)


def test_a_forbidden_host_is_a_problem_400():
    assert_problem(APIClient().get("/api/rulesets/", HTTP_HOST="evil.example"), 400)


def test_pages_outside_the_api_keep_their_html_404(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")


# --- a server error, provoked by a view that fails (a fake URLconf, not a mock) -------------

class Broken(APIView):
    def get(self, request: Any) -> Any:
        raise RuntimeError("a bug")


def broken_plain(request: Any) -> Any:
    raise RuntimeError("a bug outside DRF")


urlpatterns = [
    path("api/broken/", Broken.as_view()),
    path("api/broken-plain/", broken_plain),
    path("", include("config.urls")),
]
handler500 = "api.errors.handler500"


@override_settings(ROOT_URLCONF=__name__, DEBUG=False)
@pytest.mark.parametrize("url", ["/api/broken/", "/api/broken-plain/"])
def test_a_server_error_under_the_api_is_problem_json(url):
    client = APIClient(raise_request_exception=False)
    body = assert_problem(client.get(url), 500)
    assert "a bug" not in body["detail"]  # the traceback goes to the log, not to the client


# --- refused before Django: request target, headers, declared length --------------------------

def asgi_call(scope: dict[str, Any], body: bytes = b"") -> tuple[int, dict[bytes, bytes], bytes, bool]:
    reached: list[bool] = []

    async def app(scope: dict, receive: Any, send: Any) -> None:
        reached.append(True)
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(RequestLimitsASGI(app)({"type": "http", "path": "/api/rulesets/", "headers": [], **scope},
                                       receive, send))
    start = sent[0]
    return start["status"], dict(start["headers"]), b"".join(m.get("body", b"") for m in sent[1:]), bool(reached)


@pytest.mark.parametrize(("scope", "status"), [
    ({"query_string": b"q=" + b"x" * 9000}, 414),
    ({"headers": [(b"x-filler", b"y" * 20_000)]}, 431),
    ({"headers": [(b"content-length", b"10485760")]}, 413),
    ({"headers": [(b"content-length", b"ten")]}, 400),
])
def test_what_is_too_large_is_refused_before_it_is_read(scope, status):
    got, headers, body, reached = asgi_call(scope)
    assert got == status and not reached
    assert headers[b"content-type"] == b"application/problem+json"
    assert json.loads(body)["status"] == status


def test_a_request_within_the_limits_reaches_the_application():
    got, _, _, reached = asgi_call({"query_string": b"after=3"})
    assert got == 204 and reached


def test_a_body_without_a_length_is_cut_off_at_the_limit(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    chunks = [{"type": "http.request", "body": b"x" * 600, "more_body": True} for _ in range(5)]
    read: list[int] = []

    async def app(scope: dict, receive: Any, send: Any) -> None:  # reads like Django's ASGI handler
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            read.append(len(message["body"]))

    sent: list[dict] = []

    async def receive() -> dict:
        return chunks.pop(0)

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(RequestLimitsASGI(app)({"type": "http", "path": "/api/games/", "headers": []}, receive, send))
    assert sum(read) <= 1000 and sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["type"] == "/problems/too_large"
