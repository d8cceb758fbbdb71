"""A whole Wormlord game played from the pages in Chromium by two people, on a desktop
screen and on a phone (390x844): Ann opens the game from the create page with one minute
per round (not the default three), both join, and they play by clicking the board until the
game is over. Round 1 is ended by its clock (§7.2: the most spaces win); in round 2 Ann takes
three Objectives (§2). At every order the player's page shows its result in place, and the
other player's open page shows it by itself. At the end: the result in the main area, the
header says the game is over, the replay reads as words, the forum image is a PNG.

The round clock and the breaks are scheduled work: the test runs the referee's sweeper
(``referee.scheduling.sweep``, what Celery beat runs) in a thread, as the worker would.
Screenshots go to test-artifacts/."""

from __future__ import annotations

import re
import threading
import uuid
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from referee.models import Game
from tests.browser.conftest import ARTIFACTS
from tests.browser.people import DESKTOP, PHONE, account, assert_is_png, open_and_join, signed_in

pytestmark = [pytest.mark.postgres]

#: The other page follows the feed (stream or long-poll): "by itself within a few seconds".
LIVE = 8_000
#: Round 1 runs a full minute, then the break and the countdown.
ROUND = 90_000


@pytest.mark.django_db
def test_the_test_database_is_created_for_the_wormlord_game_tests():
    """pytest-django builds the test database only for a django_db test (see conftest)."""
    from django.db import connection

    assert connection.settings_dict["NAME"].startswith("test_")


@pytest.fixture
def sweeper(committed) -> Iterator[None]:
    """The scheduler, as Celery beat runs it: due work (round clocks, the next round after
    the break) runs within half a second of its time."""
    from django.db import connection

    from referee import scheduling

    stop = threading.Event()

    def run() -> None:
        try:
            while not stop.is_set():
                scheduling.sweep()
                stop.wait(0.3)
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    yield
    stop.set()
    thread.join(timeout=10)


def _press(page: Page, square: str) -> None:
    """Click (or on a phone tap) a square of the board once the player's knot is tied."""
    expect(page.locator("[data-wl-next]")).to_have_text("Your knot is tied: place it!", timeout=15_000)
    space = page.locator(f'svg.wormlord g.space[data-square="{square}"]')
    if page.viewport_size == PHONE:
        space.tap()
    else:
        space.click()


def _knot(page: Page, square: str, colour: str, line: str, *, by_me: bool) -> None:
    """The knot is on the board and told in words, without a reload."""
    expect(page.locator(f'svg.wormlord g.space[data-square="{square}"][data-knot="{colour}"]')).to_have_count(
        1, timeout=3_000 if by_me else LIVE)
    expect(page.locator("#live")).to_contain_text(line, timeout=3_000 if by_me else LIVE)
    assert page.evaluate("window.notReloaded") is True


def _order(mine: Page, theirs: Page, square: str, colour: str, line: str) -> None:
    _press(mine, square)
    placed = mine.locator(f'svg.wormlord g.space[data-square="{square}"][data-knot="{colour}"]')
    try:
        expect(placed).to_have_count(1, timeout=3_000)
    except AssertionError:
        # The board was redrawn under the pointer (a record just arrived) and the click
        # landed on the old drawing: a person sees nothing happen and clicks again.
        _press(mine, square)
    try:
        _knot(mine, square, colour, line, by_me=True)
        _knot(theirs, square, colour, line, by_me=False)
    except AssertionError:
        for who, page in (("mine", mine), ("theirs", theirs)):
            page.screenshot(path=str(ARTIFACTS / f"wormlord-game-failed-{square}-{who}.png"), full_page=True)
        raise


def _check_layout(page: Page, colour: str) -> None:
    """The sides table is not cut off; on a phone the whole board fits the screen, the
    player's own base on it, and a square is still big enough to tap."""
    overflow = page.evaluate("""() => {
        const wrap = document.getElementById('board-wrap');
        return wrap.scrollWidth - wrap.clientWidth; }""")
    assert overflow <= 1, f"the board area scrolls sideways by {overflow} px"
    wrap = page.locator("#board-wrap").bounding_box()
    for cell in ('td[data-label="Next knot"]', "td[data-rounds]"):
        for box in (c.bounding_box() for c in page.locator(f"table.wl-sides {cell}").all()):
            assert box is not None and box["x"] + box["width"] <= min(wrap["x"] + wrap["width"],
                                                                     page.viewport_size["width"]) + 1, (cell, box)
    board = page.locator("svg.wormlord").bounding_box()
    assert 0 <= board["x"] <= page.viewport_size["width"] - board["width"], board
    base = page.locator("svg.wormlord g.space", has=page.locator("title", has_text=f"{colour}'s base"))
    square = base.locator("rect").first.bounding_box()
    assert square["width"] >= 44 and square["height"] >= 44, square
    assert 0 <= square["x"] <= page.viewport_size["width"] - square["width"], square


