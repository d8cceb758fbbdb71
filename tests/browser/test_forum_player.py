"""A forum player's pages in a real browser, point by point: each test names the point it checks and
saves screenshots at desktop (1366x900) and phone (390x844) sizes under test-artifacts/."""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from game_pages.worms import ui
from games.base import PUBLIC, Viewer
from referee import lobby, selectors, services
from referee.models import Game
from tests.browser.people import PHONE, account, mark_document, same_document, sign_in

pytestmark = [pytest.mark.postgres]

DESKTOP = {"width": 1366, "height": 900}
AXE = Path(__file__).parent / "fixtures" / "axe.min.js"
SHOPPING = {"type": "SubmitShoppingList",
            "payload": {"team_weapon": "minigun", "items": [{"item": "shotgun", "count": 2}]}}


@pytest.mark.django_db
def test_the_forum_player_tests_have_a_migrated_test_database():
    from django.db import connection

    assert connection.settings_dict["NAME"].startswith("test_")
    assert Game._meta.db_table in connection.introspection.table_names()


# --- helpers ----------------------------------------------------------------------------------


def _game(tag: str, players: int = 2, join: bool = True):
    users = [account(f"u{tag}{i}") for i in range(players)]
    game = services.game_create(name=f"Forum game {tag}", ruleset="worms", seats=players, created_by=users[0])
    if join:
        for i, user in enumerate(users):
            lobby.game_join(game_id=str(game.pk), user=user, name=f"Team {'AB'[i]}", signup_order=SHOPPING)
        services.game_run_pending(game_id=str(game.pk))
    return game, users


def _acting(game, users):
    seat = selectors.game_state_get(game_id=str(game.pk), viewer=PUBLIC)["position"]["seat"]
    by_number = {s.number: s for s in game.seats.all()}
    acting_user = next(u for u in users if u.pk == by_number[seat].user_id)
    other = next(u for u in users if u.pk != acting_user.pk)
    return seat, acting_user, other


def _view(game, seat: int) -> dict:
    return selectors.game_state_get(game_id=str(game.pk), viewer=Viewer.for_seat(seat))["position"]


def _plain_step(view: dict, seat: int) -> tuple[str, str]:
    options = [(w["id"], s["square"]) for w in ui.worms_that_may_act(view, seat)
               for s in ui.next_steps(view, w["id"]) if not s["problem"] and not s["warning"]]
    assert options, "no worm can take a plain step on this map"
    return options[0]


def _shots(page: Page, artifacts: Path, name: str) -> None:
    """The page at desktop size, then at phone size (the viewport is left at desktop)."""
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(artifacts / f"forum-player-{name}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(artifacts / f"forum-player-{name}-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def _in_view(page: Page, selector: str) -> bool:
    return bool(page.evaluate(
        """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                      return r.top >= -1 && r.top < window.innerHeight && r.bottom > 0; }""", selector))


def _contrast_violations(page: Page) -> list:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "async () => (await axe.run(document, {runOnly: {type: 'rule', values: ['color-contrast']}})).violations")
    return [(n["target"], n["failureSummary"]) for v in result for n in v["nodes"]]


# --- the twelve points ---------------------------------------------------------------------------


def test_1_a_step_updates_the_page_in_place_with_the_board_and_the_result_in_view(server, browser, artifacts):
    game, users = _game(uuid.uuid4().hex[:6])
    seat, acting, _ = _acting(game, users)
    worm, square = _plain_step(_view(game, seat), seat)
    page = browser.new_page(viewport=DESKTOP)
    page.on("dialog", lambda d: d.accept())
    sign_in(page, server, acting.username)
    page.goto(f"{server}/games/{game.pk}/?worm={worm}")
    page.locator("#end-turn").scroll_into_view_if_needed()
    mark_document(page)
    page.locator(f'button[data-step="{square}"]').click()
    expect(page.locator("#messages")).to_contain_text(f"{worm} walked to {square}.")
    assert same_document(page), "the page was reloaded"
    assert _in_view(page, "#messages") and _in_view(page, "svg.board"), "the result or the board is off-screen"
    _shots(page, artifacts, "1-after-step")
    # the feed's redraw that follows (the turn ends) keeps the result where it stood, in view
    before = page.locator("#to-act").inner_text()
    services.command_handle(game_id=str(game.pk), user=acting, command_type="EndTurn", payload={})
    services.game_run_pending(game_id=str(game.pk))
    expect(page.locator("#to-act")).not_to_have_text(before, timeout=30000)
    expect(page.locator("#messages")).to_contain_text(f"{worm} walked to {square}.")
    assert same_document(page), "the page was reloaded"
    assert _in_view(page, "#messages"), "a redraw moved the result off-screen"
    page.close()


