"""A forum player's pages, the server side: words instead of type names, moderators' reasons reaching
every player, the correction form, numbers players can share, the frozen forum picture,
the lobby's checks, the offline API docs, the icon, the moderators' 403 page."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings

from game_pages.worms import ui
from game_pages.worms.narrate import narrate
from games.base import PUBLIC, Viewer
from referee import selectors, services
from referee.models import Game
from tests.factories import ModeratorFactory, UserFactory
from tests.web.conftest import worms_table

pytestmark = pytest.mark.django_db

RAW_TYPES = ("GameCreated", "MapGenerated", "TurnOrderDrawn", "ObjectsPlaced", "GameStarted", "TurnStarted",
             "WindChanged", "RoundBegan", "ModeratorRuling", "GamePaused", "DeadlineExtended")


def log_text(html: str) -> str:
    return html.split('id="log"')[1].split("</ul>")[0]


# --- words ---------------------------------------------------------------------------------


def test_the_log_never_shows_an_event_type_name(table):
    html = table.client(table.seats[0]).get(f"/games/{table.game.pk}/").content.decode()
    log = log_text(html)
    for raw in RAW_TYPES:
        assert raw not in log, raw
    assert "The island was drawn" in log and "the turn order was drawn" in log.lower()


def test_a_handgun_hit_is_named_and_a_second_shotgun_shot_announced():
    hit = narrate({"kind": "event", "type": "Exploded", "payload": {"x": 9, "y": 11, "source": "handgun"}})
    assert hit == "The Handgun hit j12"
    fired = narrate({"kind": "event", "type": "WeaponFired",
                     "payload": {"worm": "B1", "weapon": "shotgun", "target": "j12", "shots_left": 1}})
    assert "1 more shot with the Shotgun this turn" in fired


def test_a_turn_end_has_no_ended_and_no_double_possessive():
    names = {1: "Alice's Annelids", 2: "Bob"}
    line = narrate({"kind": "event", "type": "TurnEnded",
                    "payload": {"turn": 3, "seat": 1, "reason": "ended", "next_seat": 2, "round_over": False}}, names)
    assert line == "The turn of Alice's Annelids ended; next: Bob"
    assert "(ended)" not in line and "'s's" not in line and "s's" not in line


def test_a_health_correction_is_told_as_a_correction_not_as_damage():
    line = narrate({"kind": "event", "type": "WormDamaged",
                    "payload": {"worm": "A1", "amount": 869, "health": 130, "cause": "moderator ruling"}})
    assert line == "A moderator corrected A1's health to 130"


# --- moderators' reasons ---------------------------------------------------------------------


def test_a_pause_and_an_extension_show_their_reason_to_every_player_and_in_the_forum(moderator_client):
    table = worms_table(players=2)
    url = f"/games/{table.game.pk}/audit/"
    moderator_client.post(url, {"action": "extend", "hours": "24", "reason": "Bob is ill"})
    moderator_client.post(url, {"action": "pause", "reason": "server move tonight"})
    for seat in table.seats:
        html = table.client(seat).get(f"/games/{table.game.pk}/").content.decode()
        assert "A moderator paused the game. Reason: server move tonight" in log_text(html)
        assert "A moderator extended the deadline by 24 hours" in log_text(html) and "Reason: Bob is ill" in html
        assert "Paused by a moderator.</strong> Reason: server move tonight" in html
    post = Client().get(f"/games/{table.game.pk}/forum/?format=txt").content.decode()
    assert "Reason: server move tonight" in post


def test_the_correction_form_refuses_health_999_and_records_nothing(table, moderator_client):
    worm = table.position()["worms"][0]["id"]
    before = selectors.viewer_log_position(game_id=str(table.game.pk), viewer=PUBLIC)
    html = moderator_client.post(f"/games/{table.game.pk}/audit/", {
        "action": "correct", "kind": "health", "worm": worm, "health": "999", "reason": "miscounted",
    }, follow=True).content.decode()
    assert "Health must be from 1 to 150" in html
    assert selectors.viewer_log_position(game_id=str(table.game.pk), viewer=PUBLIC) == before


def test_the_correction_form_picks_a_worm_a_field_and_a_value_and_everyone_reads_the_reason(table, moderator_client):
    page = moderator_client.get(f"/games/{table.game.pk}/audit/").content.decode()
    assert 'name="command_type"' not in page and "Payload (JSON)" not in page  # no internal order name, no JSON
    assert 'id="health-worm"' in page and 'max="150"' in page
    worm = table.position()["worms"][0]["id"]
    html = moderator_client.post(f"/games/{table.game.pk}/audit/", {
        "action": "correct", "kind": "health", "worm": worm, "health": "120", "reason": "the blast missed",
    }, follow=True).content.decode()
    assert "Correction filed" in html
    player = table.client(table.seats[1]).get(f"/games/{table.game.pk}/").content.decode()
    assert f"A moderator corrected {worm}&#x27;s health to 120" in player
    assert "A moderator made a correction. Reason: the blast missed" in player
    assert "took 30 damage" not in player


# --- play ------------------------------------------------------------------------------------


def test_fire_with_an_empty_target_is_not_sent_and_not_logged(table):
    acting = table.seat_to_act()
    worm = ui.worms_that_may_act(table.position(acting), acting.number)[0]["id"]
    html = table.client(acting).get(f"/games/{table.game.pk}/?worm={worm}&weapon=handgun").content.decode()
    assert re.search(r'id="fire-target"[^>]*required', html)
    before = selectors.viewer_log_position(game_id=str(table.game.pk), viewer=Viewer.for_seat(acting.number))
    html = table.client(acting).post(f"/games/{table.game.pk}/fire/", {"worm": worm, "weapon": "handgun", "target": ""},
                                     follow=True).content.decode()
    assert "Pick a target first" in html
    assert selectors.viewer_log_position(game_id=str(table.game.pk), viewer=Viewer.for_seat(acting.number)) == before


def test_a_refused_order_is_shown_once_and_folded_away_from_the_log(table):
    acting = table.seat_to_act()
    c = table.client(acting)
    worm = ui.worms_that_may_act(table.position(acting), acting.number)[0]["id"]
    html = c.post(f"/games/{table.game.pk}/move/", {"worm": worm, "square": "z99"}, follow=True).content.decode()
    assert "Refused:" in html.split('id="messages"')[1].split("</ul>")[0]
    html = c.get(f"/games/{table.game.pk}/").content.decode()
    assert "Refused" not in log_text(html)
    assert 'id="refusals"' in html and "Your refused orders (1)" in html


def test_an_illegal_step_button_is_disabled(table):
    acting = table.seat_to_act()
    for worm in ui.worms_that_may_act(table.position(acting), acting.number):
        html = table.client(acting).get(f"/games/{table.game.pk}/?worm={worm['id']}").content.decode()
        for button in re.findall(r"<button[^>]*data-step=[^>]*>", html):
            assert ("(not allowed" in button) == (" disabled " in button), button


def test_end_of_turn_and_surrender_ask_for_confirmation(table):
    html = table.client(table.seat_to_act()).get(f"/games/{table.game.pk}/").content.decode()
    assert re.search(r'id="end-turn"[^>]*data-confirm="End your turn now\?', html)
    assert 'data-confirm="Surrender?' in html


def test_the_board_marks_the_walk_of_the_last_order(table):
    from tests.web.test_game_page_and_play import legal_step

    acting = table.seat_to_act()
    worm, square = legal_step(table.position(acting), acting.number)
    table.client(acting).post(f"/games/{table.game.pk}/move/", {"worm": worm, "square": square})
    html = Client().get(f"/games/{table.game.pk}/").content.decode()
    assert f"{square}: step 1 of the last walk" in html
    assert f"Just happened: {worm} walked" in html


def test_the_live_page_knows_its_feed(table):
    html = table.client(table.seats[0]).get(f"/games/{table.game.pk}/").content.decode()
    assert f'data-stream="/api/games/{table.game.pk}/stream/"' in html
    assert f'data-events="/api/games/{table.game.pk}/events/"' in html
    assert 'id="notify-toggle"' in html


# --- numbers players can share -----------------------------------------------------------------


def test_two_players_see_the_same_public_number_for_a_public_record(table):
    numbers = []
    for seat in table.seats[:2]:
        who = Viewer.for_seat(seat.number)
        feed = selectors.game_events_list(game_id=str(table.game.pk), viewer=who)
        public = selectors.public_numbers_get(game_id=str(table.game.pk), viewer=who)
        last_turn = [r for r in feed if r["type"] == "TurnStarted"][-1]
        numbers.append((last_turn["seq"], public[last_turn["seq"]]))
    assert numbers[0][1] == numbers[1][1]
    html = table.client(table.seats[0]).get(f"/games/{table.game.pk}/").content.decode()
    assert f'<span class="public-no">#{numbers[0][1]}</span>' in html


def test_the_forum_picture_is_frozen_at_its_record(table):
    from tests.web.test_game_page_and_play import legal_step

    seq = selectors.viewer_log_position(game_id=str(table.game.pk), viewer=PUBLIC)
    url = f"/games/{table.game.pk}/board.png?seq={seq}"
    first = Client().get(url)
    assert first.status_code == 200 and first["Content-Type"] == "image/png"
    acting = table.seat_to_act()
    worm, square = legal_step(table.position(acting), acting.number)
    table.client(acting).post(f"/games/{table.game.pk}/move/", {"worm": worm, "square": square})
    assert Client().get(url).content == first.content
    assert Client().get(f"/games/{table.game.pk}/board.png").content != first.content
    assert Client().get(f"/games/{table.game.pk}/board.png?seq=x").status_code == 400


@override_settings(REFEREE_BASE_URL="https://worms.example.org/")
def test_the_forum_post_uses_the_public_base_url(table):
    text = Client().get(f"/games/{table.game.pk}/forum/?format=txt", HTTP_HOST="127.0.0.1").content.decode()
    assert f"[img]https://worms.example.org/games/{table.game.pk}/board.png?seq=" in text
    assert "127.0.0.1" not in text


def test_the_deadline_is_shown_readably_and_in_the_readers_time_zone(table):
    html = table.client(table.seats[0]).get(f"/games/{table.game.pk}/").content.decode()
    assert re.search(r'<time data-local datetime="[^"]+">\w{3} \d{1,2} \w{3} 20\d\d, \d\d:\d\d UTC</time>', html)


# --- accessibility --------------------------------------------------------------------------


def test_the_board_in_words_has_the_heights_the_terrain_and_the_wind(table):
    html = Client().get(f"/games/{table.game.pk}/").content.decode()
    words = html.split('id="board-in-words"')[1].split("</ul>")[0]
    assert "Wind:" in words and "Water level" in words
    assert "Row 1: a: " in words and "Row 15: " in words
    assert re.search(r"height \d+, (sand|lowland|hills|highland|peaks)", words)


def test_a_skip_link_and_a_labelled_board(table):
    html = Client().get(f"/games/{table.game.pk}/").content.decode()
    assert '<a class="skip-link" href="#main">' in html and '<main id="main"' in html
    assert 'aria-labelledby="board-title board-desc"' in html and 'aria-describedby="board-in-words"' in html


# --- lobby -----------------------------------------------------------------------------------


def test_start_now_is_offered_only_when_enough_players_have_joined():
    creator = UserFactory()
    game = services.game_create(name="Early", ruleset="worms", seats=4, created_by=creator)
    c = Client()
    c.force_login(creator)
    html = c.get(f"/games/{game.pk}/").content.decode()
    assert 'id="start-now"' not in html and "can start once 2 players have joined (0 so far)" in html
    from referee import lobby

    for user, name in ((creator, "One"), (UserFactory(), "Two")):
        lobby.game_join(game_id=str(game.pk), user=user, name=name, signup_order={
            "type": "SubmitShoppingList", "payload": {"team_weapon": "minigun", "items": []}})
    html = c.get(f"/games/{game.pk}/").content.decode()
    assert 'id="start-now"' in html and "Start now with 2 players" in html


def test_a_long_team_name_is_refused_not_cut():
    game = services.game_create(name="Names", ruleset="worms", seats=2, created_by=ModeratorFactory())
    c = Client()
    c.force_login(UserFactory())
    response = c.post(f"/games/{game.pk}/join/", {"name": "N" * 500, "team_weapon": "minigun"})
    assert response.status_code == 400
    assert "A team name is at most 60 characters; yours has 500" in response.content.decode()
    assert not game.seats.exists()


def test_a_long_game_name_is_refused_not_cut():
    c = Client()
    c.force_login(UserFactory())
    response = c.post("/games/new/", {"ruleset": "worms", "name": "G" * 500, "players": "2",
                                      "turn_limit_hours": "24"})
    assert response.status_code == 400 and "at most 120 characters; yours has 500" in response.content.decode()
    assert not Game.objects.filter(name__startswith="GGGG").exists()


def test_the_shopping_list_shows_reach_and_damage_and_links_the_rules():
    game = services.game_create(name="Shop", ruleset="worms", seats=2, created_by=ModeratorFactory())
    c = Client()
    c.force_login(UserFactory())
    html = c.get(f"/games/{game.pk}/join/").content.decode()
    assert '<th scope="col">Reach</th>' in html and '<th scope="col">Damage</th>' in html
    assert "40-50" in html and 'href="/rules/worms/#weapons"' in html
    rules = Client().get("/rules/worms/").content.decode()
    assert 'id="s7"' in rules and 'id="w-bazooka"' in rules


def test_a_join_error_is_in_plain_words_without_internal_ids():
    game = services.game_create(name="Plain", ruleset="worms", seats=2, created_by=ModeratorFactory())
    c = Client()
    c.force_login(UserFactory())
    html = c.post(f"/games/{game.pk}/join/", {"name": "Ann"}).content.decode()
    error = html.split('id="join-error"')[1].split("</p>")[0]
    assert "Choose one free team weapon: Super Sheep, Mad Cow" in error
    assert "mad_cow" not in error and "old_woman" not in error


# --- site ------------------------------------------------------------------------------------


def test_the_icon_is_served(db):
    response = Client().get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"].startswith("image/")


def test_the_api_docs_load_their_assets_from_this_site(db):
    html = Client().get("/api/docs/").content.decode()
    assert "cdn.jsdelivr" not in html and "unpkg" not in html
    assert "drf_spectacular_sidecar" in html


def test_a_health_raised_by_a_moderator_is_told_as_a_correction(table, moderator_client):
    worm = table.position()["worms"][0]["id"]
    moderator_client.post(f"/games/{table.game.pk}/audit/", {
        "action": "correct", "kind": "health", "worm": worm, "health": "140", "reason": "lower first",
    })
    moderator_client.post(f"/games/{table.game.pk}/audit/", {
        "action": "correct", "kind": "health", "worm": worm, "health": "150", "reason": "and back",
    })
    html = Client().get(f"/games/{table.game.pk}/").content.decode()
    assert f"A moderator corrected {worm}&#x27;s health to 150" in log_text(html)
    assert "healed" not in log_text(html)


def test_my_games_shows_the_deadline_readably(table):
    html = table.client(table.seats[0]).get("/my/").content.decode()
    assert re.search(r'<time data-local datetime="[^"]+">\w{3} \d{1,2} \w{3} 20\d\d, \d\d:\d\d UTC</time>', html)


def test_the_board_marks_a_shot_its_blast_and_the_damage():
    from game_pages.worms.board_scene import Highlights
    from game_pages.worms.board_svg import board_svg
    from game_pages.worms.marks import marks_from

    position = {"heights": [5] * 225, "water": 0, "worms": [
        {"id": "A1", "seat": 1, "x": 2, "y": 2, "health": 150},
        {"id": "B1", "seat": 2, "x": 2, "y": 7, "health": 130},
    ], "teams": [{"seat": 1, "letter": "A", "name": "Ann"}, {"seat": 2, "letter": "B", "name": "Bo"}]}
    records = [
        {"kind": "command", "type": "Fire", "actor": {"kind": "player", "seat": 1}, "payload": {}},
        {"kind": "event", "type": "WeaponFired", "payload": {"worm": "A1", "weapon": "handgun", "target": "c8"}},
        {"kind": "event", "type": "Exploded", "payload": {"x": 2, "y": 7, "source": "handgun"}},
        {"kind": "event", "type": "WormDamaged", "payload": {"worm": "B1", "amount": 20, "health": 130,
                                                              "cause": "handgun"}},
    ]
    marks = marks_from(records, position)
    assert marks.shots == (((2, 2), (2, 7)),)
    assert marks.blasts == frozenset({(2, 7)}) and marks.damage == (((2, 7), 20),)
    svg = board_svg(position, Highlights(marks=marks))
    assert "c8: hit by the last blast" in svg and "c8: lost 20 health" in svg and ">-20</text>" in svg
    assert "the last shot went from c3 to c8" in svg
