"""A whole Parties game played by two people in a real browser (Debian's Chromium,
Playwright) against a real ``runserver`` on the test database: the game is opened FROM THE
PAGES with a 20-second tick (not the default 10), a 6 x 6 arena and a cap of 3 ticks, both
join from the lobby, and every move is a click on the move pad until the game is over. At
each step: the mover's own page shows the move in place without a reload, the other
player's open page shows what it may see of it by itself (that the bot has moved, then the
tick's close with every move), and the tick's close reads as words. At the end: the result
in the page's main area and the header saying the game is over, a replay in words and a
forum export whose image is a PNG. Once at desktop size and once at phone size (390x844).

Ticks close as soon as every solo and leader has moved (P-R6), so the game runs on the
clicks; the test sweeps due work (the scheduler's timers) between steps anyway, as beat
would, so a tick whose deadline passed is closed rather than waited for."""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from referee import scheduling
from referee.models import Game
from tests.browser import people
from tests.browser.people import DESKTOP, PHONE

pytestmark = [pytest.mark.postgres]

#: a person waits a few seconds for the other page to follow
LIVE_MS = 8_000


@pytest.mark.django_db
def test_the_test_database_is_created_for_the_parties_browser_tests():
    """pytest-django builds the test database only for a django_db test (see conftest)."""
    from django.db import connection

    assert connection.settings_dict["NAME"].startswith("test_")
    assert Game._meta.db_table in connection.introspection.table_names()


def _open_game(page: Page, server: str, name: str) -> None:
    """Ann opens the game from the lobby's create page and joins it."""
    page.goto(server + "/")
    people.open_and_join(page, ruleset="parties", name=name, team="Ann", settings={
        "Seconds per turn": "20", "Arena width": "6", "Arena height": "6", "Obstacles": "0", "Tick cap": "3",
    })


def _join(page: Page, server: str, name: str) -> None:
    page.goto(server + "/")
    page.get_by_role("link", name=f"Join {name}").click()
    page.get_by_label("Team name").fill("Bo")
    page.get_by_role("button", name="Join the game").click()
    expect(page.get_by_text(f"You joined {name}.")).to_be_visible()


def _run_due() -> None:
    scheduling.sweep()


def _tick(page: Page) -> int:
    return int(page.locator("#parties-status #tick").inner_text())


def _pad(page: Page):
    """The move buttons a leader or solo may press now (a blocked square's is disabled)."""
    return page.locator("#parties-orders button[data-direction]:not([disabled])")


def _move(page: Page) -> str:
    """Press the first open step (not stay, so the bots walk); the direction pressed."""
    buttons = _pad(page)
    directions = [buttons.nth(i).get_attribute("data-direction") for i in range(buttons.count())]
    direction = next((d for d in directions if d != "stay"), "stay")
    page.locator(f'#parties-orders button[data-direction="{direction}"]').click()
    return direction


WORDS = {"N": "north", "NE": "north-east", "E": "east", "SE": "south-east", "S": "south", "SW": "south-west",
         "W": "west", "NW": "north-west", "stay": "stay"}