def test_2_the_other_players_page_follows_the_game_and_a_new_game_shows_its_board(server, browser, artifacts):
    tag = uuid.uuid4().hex[:6]
    game, users = _game(tag, join=False)
    lobby.game_join(game_id=str(game.pk), user=users[0], name="Team A", signup_order=SHOPPING)
    context = browser.new_context(viewport=DESKTOP)
    context.grant_permissions(["notifications"])
    page = context.new_page()
    sign_in(page, server, users[0].username)
    page.goto(f"{server}/games/{game.pk}/")
    expect(page.get_by_role("heading", name="Waiting for players")).to_be_visible()
    mark_document(page)
    # the opt-in notification
    page.get_by_role("button", name="Tell me when it is my turn").click()
    expect(page.get_by_role("button", name="Stop telling me when it is my turn")).to_be_visible()
    # the last player joins: the page shows the real board by itself
    lobby.game_join(game_id=str(game.pk), user=users[1], name="Team B", signup_order=SHOPPING)
    services.game_run_pending(game_id=str(game.pk))
    expect(page.locator("svg.board title", has_text=re.compile(r"worm A1, health"))).to_be_attached(timeout=30000)
    expect(page.locator("#status-heading")).to_be_visible()
    assert same_document(page)
    # the other player ends a turn: this page says whose turn it is now, without a reload
    seat, acting, other = _acting(game, users)
    watcher = page if other.pk == users[0].pk else None
    if watcher is None:  # Team A is to play: it ends its turn and Team B's page follows
        watcher = context.new_page()
        sign_in(watcher, server, other.username)
        watcher.goto(f"{server}/games/{game.pk}/")
        mark_document(watcher)
    before = watcher.locator("#to-act").inner_text()
    services.command_handle(game_id=str(game.pk), user=acting, command_type="EndTurn", payload={})
    services.game_run_pending(game_id=str(game.pk))
    expect(watcher.locator("#to-act")).not_to_have_text(before, timeout=30000)
    assert same_document(watcher)
    _shots(watcher, artifacts, "2-live")
    context.close()


def test_3_the_board_marks_the_walk_and_the_shot_and_the_log_names_the_weapon(server, browser, artifacts):
    game, users = _game(uuid.uuid4().hex[:6])
    seat, acting, _ = _acting(game, users)
    view = _view(game, seat)
    worm, square = _plain_step(view, seat)
    services.command_handle(game_id=str(game.pk), user=acting, command_type="MoveWorm",
                            payload={"worm": worm, "path": [square]})
    page = browser.new_page(viewport=DESKTOP)
    sign_in(page, server, acting.username)
    page.goto(f"{server}/games/{game.pk}/?worm={worm}&weapon=handgun")
    expect(page.locator("svg.board circle title", has_text=f"{square}: step 1 of the last walk")).to_be_attached()
    expect(page.locator("svg.board desc")).to_contain_text(f"{worm} walked")
    _shots(page, artifacts, "3-walk-marked")
    aim = ui.aim_window(_view(game, seat), worm, "handgun")
    target = next(sq for sq, how in aim.targets.items() if how == "hit")
    page.locator("#fire-target").fill(target)
    page.get_by_role("button", name="Fire").click()
    expect(page.locator("#messages")).to_contain_text("fired the")
    expect(page.locator("svg.board line[stroke='#e0245e']")).to_have_count(1)
    expect(page.locator("#log")).to_contain_text("Handgun")
    assert "an explosion" not in page.locator("#log").inner_text()
    _shots(page, artifacts, "3-shot-marked")
    page.close()


