"""A whole game of Worms as two people play it: each in their own browser, everything from
the pages (open the game with a turn limit of its own, join with a shopping list, walk,
end the turn, surrender), JavaScript on, the pages' confirmations accepted. At each step
the order's result shows in place without a reload, and the other player's open page
follows by itself; at the end the result is in the main area and the header says the game
is over, the replay reads as words and the forum post's picture is a PNG served where the
post says. Once at desktop size, once on a phone (390x844).

This is the test to copy for a new ruleset (docs/adding-a-ruleset.md): keep its shape
(two contexts, create/join/play/end from the pages, the same checks at each step) and
replace the moves with the ruleset's own."""

from __future__ import annotations

import datetime as dt
import re
import uuid

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from referee.models import Game
from tests.browser import people
from tests.browser.people import PHONE

pytestmark = [pytest.mark.postgres]

DESKTOP = {"width": 1280, "height": 900}
#: Worms' turn limit is 24 to 48 hours, 36 by default (§7): the game is opened with another.
HOURS = 25
#: How long an open page may take to follow the other player (the feed, then a refresh).
FOLLOWS = 20_000
RAW_NAMES = ("GameCreated", "MapGenerated", "TurnOrderDrawn", "TeamSurrendered", "{'", '"seat"')


@pytest.mark.django_db
def test_the_worms_page_tests_have_a_migrated_test_database():
    from django.db import connection

    assert connection.settings_dict["NAME"].startswith("test_")
    assert Game._meta.db_table in connection.introspection.table_names()


def _join(page: Page, team: str, team_weapon: str, viewport: dict) -> None:
    _no_wider_than_the_phone(page, viewport)  # the shop's table scrolls in its own box, not the page past the screen
    page.get_by_label("Team name").fill(team)
    page.get_by_label(team_weapon).check()
    page.get_by_label("Bazooka", exact=True).fill("1")
    page.get_by_role("button", name="Join the game").click()
    expect(page.get_by_text("Your shopping list stays private")).to_be_visible()


#: A step the page offers with nothing in the way (no water, no mine, no warning).
PLAIN_STEP = "button[data-step]:not([disabled]):not([title])"


def _pick_a_worm_that_can_walk(page: Page) -> None:
    """A dealt island can hem the chosen worm in with water and mines (every step disabled
    or warned of): a person picks another worm from the list, which redraws the page."""
    if page.locator(PLAIN_STEP).count():
        return
    for worm in page.locator("#pick-worm option").evaluate_all("options => options.map(o => o.value)"):
        page.locator("#pick-worm").select_option(worm)
        page.get_by_role("button", name="Pick this worm").click()
        expect(page.get_by_role("heading", name=re.compile(f"^Walk {worm} "))).to_be_visible()
        if page.locator(PLAIN_STEP).count():
            return
    raise AssertionError("no worm of this team has a plain step: deal another island")


def _step(page: Page, other: Page) -> None:
    """The acting player walks one plain step from the page; the result shows in place and
    the other player's page follows by itself."""
    _pick_a_worm_that_can_walk(page)
    people.mark_document(page)
    people.mark_document(other)
    before = other.locator("#board-heading").inner_text()
    button = page.locator(PLAIN_STEP).first
    expect(button).to_be_visible()
    square = button.get_attribute("data-step")
    button.click()
    expect(page.locator("#messages")).to_contain_text(f"walked to {square}.")
    assert people.same_document(page), "the step reloaded the page"
    expect(other.locator("#board-heading")).not_to_have_text(before, timeout=FOLLOWS)
    expect(other.locator("#log")).to_contain_text(f"moved to {square}", timeout=FOLLOWS)
    assert people.same_document(other), "the other page was reloaded to follow the game"


def _no_wider_than_the_phone(page: Page, viewport: dict) -> None:
    if viewport is not PHONE:
        return
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate("""() => [...document.querySelectorAll("body *")]
        .filter(e => e.getBoundingClientRect().right > 400 && !e.closest(".table-scroll, .board-wrap"))
        .slice(0, 5).map(e => e.tagName + "." + e.className)""")
    assert width <= PHONE["width"] + 10, f"the page is {width}px wide on a 390px phone: {wide}"


def _fits(page: Page, viewport: dict) -> None:
    if viewport is not PHONE:
        return
    _no_wider_than_the_phone(page, viewport)
    for name in ("Replay", "Forum post"):
        box = page.get_by_role("navigation", name="This game").get_by_role("link", name=name).bounding_box()
        assert box and box["height"] >= 24, f"the {name!r} link is {box and box['height']}px tall"