def _play_a_whole_game(server: str, browser, artifacts: Path, viewport: dict, label: str) -> None:
    tag = uuid.uuid4().hex[:6]
    name = f"Parties {tag}"
    ann, bo = people.account(f"pp{tag}a"), people.account(f"pp{tag}b")
    ann_page, bo_page = (people.signed_in(browser, server, u.username, viewport) for u in (ann, bo))

    _open_game(ann_page, server, name)
    game = Game.objects.get(name=name)
    assert game.turn_limit_seconds == 20
    people.mark_document(ann_page)
    _join(bo_page, server, name)  # the second seat fills the game: it starts
    _run_due()
    pages = {"Ann": ann_page, "Bo": bo_page}
    for page in pages.values():
        expect(page.locator("#parties-board svg.board")).to_be_visible(timeout=LIVE_MS)
        status = page.locator("#parties-status")
        expect(status).to_contain_text("20 s each")
        expect(status).to_contain_text("of at most 3")
        expect(page.locator("#tick-closes")).to_contain_text(re.compile(r"^Closes in (1\d|20) s or as soon as"))
        people.mark_document(page)
    assert people.same_document(ann_page), "Ann's open page followed the game's start by itself"
    ann_page.screenshot(path=str(artifacts / f"parties-{label}-start.png"), full_page=True)

    for _ in range(10):
        _run_due()
        if Game.objects.get(pk=game.pk).status == Game.Status.FINISHED:
            break
        tick = _tick(ann_page)
        movers = [who for who, page in pages.items() if _pad(page).count()]
        assert movers, f"nobody may move in tick {tick}"
        chosen: dict[str, str] = {}
        for n, who in enumerate(movers):
            page = pages[who]
            direction = _move(page)
            chosen[who] = direction
            if n < len(movers) - 1:
                # the tick is still open: the mover sees the choice in place, the other page
                # sees (by itself) only that this bot has moved
                expect(page.locator("#chosen")).to_have_text(WORDS[direction])
                other = pages[movers[n + 1]]
                seat = 1 if who == "Ann" else 2
                expect(other.locator(f'#parties-status tr[data-seat="{seat}"] td').last).to_have_text(
                    "yes", timeout=LIVE_MS)
        # the last move closed the tick: the mover is told in place, the other page follows
        closer = pages[movers[-1]]
        expect(closer.locator("#live")).to_contain_text(f"Tick {tick} closed because every bot had moved")
        for who, page in pages.items():
            feed = page.locator("#parties-feed")
            expect(feed).to_contain_text(f"Tick {tick} closed because every bot had moved", timeout=LIVE_MS)
            for mover, direction in chosen.items():
                expect(feed).to_contain_text(f"{mover} {WORDS[direction]}")
            finished = page.locator("#parties-board[data-finished='1']")
            if not finished.count():
                expect(page.locator("#parties-status #tick")).to_have_text(str(tick + 1), timeout=LIVE_MS)
                # only this tick's move is on the page: nothing of the last tick's choice
                expect(page.locator("#live")).not_to_contain_text("Your move")
                expect(page.locator("#chosen")).to_have_count(0)
            assert people.same_document(page), f"{who}'s page was reloaded"
    else:
        pytest.fail("the game did not end within its tick cap")

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    for who, page in pages.items():
        live = page.locator("#live")
        expect(live).to_contain_text("Game over", timeout=LIVE_MS)
        expect(live.locator(".podium")).to_contain_text("1st")
        expect(page.locator("#parties-orders")).to_have_count(0)  # no move pad after the end
        assert people.same_document(page), f"{who}'s page was reloaded"
    ann_page.screenshot(path=str(artifacts / f"parties-{label}-over.png"), full_page=True)

    # the replay reads as words (Bo's page; Ann's stays open on the game)
    bo_page.get_by_role("link", name="Replay", exact=True).click()
    replay = bo_page.locator("main")
    expect(replay).to_contain_text(re.compile(r"Tick \d closed because every bot had moved"))
    expect(replay).to_contain_text(re.compile(r"Game over: (the tick cap is reached|all bots are united)"))
    text = replay.inner_text()
    assert "{'" not in text and "': " not in text and "_ms" not in text, text[:2000]
    bo_page.screenshot(path=str(artifacts / f"parties-{label}-replay.png"), full_page=True)

    # the forum export: its BBCode names the picture, and the picture is a PNG
    bo_page.goto(f"{server}/games/{game.pk}/")
    bo_page.get_by_role("link", name="Forum post").click()
    expect(bo_page.locator("#bbcode")).to_contain_text("[b]Game over[/b]")
    image = bo_page.get_by_role("img", name=re.compile("^The board of"))
    expect(image).to_be_visible()
    source = image.get_attribute("src")
    assert source and "board.png" in source
    assert "[img]" in bo_page.locator("#bbcode").input_value()
    people.assert_is_png(bo_page, server + source)
    assert bo_page.evaluate("() => document.querySelector('main img').naturalWidth") > 0

    # the header of the page left open says the game is over, without a reload
    expect(ann_page.locator("#game-meta")).to_contain_text(re.compile(r"\bover\b|finished", re.I), timeout=LIVE_MS)
    expect(ann_page.locator("#game-meta")).not_to_contain_text("in play")
    assert people.same_document(ann_page)


def test_two_people_play_a_parties_game_from_create_to_game_over(server, browser, artifacts):
    _play_a_whole_game(server, browser, artifacts, DESKTOP, "desktop")


def test_two_people_play_a_parties_game_on_phones(server, browser, artifacts):
    _play_a_whole_game(server, browser, artifacts, PHONE, "phone")