def _play_a_whole_game(server: str, browser, artifacts, viewport: dict, tag: str) -> None:
    ann, bo = account(f"wl{tag}a"), account(f"wl{tag}b")
    ann_page = signed_in(browser, server, ann.username, viewport)
    bo_page = signed_in(browser, server, bo.username, viewport)
    name = f"Knots {tag}"

    # Ann opens the game: one minute per round, not the default three
    ann_page.get_by_role("link", name="Lobby", exact=True).click()
    open_and_join(ann_page, ruleset="wormlord", name=name, team="Ann", settings={"Minutes per turn": "1"})

    # Bo finds it in the lobby and joins: the second seat starts it
    bo_page.get_by_role("link", name="Lobby", exact=True).click()
    bo_page.get_by_role("link", name=f"Join {name}").click()
    bo_page.get_by_label("Team name").fill("Bo")
    bo_page.get_by_role("button", name="Join the game").click()
    expect(bo_page.get_by_text(f"You joined {name}.")).to_be_visible()
    game = Game.objects.get(name=name)
    assert game.turn_limit_seconds == 60

    ann_page.goto(f"{server}/games/{game.pk}/")
    for page in (ann_page, bo_page):
        expect(page.locator("svg.wormlord")).to_be_visible()
        expect(page.locator("#status-heading + *")).to_contain_text("Time limit: 60 s a round")
        page.evaluate("window.notReloaded = true")
    _check_layout(ann_page, "pink")
    _check_layout(bo_page, "blue")
    ann_page.screenshot(path=str(artifacts / f"wormlord-game-{viewport['width']}-start.png"), full_page=True)

    # round 1: Ann ties two knots, Bo one; the clock ends it and the most spaces win (§7.2)
    expect(ann_page.locator("[data-wl-clock]")).to_contain_text(re.compile(r"Round clock: [01]:\d\d left"),
                                                               timeout=10_000)
    _order(ann_page, bo_page, "d2", "pink", "Ann (pink) took d2.")
    _order(bo_page, ann_page, "d6", "blue", "Bo (blue) took d6.")
    _order(ann_page, bo_page, "d3", "pink", "Ann (pink) took d3.")
    refused_before = ann_page.locator("#live").inner_text()
    ann_page.locator('svg.wormlord g.space[data-square="a1"]').dispatch_event("click")  # not next to pink
    expect(ann_page.locator("#live")).to_contain_text("(rule §", timeout=5_000)
    assert ann_page.evaluate("window.notReloaded") is True and refused_before != ""
    won_1 = "Pink won round 1: the most spaces when the time ran out"
    for page in (ann_page, bo_page):
        expect(page.locator("#live")).to_contain_text(won_1, timeout=ROUND)
        expect(page.locator('table.wl-sides tr[data-colour="pink"] [data-rounds]')).to_have_text("1")
        assert page.evaluate("window.notReloaded") is True

    # round 2 after the break: Ann takes three Objectives (§2) and the game
    for page in (ann_page, bo_page):
        expect(page.locator(".wl-phase")).to_contain_text("Round 2", timeout=30_000)
    for square in ("d2", "d3", "d4", "c3", "b3", "e3", "f3"):
        _order(ann_page, bo_page, square, "pink", f"Ann (pink) took {square}.")
    for page in (ann_page, bo_page):
        expect(page.locator("#live")).to_contain_text("Pink won the game.", timeout=LIVE)
        assert page.evaluate("window.notReloaded") is True
        expect(page.locator("[data-wl-next]")).to_have_count(0)
        expect(page.locator('svg.wormlord g.space[data-action]')).to_have_count(0)
        page.screenshot(path=str(artifacts / f"wormlord-game-{viewport['width']}-over-{page is ann_page}.png"),
                        full_page=True)

    # the replay reads as words
    bo_page.get_by_role("link", name="Replay", exact=True).click()
    replay = bo_page.locator("main")
    expect(replay).to_contain_text("Ann (pink) took f3.")
    expect(replay).to_contain_text("Pink won round 2: three Objective spaces held (§2).")
    expect(replay).to_contain_text("Pink (Ann) won the game")
    assert not re.search(r"\{'|': '", replay.inner_text()), "the replay shows raw data"

    # the forum post: BBCode with the PNG board
    bo_page.goto(f"{server}/games/{game.pk}/")
    bo_page.get_by_role("link", name="Forum post").click()
    expect(bo_page.locator("#bbcode")).to_contain_text("[b]Game over[/b]")
    assert_is_png(bo_page, server + bo_page.locator("main img").get_attribute("src"))

    # Ann's page, never reloaded: the result in the main area, and the header says it is over
    main = ann_page.locator("main")
    expect(main.locator("#board-section, #status-heading + *").filter(has_text="won")).not_to_have_count(0)
    expect(main).to_contain_text("The game is over.")
    expect(main.locator("#game-meta")).to_contain_text(re.compile(r"\bover\b|finished", re.I), timeout=LIVE)
    assert ann_page.evaluate("window.notReloaded") is True
    for page in (ann_page, bo_page):
        page.context.close()


def test_a_whole_game_from_the_create_page_to_game_over_on_a_desktop(server, browser, artifacts, sweeper):
    _play_a_whole_game(server, browser, artifacts, DESKTOP, uuid.uuid4().hex[:6])


def test_a_whole_game_on_a_phone_fits_the_board_and_taps_its_squares(server, browser, artifacts, sweeper):
    _play_a_whole_game(server, browser, artifacts, PHONE, uuid.uuid4().hex[:6])
