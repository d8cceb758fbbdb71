"""Little Green Guys With Guns played from create to game over in Chromium, by two people
in two browser contexts, with JavaScript on: the game is opened from the create page with a
turn limit other than the default, both join from the lobby, and every list is written and
sent on the game page (the builder's "Add to the list", its ✕, the list as text, "Send this
list"). The lists are the ones the team's bot would write from that team's own view: the
test plays like a person who reads the board, without scripting the engine."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from games.base import Viewer
from games.dice import SeededDice
from games.lggwg.bot import bot_orders_from_view
from games.lggwg.orders import format_order
from games.lggwg.state import Order
from referee import selectors
from referee.models import Game
from tests.browser import people
from tests.browser.people import DESKTOP, PHONE

pytestmark = [pytest.mark.postgres]

HOURS = 5  # the create page's default is 48
LIVE = 8_000  # ms: the other player's page shows a change by itself within this


@pytest.mark.django_db
def test_the_lggwg_browser_tests_have_a_migrated_test_database():
    from django.db import connection

    assert connection.settings_dict["NAME"].startswith("test_")
    assert Game._meta.db_table in connection.introspection.table_names()


def _create_and_join(server: str, ann: Page, bob: Page, name: str) -> Game:
    """Ann opens the game from the create page with a non-default turn limit and joins;
    Bob joins from the lobby."""
    ann.get_by_role("link", name="Lobby", exact=True).click()
    ann.get_by_role("link", name="Open a new game").click()
    ann.get_by_label("Game", exact=True).select_option(label="Little Green Guys With Guns")
    expect(ann.get_by_role("heading", name=re.compile("Little Green Guys With Guns"))).to_be_visible()
    ann.get_by_label("Name", exact=True).fill(name)
    ann.get_by_label(re.compile("^Players")).fill("2")
    limit = ann.get_by_label(re.compile("^Hours per turn"))
    assert limit.input_value() != str(HOURS), "the test needs a turn limit other than the default"
    limit.fill(str(HOURS))
    ann.get_by_role("button", name="Open the game").click()
    expect(ann.get_by_role("heading", name=f"Join {name}")).to_be_visible()
    expect(ann.locator("main")).to_contain_text(f"{HOURS} hours per turn")
    ann.get_by_label("Team name").fill("Ann")
    ann.get_by_role("button", name="Join the game").click()

    bob.get_by_role("link", name="Lobby", exact=True).click()
    bob.get_by_role("link", name=f"Join {name}").click()
    bob.get_by_label("Team name").fill("Bob")
    bob.get_by_role("button", name="Join the game").click()
    game = Game.objects.get(name=name)
    assert game.turn_limit_seconds == HOURS * 3600
    return game


def _view(game: Game, seat: int) -> dict:
    return selectors.game_state_get(game_id=str(game.pk), viewer=Viewer.for_seat(seat))["position"]


def _list_text(game: Game, seat: int) -> str:
    """The list this team's bot would write from the team's own view, as notation."""
    view = _view(game, seat)
    orders = bot_orders_from_view(view, SeededDice("b10" * 8, str(game.pk), view["turn"] * 10 + seat))
    return ",".join(format_order(Order(o["kind"], o["unit"], o["target"] or "")) for o in orders) or "-"


def _check_the_clock(page: Page, game: Game) -> None:
    """The clock the game runs is the one chosen on the create page: turn 1's orders are
    due that long after it began (a few minutes of test run at most have passed), and the
    page counts it down."""
    clock = selectors.game_clock_get(game_id=str(game.pk))
    assert clock["turn_limit_seconds"] == HOURS * 3600
    left = (datetime.fromisoformat(clock["deadline"]) - datetime.now(UTC)).total_seconds()
    assert HOURS * 3600 - 600 < left <= HOURS * 3600
    countdown = page.locator("#lggwg-status time[data-countdown]")
    expect(countdown).to_have_text(re.compile(rf"^({HOURS - 1}h 5\dm \d+s|{HOURS}h 0m 0s) left$"))


def _use_the_builder(page: Page) -> None:
    """"Add to the list" (a form with a field named action) and ✕, in place."""
    page.locator("#lggwg-unit").select_option(index=1)
    page.locator("#lggwg-kind").select_option("hold")
    _press(page, "^Add to the list$")
    expect(page.locator("#lggwg-draft li code")).to_have_count(1)
    expect(page.locator("#lggwg-text")).to_have_value(re.compile(r"^[A-Z]\d-$"))
    _press(page, "^remove order 1$")
    expect(page.locator("#lggwg-draft li code")).to_have_count(0)
    expect(page.locator("#lggwg-text")).to_have_value("")


def _press(page: Page, button: str) -> None:
    """Press a builder button; the answer must come from the order-list URL (not a page
    the script made up) and replace the previous result, which is cleared first."""
    page.evaluate("document.querySelectorAll('#messages').forEach(function (m) { m.remove(); })")
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.get_by_role("button", name=re.compile(button)).click()
    assert answer.value.request.url.endswith("/lggwg/orders/"), answer.value.request.url


def _send(page: Page, text: str) -> None:
    page.locator("#lggwg-text").fill(text)
    _press(page, "^Send this list")
    result = page.locator("#messages")
    expect(result).to_contain_text(re.compile(r"Your list of \d+ orders? is in\.|Refused:"))
    if "Refused:" in result.inner_text():  # the bot's list broke a rule: the refusal is told; hold instead
        expect(result).to_contain_text(re.compile(r"\(rule "))
        page.locator("#lggwg-text").fill("-")
        _press(page, "^Send this list")
        expect(result).to_contain_text("Your list of 1 order is in.")


def _send_as_the_page_is_redrawn(page: Page, other: Page, game: Game, seat: int, other_seat: int) -> None:
    """A player presses "Send this list" just as the other team's list comes in: the redraw
    that news brings waits until the button is let go, so the press is not lost (a redraw
    between the press and the release would put a new button under the pointer, and the
    browser would then send nothing)."""
    page.locator("#lggwg-text").fill(_list_text(game, seat))
    button = page.get_by_role("button", name=re.compile("^Send this list"))
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    own_page = f"/games/{game.pk}/"
    with page.expect_response(lambda r: r.request.method == "GET" and urlsplit(r.url).path == own_page):
        _send(other, _list_text(game, other_seat))  # the news reaches the pressing player's page
    with page.expect_response(lambda r: r.request.method == "POST", timeout=10_000) as answer:
        page.mouse.up()
    assert answer.value.request.url.endswith("/lggwg/orders/"), answer.value.request.url
    expect(page.locator("#messages")).to_contain_text(re.compile(r"Your list of \d+ orders? is in\.|Refused:"))


def _over(game: Game) -> bool:
    game.refresh_from_db()
    return game.status == Game.Status.FINISHED


def _play(server: str, browser, artifacts: Path, viewport: dict, tag: str, *, forfeit_on_turn: int | None) -> None:
    suffix = uuid.uuid4().hex[:6]
    users = [people.account(f"ann{suffix}"), people.account(f"bob{suffix}")]
    ann, bob = (people.signed_in(browser, server, u.username, viewport) for u in users)
    game = _create_and_join(server, ann, bob, f"Green {tag} {suffix}")
    seats = {s.user_id: s.number for s in game.seats.all()}
    pages = {seats[users[0].pk]: ann, seats[users[1].pk]: bob}
    names = {seats[users[0].pk]: "Ann", seats[users[1].pk]: "Bob"}
    url = f"{server}/games/{game.pk}/"
    for page in pages.values():
        page.goto(url)
        expect(page.locator("svg.lggwg")).to_be_visible()
        expect(page.locator("#play-heading")).to_have_text("Your orders for turn 1")
        people.mark_document(page)
    if viewport is PHONE:
        for page in pages.values():
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"] + 10, f"the game page is {width}px wide on a {PHONE['width']}px phone"
    _check_the_clock(ann, game)
    ann.screenshot(path=str(artifacts / f"lggwg-{tag}-start.png"), full_page=True)

    turn = 1
    while not _over(game):
        assert turn <= 30, "the game did not end by its last turn (L-R25)"
        first, second = sorted(pages)
        if turn == 1:
            _use_the_builder(pages[first])
            _use_the_builder(pages[second])
            # the second team starts an order, unsent, while the first team's list comes in
            pages[second].locator("#lggwg-unit").select_option(index=1)
            pages[second].locator("#lggwg-kind").select_option("hold")
            half_made = pages[second].locator("#lggwg-unit").input_value()
        if turn == 2 and forfeit_on_turn != turn:
            _send_as_the_page_is_redrawn(pages[second], pages[first], game, second, first)
            turn += 1
            if _over(game):
                break
            expect(pages[first].locator("#play-heading")).to_have_text(f"Your orders for turn {turn}", timeout=LIVE)
            continue
        if forfeit_on_turn == turn:
            # the last resort: Ann's team forfeits with the builder (§2: every unit dies)
            page = pages[first]
            page.locator("#lggwg-unit").select_option("")
            page.locator("#lggwg-kind").select_option("forfeit")
            _press(page, "^Add to the list$")
            expect(page.locator("#lggwg-text")).to_have_value("!")
            _press(page, "^Send this list")
            expect(page.locator("#messages")).to_contain_text("Your list of 1 order is in.")
        else:
            _send(pages[first], _list_text(game, first))
        # the other team's open page learns that the first list is in, by itself
        expect(pages[second].locator("#team-order")).to_contain_text(
            re.compile(rf"{names[first]}\s*\(list in ✓\)"), timeout=LIVE)
        if turn == 1:  # and that redraw left the half-made order as the player had set it
            expect(pages[second].locator("#lggwg-unit")).to_have_value(half_made)
            expect(pages[second].locator("#lggwg-kind")).to_have_value("hold")
        _send(pages[second], _list_text(game, second))
        turn += 1
        if _over(game):
            break
        # the turn resolved: the sender sees the next turn in place, the other by itself
        expect(pages[second].locator("#play-heading")).to_have_text(f"Your orders for turn {turn}")
        expect(pages[first].locator("#play-heading")).to_have_text(f"Your orders for turn {turn}", timeout=LIVE)
        expect(pages[first].locator("#resolution")).to_be_visible()
        for page in pages.values():
            assert people.same_document(page), "the page reloaded instead of updating in place"

    # the end: the result in the main area of both open pages, the forms gone
    winners = [names[s] for s in _result_winners(game)]
    for page in pages.values():
        main = page.locator("main")
        expect(main).to_contain_text("The game is over", timeout=LIVE)
        for winner in winners:
            expect(main).to_contain_text(winner)
        expect(page.locator("#play")).to_have_count(0)
        assert people.same_document(page), "the page reloaded instead of updating in place"
    ann.screenshot(path=str(artifacts / f"lggwg-{tag}-over.png"), full_page=True)

    # the replay reads as words: no dict text, no epoch milliseconds
    ann.get_by_role("link", name="Replay").first.click()
    expect(ann.locator("#order-heading")).to_be_visible()
    for text in (ann.locator("#order-heading").inner_text(), ann.locator("#step-events").inner_text(),
                 ann.locator("main").inner_text()):
        assert "{'" not in text and "[object" not in text, text
        assert not re.search(r"\b1\d{12}\b", text), text
    expect(ann.locator("#step-events")).to_contain_text(re.compile(r"[A-Za-z]+ [a-z]+"))
    ann.screenshot(path=str(artifacts / f"lggwg-{tag}-replay.png"), full_page=True)

    # the forum export: the post links a picture that is a PNG
    ann.goto(url)
    ann.get_by_role("link", name="Forum post").click()
    expect(ann.locator("#bbcode")).to_contain_text("[b]Game over[/b]")
    image = ann.locator("main img")
    expect(image).to_be_visible()
    people.assert_is_png(ann, server + image.get_attribute("src"))

    # the header says the game is over (checked last: it is the generic pages' line)
    ann.goto(url)
    bob_header = bob.locator("#game-meta")
    expect(bob_header).to_contain_text(re.compile(r"over|finished", re.I), timeout=LIVE)
    for page in pages.values():
        page.context.close()


def _result_winners(game: Game) -> tuple[int, ...]:
    from frontend_templates import common

    return common.result(game).winners


def test_two_people_play_lggwg_from_create_to_game_over_on_desktop(server, browser, artifacts):
    _play(server, browser, artifacts, DESKTOP, "desktop", forfeit_on_turn=None)


def test_two_people_play_lggwg_to_the_end_on_a_phone(server, browser, artifacts):
    _play(server, browser, artifacts, PHONE, "phone", forfeit_on_turn=3)
