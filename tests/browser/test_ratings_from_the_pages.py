"""Ratings as two players see them in their browsers: a rated Pig game ends with a Hold given
from the page; the winner's page shows each player's rating change in the result, the other
player's open page follows by itself, the players line shows the new ratings with the
provisional "?", and the ladder (reached from the game page) ranks them, as the lobby shows
them beside their names. Screenshots go to test-artifacts/."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Page, expect

from referee.models import Game, RatedGame

pytestmark = [pytest.mark.postgres]

#: How long an open page may take to follow the other player (the feed, then a refresh).
FOLLOWS = 20_000


@pytest.mark.django_db
def test_the_ratings_browser_tests_have_a_migrated_test_database():
    from django.db import connection

    assert connection.settings_dict["NAME"].startswith("test_")
    assert RatedGame._meta.db_table in connection.introspection.table_names()


def _user(name: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=name, password="pw-" + name)


def _player(browser, server: str, username: str) -> Page:
    page = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    page.goto(server + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("pw-" + username)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="My games")).to_be_visible()
    return page


def test_a_rated_game_over_shows_the_rating_changes_and_the_ladder_ranks_the_players(server, browser, artifacts):
    from tests.rated_games import new_game, to_the_brink

    tag = uuid.uuid4().hex[:6]
    users = [_user(f"ra{tag}"), _user(f"rb{tag}")]
    game, seats = new_game(users)  # rated, Pig to 1 point: the first Hold with points in hand wins
    Game.objects.filter(pk=game.pk).update(name=f"Rated pig {tag}")
    winner = to_the_brink(game, seats)
    loser = next(s for s in seats if s != winner)
    pages = {s.number: _player(browser, server, s.user.username) for s in seats}
    for page in pages.values():
        page.goto(f"{server}/games/{game.pk}/")
        expect(page.locator("#players")).to_contain_text(f"{winner.name}, {loser.name}"
                                                         if winner.number < loser.number
                                                         else f"{loser.name}, {winner.name}")
        expect(page.locator("#players .rating")).to_have_count(0)  # nobody rated yet

    mine, theirs = pages[winner.number], pages[loser.number]
    mine.get_by_role("button", name="Hold", exact=True).click()
    expect(mine.locator("#result-heading")).to_contain_text("Game over")
    expect(mine.locator("#result-ratings")).to_contain_text(f"{winner.name}: 1069? (+69)")
    expect(mine.locator("#result-ratings")).to_contain_text(f"{loser.name}: 963? (\u221237)")
    # the other player's open page follows by itself
    expect(theirs.locator("#result-ratings")).to_contain_text(f"{loser.name}: 963? (\u221237)", timeout=FOLLOWS)
    expect(theirs.locator("#players")).to_contain_text(f"{winner.name} 1069?", timeout=FOLLOWS)
    expect(theirs.locator("#players")).to_contain_text(f"{loser.name} 963?")
    theirs.screenshot(path=str(artifacts / "ratings-game-over.png"), full_page=True)

    theirs.get_by_role("link", name="ladder", exact=True).click()
    expect(theirs.get_by_role("heading", name="Ladder: pig")).to_be_visible()
    rows = theirs.locator("#ladder tbody tr")
    won = rows.filter(has_text=winner.user.username)
    lost = rows.filter(has_text=loser.user.username)
    expect(won.locator("td").nth(2)).to_have_text("1069?")
    expect(lost.locator("td").nth(2)).to_have_text("963?")
    expect(won.locator("td").nth(3)).to_have_text("1")
    ranks = int(won.locator("td").first.inner_text()), int(lost.locator("td").first.inner_text())
    assert ranks[0] < ranks[1], ranks
    theirs.screenshot(path=str(artifacts / "ratings-ladder.png"), full_page=True)

    theirs.get_by_role("link", name="Lobby", exact=True).click()
    row = theirs.locator("tr", has_text=f"Rated pig {tag}")
    expect(row).to_contain_text(f"{winner.name} 1069?")
    expect(row).to_contain_text(f"{loser.name} 963?")
    for page in pages.values():
        page.context.close()