def _open_and_confirm_surrender(page: Page) -> None:
    """Open the Surrender section and tick its confirmation, as a person does: if the page
    was redrawn just as they opened it (the other page's record arriving), they open it again."""
    section = page.locator("details", has=page.locator("summary", has_text="Surrender"))
    box = page.get_by_label(re.compile("Yes, remove all my worms"))
    for _ in range(4):
        if not section.evaluate("d => d.open"):
            section.locator("summary").click()
        try:
            box.check(timeout=5_000)
            return
        except PlaywrightTimeoutError:
            continue
    box.check()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_two_people_play_worms_from_the_pages_to_the_end(server, browser, artifacts, viewport):
    tag = uuid.uuid4().hex[:6]
    size = "phone" if viewport is PHONE else "desktop"
    ann_user, ben_user = people.account(f"ann{tag}"), people.account(f"ben{tag}")
    ann = people.signed_in(browser, server, ann_user.username, viewport)  # "End your turn now?", "Surrender?": yes
    ben = people.signed_in(browser, server, ben_user.username, viewport)

    # Ann opens the game from the lobby, with a turn limit other than the default
    ann.get_by_role("link", name="Lobby", exact=True).click()
    ann.get_by_role("link", name="Open a new game").click()
    ann.get_by_label("Game", exact=True).select_option(label="Worms: Evolved v2.1")
    expect(ann.get_by_role("heading", name=re.compile("Worms: Evolved"))).to_be_visible()
    name = f"Two of us {tag}"
    ann.get_by_label("Name", exact=True).fill(name)
    ann.get_by_label(re.compile("^Players")).fill("2")
    ann.get_by_label(re.compile("^Hours per turn")).fill(str(HOURS))
    ann.get_by_role("button", name="Open the game").click()
    expect(ann.get_by_role("heading", name=f"Join {name}")).to_be_visible()
    game = Game.objects.get(name=name)
    assert game.turn_limit_seconds == HOURS * 3600
    _join(ann, "Ann", "Mad Cow (x2)", viewport)

    # Ben finds it in the lobby, where the ruleset is named by its title
    ben.get_by_role("link", name="Lobby", exact=True).click()
    row = ben.locator("tr", has=ben.get_by_role("link", name=f"Join {name}"))
    expect(row).to_contain_text("Worms: Evolved v2.1")
    ben.get_by_role("link", name=f"Join {name}").click()
    _join(ben, "Ben", "Minigun", viewport)

    # both pages: the board, whose turn it is, the clock the game was opened with
    for page in (ann, ben):
        page.goto(f"{server}/games/{game.pk}/")
        expect(page.locator("svg.board")).to_be_visible(timeout=FOLLOWS)
        expect(page.locator("#to-act")).to_have_text(re.compile("^(Ann|Ben)$"), timeout=FOLLOWS)
        expect(page.locator("#game-meta")).to_contain_text("Worms: Evolved v2.1")
    due = dt.datetime.fromisoformat(ann.locator("#deadline time[data-countdown]").get_attribute("datetime"))
    left = due - dt.datetime.now(dt.UTC)
    assert dt.timedelta(hours=HOURS - 1) < left <= dt.timedelta(hours=HOURS), left
    first, second = (ann, ben) if ann.locator("#to-act").inner_text() == "Ann" else (ben, ann)
    first.screenshot(path=str(artifacts / f"worms-pages-{size}-start.png"), full_page=True)
    _fits(first, viewport)

    # the first player walks, then ends the turn: the second's page says it is their turn
    _step(first, second)
    if first.locator("#end-turn").count():  # a step that left no worm able to act ended the turn already
        first.locator("#end-turn").click()
    expect(first.get_by_text("It is not your turn.")).to_be_visible()
    expect(second.get_by_role("heading", name="Your turn")).to_be_visible(timeout=FOLLOWS)
    assert people.same_document(second)

    # the second player walks, then surrenders: the game is over on both pages
    _step(second, first)
    _open_and_confirm_surrender(second)
    second.get_by_role("button", name="Surrender").click()
    winner = "Ann" if first is ann else "Ben"
    for page in (second, first):
        result = page.locator("#result")
        expect(result).to_be_visible(timeout=FOLLOWS)
        expect(result).to_contain_text(f"{winner} won")
        expect(result).to_contain_text("surrendered")
        expect(page.locator("#game-meta")).to_contain_text("game over")
        expect(page.locator("#game-meta")).not_to_contain_text("in play")
        expect(page.locator("#notify-toggle")).to_be_hidden()
        expect(page.locator("#end-turn")).to_have_count(0)
        expect(page.get_by_role("heading", name="Private messages")).to_have_count(0)
        main_top = page.evaluate("document.getElementById('result').getBoundingClientRect().top"
                                 " < document.getElementById('board-section').getBoundingClientRect().top")
        assert main_top, "the result is not above the board"
    assert people.same_document(first), "the winner's page was reloaded to learn the result"
    first.screenshot(path=str(artifacts / f"worms-pages-{size}-over.png"), full_page=True)
    _fits(first, viewport)

    # the replay reads as words, numbered as the players quote it
    first.get_by_role("link", name="Replay", exact=True).click()
    expect(first.locator("#order-heading")).to_have_text(re.compile(r"^Step #\d+: "))
    expect(first.locator("#step-meta")).not_to_contain_text("record")
    first.get_by_role("link", name="First step").click()
    text = first.locator("main").inner_text()
    for raw in RAW_NAMES:
        assert raw not in text, raw
    first.screenshot(path=str(artifacts / f"worms-pages-{size}-replay.png"), full_page=True)

    # the forum post's picture is a PNG, at the address this server serves
    first.goto(f"{server}/games/{game.pk}/")
    first.get_by_role("link", name="Forum post").click()
    bbcode = first.locator("#bbcode").input_value()
    image = re.search(r"\[img\](.+?)\[/img\]", bbcode).group(1)
    assert image.startswith(server + "/"), image
    people.assert_is_png(first, image)
    for page in (ann, ben):
        page.context.close()