def test_4_the_replay_reads_as_a_story(server, browser, artifacts):
    game, users = _game(uuid.uuid4().hex[:6])
    seat, acting, other = _acting(game, users)
    worm, square = _plain_step(_view(game, seat), seat)
    services.command_handle(game_id=str(game.pk), user=acting, command_type="MoveWorm",
                            payload={"worm": worm, "path": [square]})
    page = browser.new_page(viewport=DESKTOP)
    sign_in(page, server, other.username)  # the opponent watches the step
    page.goto(f"{server}/games/{game.pk}/replay/")
    heading = page.locator("#order-heading")
    expect(heading).to_contain_text(f"{worm} moved to {square}")
    assert "Order" not in heading.inner_text()
    expect(page.locator("#order-payload")).to_have_count(0)  # no raw data for players
    expect(page.locator("#details")).to_have_count(0)
    expect(page.locator("svg.board circle title", has_text="step 1 of the last walk")).to_be_attached()
    _shots(page, artifacts, "4-replay-opponent")
    mine = browser.new_page(viewport=DESKTOP)  # the player's own step names its order and its clause
    sign_in(mine, server, acting.username)
    mine.goto(f"{server}/games/{game.pk}/replay/")
    expect(mine.locator("#order-heading")).to_contain_text(f"Move worm: {worm} moved to {square}")
    expect(mine.locator("#clauses a", has_text="§7")).to_have_attribute("href", re.compile(r"/rules/worms/#s7"))
    mine.locator("#clauses a", has_text="§7").click()
    expect(mine.locator("#s7-h")).to_be_visible()
    mine.close()
    page.get_by_role("link", name="First step").click()
    for raw in ("GameCreated", "MapGenerated", "TurnOrderDrawn", "\\u00a7", '"seat"'):
        assert raw not in page.locator("main").inner_text(), raw
    _shots(page, artifacts, "4-replay-first-step")
    page.close()


def test_5_moderator_forms_and_reasons_every_player_reads(server, browser, artifacts):
    tag = uuid.uuid4().hex[:6]
    game, users = _game(tag)
    mod = account(f"mod{tag}", staff=True)
    page = browser.new_page(viewport=DESKTOP)
    sign_in(page, server, mod.username)
    page.goto(f"{server}/games/{game.pk}/audit/")
    expect(page.get_by_label("Order type")).to_have_count(0)  # no internal order name, no JSON
    form = page.locator("#correct-health")
    worm = selectors.game_state_get(game_id=str(game.pk), viewer=PUBLIC)["position"]["worms"][0]["id"]
    form.get_by_label("Worm").select_option(worm)
    form.get_by_label("Health (1 to 150)").fill("999")
    form.get_by_label("Reason (shown to every player)").fill("miscounted hit")
    form.get_by_role("button", name="File this correction").click()
    assert page.evaluate("document.getElementById('health-health').validity.rangeOverflow")
    form.get_by_label("Health (1 to 150)").fill("120")
    form.get_by_role("button", name="File this correction").click()
    expect(page.locator("#messages")).to_contain_text("Correction filed")
    page.locator("#pause-reason").fill("server move tonight")
    page.get_by_role("button", name="Pause the game").click()
    expect(page.locator("#messages")).to_contain_text("Game paused.")
    _shots(page, artifacts, "5-audit")
    player = browser.new_page(viewport=DESKTOP)
    sign_in(player, server, users[1].username)
    player.goto(f"{server}/games/{game.pk}/")
    expect(player.locator("#log")).to_contain_text("A moderator paused the game. Reason: server move tonight")
    expect(player.locator("#log")).to_contain_text("A moderator made a correction. Reason: miscounted hit")
    expect(player.locator("#log")).to_contain_text(f"A moderator corrected {worm}'s health to 120")
    _shots(player, artifacts, "5-player-reads-reasons")
    player.goto(f"{server}/games/{game.pk}/forum/")
    expect(player.locator("#bbcode")).to_contain_text("Reason: server move tonight")
    player.close()
    page.close()


