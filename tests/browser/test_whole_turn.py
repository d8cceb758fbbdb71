"""A whole turn in a real browser: sign in, join with a shopping list (points left update
as you pick), play a step, see the result, replay it. Screenshots go to test-artifacts/."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from game_pages.worms import ui
from games.base import Viewer
from referee import lobby, selectors, services
from referee.models import Game

pytestmark = [pytest.mark.postgres]


@pytest.mark.django_db
def test_the_browser_tests_run_on_a_migrated_test_database():
    """pytest-django builds the test database for the django_db tests it collects (the
    session fixture reads every collected test's marks, whatever the order they run in),
    so this marked test makes the database that the ``committed`` fixture of the browser
    tests needs; it checks that it is a test database and that it is migrated."""
    from django.db import connection

    assert connection.settings_dict["NAME"].startswith("test_")
    assert Game._meta.db_table in connection.introspection.table_names()


def _user(name: str):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username=name, password="pw-" + name)
    return user


def _sign_in(page, url: str, username: str) -> None:
    page.goto(url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("pw-" + username)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="My games")).to_be_visible()


def test_sign_in_join_play_a_step_and_replay_it(server, browser, artifacts):
    tag = uuid.uuid4().hex[:6]
    ann, ben = _user(f"ann{tag}"), _user(f"ben{tag}")
    game = services.game_create(name=f"Browser game {tag}", ruleset="worms", seats=2)
    lobby.game_join(game_id=str(game.pk), user=ben, name="Ben", signup_order={
        "type": "SubmitShoppingList", "payload": {"team_weapon": "minigun", "items": [{"item": "shotgun", "count": 2}]},
    })
    page = browser.new_page(viewport={"width": 1280, "height": 1000})

    # sign in and join from the lobby, with the points left updating as items are picked
    _sign_in(page, server, ann.username)
    page.get_by_role("link", name="Lobby", exact=True).click()
    page.get_by_role("link", name=f"Join Browser game {tag}").click()
    page.get_by_label("Team name").fill("Ann")
    page.get_by_label("Mad Cow (x2)").check()
    expect(page.locator("#points-left")).to_have_text("180")
    page.get_by_label("Bazooka", exact=True).fill("2")
    expect(page.locator("#points-left")).to_have_text("174")
    page.get_by_label("Grenade", exact=True).fill("1")
    expect(page.locator("#points-left")).to_have_text("170")
    page.screenshot(path=str(artifacts / "join-shopping-list.png"), full_page=True)
    page.get_by_role("button", name="Join the game").click()
    expect(page.get_by_text("Your shopping list stays private")).to_be_visible()

    # the game has started; run the turn-start work the worker would run
    services.game_run_pending(game_id=str(game.pk))
    seats = {s.user_id: s for s in game.seats.all()}
    position = selectors.game_state_get(game_id=str(game.pk), viewer=Viewer.for_seat(1))["position"]
    acting_seat = position["seat"]
    acting_user = ann if seats[ann.pk].number == acting_seat else ben
    if acting_user is ben:
        page.get_by_role("button", name=re.compile("Sign out")).click()
        _sign_in(page, server, ben.username)

    view = selectors.game_state_get(game_id=str(game.pk), viewer=Viewer.for_seat(acting_seat))["position"]
    # a step that does not end the turn: a plain one, else onto a crate (collected on the way)
    options = [(w["id"], s["square"], s["warning"]) for w in ui.worms_that_may_act(view, acting_seat)
               for s in ui.next_steps(view, w["id"]) if not s["problem"] and "mine" not in s["warning"]]
    assert options, "no worm can step anywhere on this map"
    worm, square, _ = min(options, key=lambda o: bool(o[2]))

    page.goto(f"{server}/games/{game.pk}/")
    expect(page.locator("svg.board")).to_be_visible()
    expect(page.locator("#inventory")).to_be_visible()
    page.screenshot(path=str(artifacts / "game-page-before.png"), full_page=True)

    # pick the worm: its reach is highlighted; then walk one step
    page.get_by_label("Worm", exact=True).select_option(worm)
    page.get_by_role("button", name="Pick this worm").click()
    expect(page.locator("svg.board rect.reach").first).to_be_attached()
    page.screenshot(path=str(artifacts / "game-page-reach.png"), full_page=True)
    page.locator(f'button[data-step="{square}"]').click()
    expect(page.get_by_text(f"{worm} walked to {square}.")).to_be_visible()
    expect(page.locator("svg.board title", has_text=re.compile(f"worm {worm}, health"))).to_have_count(
        1 if any(w["id"] == worm for w in selectors.game_state_get(
            game_id=str(game.pk), viewer=Viewer.for_seat(acting_seat))["position"]["worms"]) else 0)
    page.screenshot(path=str(artifacts / "game-page-after-step.png"), full_page=True)

    # a refused step, picked by tapping a far square on the board, is explained with the rule
    # (far from where the worm stands now: the step above may have brought it next to a corner)
    after = selectors.game_state_get(game_id=str(game.pk), viewer=Viewer.for_seat(acting_seat))["position"]
    standing = ui.known_state(after).worm(worm)
    near = {s["square"] for s in ui.next_steps(after, worm)} | ({ui.square_name(*standing.square)} if standing else set())
    far = next(corner for corner in ("a1", "o15", "a15", "o1") if corner not in near)
    page.locator(f'svg.board rect.sq[data-square="{far}"]').click(force=True)
    expect(page.get_by_label("Or step to square")).to_have_value(far)
    page.get_by_role("button", name="Step", exact=True).click()
    expect(page.locator(".messages li.error")).to_contain_text("is not next to")
    expect(page.locator(".messages li.error")).to_contain_text("(rule §7)")

    # the replay: the last step is the refusal (kept privately for the player), the one
    # before it the step, each with its rulebook clause
    page.get_by_role("link", name="Replay").first.click()
    expect(page.locator("#step-slider")).to_be_visible()
    expect(page.get_by_role("heading", name=re.compile("Refused: "))).to_be_visible()
    expect(page.locator("#clauses")).to_contain_text("§7")
    page.get_by_role("link", name="Previous step").click()
    expect(page.get_by_role("heading", name=re.compile("Move worm: "))).to_be_visible()
    expect(page.locator("#clauses")).to_contain_text("§7")
    expect(page.locator("#step-events")).to_contain_text(f"{worm} moved to {square}")
    page.screenshot(path=str(artifacts / "replay.png"), full_page=True)

    # the same game page on a phone: the board scales to the screen, no sideways scrolling
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server}/games/{game.pk}/")
    expect(page.locator("svg.board")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, f"the page is {width}px wide on a 390px phone"
    page.screenshot(path=str(artifacts / "game-page-phone.png"), full_page=True)
    page.close()


def test_a_moderator_sees_the_dice_verifies_and_files_a_correction(server, browser, artifacts):
    from django.contrib.auth import get_user_model

    tag = uuid.uuid4().hex[:6]
    mod = get_user_model().objects.create_user(username=f"mod{tag}", password=f"pw-mod{tag}", is_staff=True)
    players = [_user(f"p{tag}{i}") for i in range(2)]
    game = services.game_create(name=f"Audited game {tag}", ruleset="worms", seats=2)
    for i, user in enumerate(players):
        lobby.game_join(game_id=str(game.pk), user=user, name=f"P{i}", signup_order={
            "type": "SubmitShoppingList", "payload": {"team_weapon": "minigun", "items": []},
        })
    services.game_run_pending(game_id=str(game.pk))
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    _sign_in(page, server, mod.username)

    page.goto(f"{server}/games/{game.pk}/replay/")
    expect(page.get_by_text("Moderator view:")).to_be_visible()
    page.get_by_role("link", name="Last step").click()
    expect(page.locator("#draws")).to_be_visible()  # the turn start draws the wind and crates
    page.screenshot(path=str(artifacts / "replay-moderator.png"), full_page=True)

    page.goto(f"{server}/games/{game.pk}/audit/")
    page.get_by_role("button", name="Verify the log now").click()
    expect(page.locator("#report")).to_contain_text("all good")
    form = page.locator("#correct-health")
    form.get_by_label("Health (1 to 150)").fill("140")
    form.get_by_label("Reason (shown to every player)").fill("the blast missed")
    form.get_by_role("button", name="File this correction").click()
    expect(page.get_by_text("Correction filed")).to_be_visible()
    page.screenshot(path=str(artifacts / "audit.png"), full_page=True)
    page.close()
