"""Wormlord live in a real browser (Debian's Chromium, Playwright) against a real
``runserver`` on the test database: two players' pages; a click on a space places a knot
without a reload, and the other player's board shows it without a reload (the stream, or
the long-poll); a refused click is told with its rule. Screenshots go to test-artifacts/."""

from __future__ import annotations

import time
import uuid

import pytest
from playwright.sync_api import expect

from referee import lobby, services
from referee.models import Game
from tests.browser.conftest import artifacts, browser, server  # noqa: F401  (the fixtures)

pytestmark = [pytest.mark.postgres]


@pytest.mark.django_db
def test_the_test_database_is_created_for_the_live_wormlord_tests():
    """pytest-django builds the test database only for a django_db test."""
    from django.db import connection

    assert connection.settings_dict["NAME"].startswith("test_")
    assert Game._meta.db_table in connection.introspection.table_names()


def _user(name: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=name, password="pw-" + name)


def _signed_in(browser, server: str, user):  # noqa: F811
    page = browser.new_page(viewport={"width": 1280, "height": 1100})
    page.goto(server + "/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill("pw-" + user.username)
    page.get_by_role("button", name="Sign in").click()
    return page


def test_a_click_places_a_knot_and_the_other_board_shows_it_live(server, browser, artifacts):  # noqa: F811
    tag = uuid.uuid4().hex[:6]
    ann, bo = _user(f"wa{tag}"), _user(f"wb{tag}")
    game = services.game_create(name=f"Live knots {tag}", ruleset="wormlord", seats=2,
                                settings={"knot_interval_ms": 500, "countdown_ms": 1500})
    lobby.game_join(game_id=str(game.pk), user=ann, name="Ann")
    lobby.game_join(game_id=str(game.pk), user=bo, name="Bo")
    services.game_run_pending(game_id=str(game.pk))  # round 1 is set up now (the countdown runs)
    pages = [_signed_in(browser, server, u) for u in (ann, bo)]
    for page in pages:
        page.goto(f"{server}/games/{game.pk}/")
        expect(page.locator("svg.wormlord")).to_be_visible()
    ann_page, bo_page = pages
    expect(ann_page.locator("[data-wl-countdown]")).to_contain_text("Playing", timeout=10_000)
    time.sleep(0.6)  # the first knot is tied a knot interval after NOW!
    bo_page.evaluate("window.notReloaded = true")

    ann_page.locator('svg.wormlord g.space[data-square="d2"]').click()
    expect(ann_page.locator("#live")).to_contain_text("Ann (pink) took d2.")
    # Bo's page was not reloaded: the feed brought the record and the board was redrawn in place
    expect(bo_page.locator('svg.wormlord g.space[data-square="d2"][data-knot="pink"]')).to_have_count(1,
                                                                                                    timeout=15_000)
    expect(bo_page.locator("#live")).to_contain_text("Ann (pink) took d2.")
    assert bo_page.evaluate("window.notReloaded") is True

    ann_page.locator('svg.wormlord g.space[data-square="d5"]').click()
    expect(ann_page.locator("#live")).to_contain_text("(rule §3.2)")
    ann_page.screenshot(path=str(artifacts / "wormlord-live-ann.png"), full_page=True)
    bo_page.screenshot(path=str(artifacts / "wormlord-live-bo.png"), full_page=True)


def test_without_the_generic_live_page_the_board_follows_the_stream_and_refetches_its_fragment(
        server, browser, artifacts):  # noqa: F811
    tag = uuid.uuid4().hex[:6]
    ann, bo = _user(f"wc{tag}"), _user(f"wd{tag}")
    game = services.game_create(name=f"Own feed {tag}", ruleset="wormlord", seats=2,
                                settings={"knot_interval_ms": 500, "countdown_ms": 500})
    lobby.game_join(game_id=str(game.pk), user=ann, name="Ann")
    lobby.game_join(game_id=str(game.pk), user=bo, name="Bo")
    services.game_run_pending(game_id=str(game.pk))
    bo_page = _signed_in(browser, server, bo)

    def without_generic_feed(route):  # a page around the board that does not follow the feed
        response = route.fetch()
        body = response.text().replace('data-stream="', 'data-x-stream="').replace('data-events="', 'data-x-events="')
        route.fulfill(response=response, body=body)

    bo_page.route(f"{server}/games/{game.pk}/", without_generic_feed)
    fragments: list[str] = []
    bo_page.on("request", lambda r: fragments.append(r.url) if "/wormlord/live/" in r.url else None)
    bo_page.goto(f"{server}/games/{game.pk}/")
    expect(bo_page.locator("#wl-state")).to_contain_text("Live: connected.")
    bo_page.evaluate("window.notReloaded = true")
    time.sleep(1.2)  # NOW! and the first knot tied
    # Ann's order through the services, as the API would place it
    services.command_handle(game_id=str(game.pk), user=ann, command_type="Conquer", payload={"square": "d2"})
    expect(bo_page.locator('svg.wormlord g.space[data-square="d2"][data-knot="pink"]')).to_have_count(1,
                                                                                                    timeout=15_000)
    expect(bo_page.locator(".wl-recent")).to_contain_text("Ann (pink) took d2.")
    assert bo_page.evaluate("window.notReloaded") is True and fragments
    bo_page.screenshot(path=str(artifacts / "wormlord-own-feed-bo.png"), full_page=True)