def test_6_illegal_steps_disabled_empty_fire_blocked_refusals_folded(server, browser, artifacts):
    game, users = _game(uuid.uuid4().hex[:6])
    seat, acting, _ = _acting(game, users)
    view = _view(game, seat)
    page = browser.new_page(viewport=DESKTOP)
    sign_in(page, server, acting.username)
    worms = ui.worms_that_may_act(view, seat)
    blocked = next(((w["id"], s["square"]) for w in worms for s in ui.next_steps(view, w["id"]) if s["problem"]), None)
    worm = blocked[0] if blocked else worms[0]["id"]
    page.goto(f"{server}/games/{game.pk}/?worm={worm}&weapon=handgun")
    if blocked:
        expect(page.locator(f'button[data-step="{blocked[1]}"]')).to_be_disabled()
    mark_document(page)
    page.get_by_role("button", name="Fire").click()  # the target is empty: the browser asks for it
    assert page.evaluate("document.getElementById('fire-target').validity.valueMissing")
    assert same_document(page)
    page.get_by_label("Or step to square").fill("z99")
    page.get_by_role("button", name="Step", exact=True).click()
    expect(page.locator("#messages li.error")).to_contain_text("Refused")
    page.goto(f"{server}/games/{game.pk}/")
    assert "Refused" not in page.locator("#log").inner_text()
    expect(page.locator("#refusals summary")).to_have_text("Your refused orders (1)")
    _shots(page, artifacts, "6-controls")
    page.close()


def test_7_the_phone_board_fills_the_width_with_tappable_squares_and_confirmations(server, browser, artifacts):
    game, users = _game(uuid.uuid4().hex[:6])
    seat, acting, _ = _acting(game, users)
    page = browser.new_page(viewport=PHONE, has_touch=True)
    sign_in(page, server, acting.username)
    page.goto(f"{server}/games/{game.pk}/")
    wrap = page.locator("#board-wrap").bounding_box()
    assert wrap["width"] >= PHONE["width"] - 20, wrap
    square = page.locator('svg.board rect.sq[data-square="h8"]').bounding_box()
    assert square["width"] >= 32 and square["height"] >= 32, square
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 2, f"the page is {width}px wide on a phone"
    page.locator('svg.board rect.sq[data-square="c3"]').scroll_into_view_if_needed()
    page.locator('svg.board rect.sq[data-square="c3"]').tap(force=True)
    expect(page.get_by_label("Or step to square")).to_have_value("c3")
    page.screenshot(path=str(artifacts / "forum-player-7-phone-board.png"), full_page=False)
    asked: list[str] = []
    page.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.locator("#end-turn").click()
    assert asked and "End your turn now?" in asked[0]
    assert _view(game, seat)["seat"] == seat, "a dismissed confirmation must not end the turn"
    _shots(page, artifacts, "7-phone")
    page.close()


def test_8_players_quote_the_same_public_number(server, browser, artifacts):
    game, users = _game(uuid.uuid4().hex[:6])
    texts = []
    for user in users:
        page = browser.new_page(viewport=DESKTOP)
        sign_in(page, server, user.username)
        page.goto(f"{server}/games/{game.pk}/")
        line = page.locator("#log li", has_text=re.compile(r"^#\d+ Turn 1:")).first
        texts.append(line.inner_text())
        _shots(page, artifacts, f"8-numbers-{user.username[-1]}")
        page.close()
    assert texts[0].split()[0] == texts[1].split()[0], texts


def test_9_the_forum_post_has_a_frozen_picture_and_a_readable_deadline(server, browser, artifacts):
    game, _ = _game(uuid.uuid4().hex[:6])
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{server}/games/{game.pk}/forum/")
    text = page.locator("#bbcode").input_value()
    seq = selectors.viewer_log_position(game_id=str(game.pk), viewer=PUBLIC)
    assert f"/games/{game.pk}/board.png?seq={seq}[/img]" in text
    assert re.search(r"\[b\]Deadline\[/b\]: \w{3} \d{1,2} \w{3} 20\d\d, \d\d:\d\d UTC", text), text
    expect(page.locator("main img")).to_have_js_property("complete", True)
    assert page.locator("main img").evaluate("img => img.naturalWidth") > 0
    _shots(page, artifacts, "9-forum")
    page.close()


