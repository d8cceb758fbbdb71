"""A game whose ruleset has no page plug-in (Pig), played in a real browser: open it from
the lobby's form, join, roll through the generic order form, see the refusal of a bad
note. Screenshots go to test-artifacts/."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from referee import lobby, services
from referee.models import Game
from tests.browser.people import DESKTOP, account, open_and_join, sign_in

pytestmark = [pytest.mark.postgres]


@pytest.mark.django_db
def test_the_test_database_is_created_for_the_generic_browser_tests():
    """pytest-django builds the test database only for a django_db test (see conftest)."""
    from django.db import connection

    assert connection.settings_dict["NAME"].startswith("test_")
    assert Game._meta.db_table in connection.introspection.table_names()


def test_open_join_and_roll_in_a_game_without_its_own_pages(server, browser, artifacts):
    tag = uuid.uuid4().hex[:6]
    ann, bo = account(f"pa{tag}"), account(f"pb{tag}")
    page = browser.new_page(viewport=DESKTOP)
    sign_in(page, server, ann.username)

    # open a Pig game: choosing the game reloads the form with its bounds
    page.get_by_role("link", name="Lobby", exact=True).click()
    open_and_join(page, ruleset="pig", name=f"Pig {tag}", team="Ann", settings={"Minutes per turn": "90"})

    game = Game.objects.get(name=f"Pig {tag}")
    assert game.turn_limit_seconds == 90 * 60
    lobby.game_join(game_id=str(game.pk), user=bo, name="Bo")
    services.game_run_pending(game_id=str(game.pk))
    page.goto(f"{server}/games/{game.pk}/")
    expect(page.locator(".generic-board")).to_be_visible()
    page.screenshot(path=str(artifacts / "generic-game-page.png"), full_page=True)

    # a note with no text is refused in plain words, with the rule
    page.get_by_role("button", name="Write note").click()
    expect(page.locator(".messages li.error")).to_contain_text("A note needs some text. (rule notes)")
    page.get_by_label("Text", exact=True).fill("hold at 12")
    page.get_by_role("button", name="Write note").click()
    expect(page.get_by_text("Order given: Write note.")).to_be_visible()
    expect(page.locator("#inbox")).to_contain_text("hold at 12")

    # Ann rolls if it is her turn; otherwise the page says whom it waits for
    to_act = page.locator("#to-act").inner_text()
    if to_act == "Ann":
        page.get_by_role("button", name="Roll", exact=True).click()
        expect(page.get_by_text("Order given: Roll.")).to_be_visible()
        expect(page.locator(".messages")).to_contain_text("Die rolled: seat Ann")
    else:
        page.get_by_role("button", name="Roll", exact=True).click()
        expect(page.locator(".messages li.error")).to_contain_text("It is not your turn.")
    page.screenshot(path=str(artifacts / "generic-game-after-roll.png"), full_page=True)
    page.close()