def test_10_docs_offline_an_icon_and_our_own_403(server, browser, artifacts):
    tag = uuid.uuid4().hex[:6]
    game, users = _game(tag)
    context = browser.new_context(viewport=DESKTOP)
    outside: list[str] = []

    def only_this_server(route):
        if route.request.url.startswith(server):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_this_server)
    page = context.new_page()
    page.goto(f"{server}/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Referee API", timeout=20000)
    assert not outside, outside
    _shots(page, artifacts, "10-api-docs-offline")
    assert page.request.get(f"{server}/favicon.ico").status == 200
    sign_in(page, server, users[0].username)
    response = page.goto(f"{server}/games/{game.pk}/audit/")
    assert response.status == 403
    expect(page.get_by_role("heading", name="For moderators only")).to_be_visible()
    _shots(page, artifacts, "10-forbidden")
    context.close()


def test_11_accessible_words_skip_link_contrast_and_keyboard_play(server, browser, artifacts):
    game, users = _game(uuid.uuid4().hex[:6])
    seat, acting, _ = _acting(game, users)
    worm, square = _plain_step(_view(game, seat), seat)
    page = browser.new_page(viewport=DESKTOP)
    sign_in(page, server, acting.username)
    page.goto(f"{server}/games/{game.pk}/?worm={worm}")
    page.keyboard.press("Tab")
    expect(page.locator(".skip-link")).to_be_focused()
    words = page.locator("#board-in-words")
    expect(words).to_contain_text("Wind:")
    expect(words).to_contain_text("Row 1: a: ")
    expect(page.locator("svg.board")).to_have_attribute("aria-labelledby", "board-title board-desc")
    for url in (f"/games/{game.pk}/?worm={worm}", "/", f"/games/{game.pk}/replay/", f"/games/{game.pk}/forum/"):
        page.goto(server + url)
        assert _contrast_violations(page) == [], url
    page.goto(f"{server}/games/{game.pk}/?worm={worm}")
    _shots(page, artifacts, "11-accessible")
    button = page.locator(f'button[data-step="{square}"]')
    button.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#messages")).to_contain_text(f"{worm} walked to {square}.")
    page.close()


def test_12_the_lobby_checks_names_offers_start_only_when_possible_and_shows_stats(server, browser, artifacts):
    tag = uuid.uuid4().hex[:6]
    game, users = _game(tag, players=3, join=False)
    page = browser.new_page(viewport=DESKTOP)
    sign_in(page, server, users[0].username)
    page.goto(f"{server}/games/{game.pk}/")
    expect(page.locator("#start-now")).to_have_count(0)
    expect(page.locator("#start-later")).to_contain_text("once 2 players have joined (0 so far)")
    page.goto(f"{server}/games/{game.pk}/join/")
    expect(page.locator("table.shop th", has_text="Damage")).to_be_visible()
    expect(page.get_by_role("link", name="Every weapon in the rules")).to_be_visible()
    page.get_by_label("Team name").fill("W" * 500)
    page.get_by_label("Minigun").check()
    page.get_by_role("button", name="Join the game").click()
    expect(page.locator("#join-error")).to_contain_text("A team name is at most 60 characters; yours has 500")
    assert "_" not in page.locator("#join-error").inner_text()  # no internal ids
    _shots(page, artifacts, "12-join")
    page.get_by_label("Team name").fill("Worms of the north")
    page.get_by_role("button", name="Join the game").click()
    expect(page.locator("#messages")).to_contain_text("You joined")
    long = "L" * 60
    lobby.game_join(game_id=str(game.pk), user=users[1], name=long, signup_order=SHOPPING)
    page.goto(f"{server}/games/{game.pk}/")
    expect(page.locator("#start-now")).to_have_text("Start now with 2 players")
    page.goto(f"{server}/")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= DESKTOP["width"], width
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 2, f"a long name makes the lobby {width}px wide on a phone"
    _shots(page, artifacts, "12-lobby")
    page.close()
