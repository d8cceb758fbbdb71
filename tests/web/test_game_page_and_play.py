"""The game page and playing a turn through it: pick a worm, reach, step, refusals in
plain words with the rule, fire, end the turn."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from game_pages.worms import ui

pytestmark = pytest.mark.django_db


def legal_step(position: dict, seat: int) -> tuple[str, str] | None:
    for worm in ui.worms_that_may_act(position, seat):
        for step in ui.next_steps(position, worm["id"]):
            if not step["problem"] and not step["warning"]:
                return worm["id"], step["square"]
    return None


def test_anyone_sees_the_board_drawn_as_svg(table):
    html = Client().get(f"/games/{table.game.pk}/").content.decode()
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in html
    assert 'role="img"' in html
    position = table.position()
    worm = position["worms"][0]
    assert f"worm {worm['id']}, health {worm['health']}" in html
    assert "Wind:" in html and "Water level:" in html and "Turn order" in html
    assert "Sudden death in" in html
    assert "sand (1-2)" in html  # the key


def test_a_spectator_gets_no_controls_and_no_inventory(table):
    html = Client().get(f"/games/{table.game.pk}/").content.decode()
    assert 'id="play"' not in html and 'id="inventory"' not in html


def test_the_seat_to_act_sees_its_private_inventory_and_the_controls(table):
    acting = table.seat_to_act()
    html = table.client(acting).get(f"/games/{table.game.pk}/").content.decode()
    assert 'id="inventory"' in html and "Handgun" in html
    assert 'id="play"' in html and 'id="end-turn"' in html


def test_another_seat_sees_its_own_inventory_but_not_the_controls(table):
    other = table.other_seats()[0]
    html = table.client(other).get(f"/games/{table.game.pk}/").content.decode()
    assert 'id="inventory"' in html and "It is not your turn." in html and 'id="end-turn"' not in html


def test_picking_a_worm_highlights_where_it_can_walk(table):
    acting = table.seat_to_act()
    found = legal_step(table.position(acting), acting.number)
    assert found, "no worm of the seat to act can step anywhere"
    worm, square = found
    html = table.client(acting).get(f"/games/{table.game.pk}/?worm={worm}").content.decode()
    assert 'class="reach"' in html
    assert f"<title>{square}: reachable in 1 step</title>" in html
    assert f'data-step="{square}"' in html


def test_a_step_is_played_and_the_worm_is_drawn_on_its_new_square(table):
    acting = table.seat_to_act()
    worm, square = legal_step(table.position(acting), acting.number)
    c = table.client(acting)
    response = c.post(f"/games/{table.game.pk}/move/", {"worm": worm, "square": square}, follow=True)
    assert response.status_code == 200
    assert f"{worm} moved to {square}" in response.content.decode()  # the log on the page
    assert f"{worm} walked to {square}." in response.content.decode()
    assert f"{worm} walked to {square}." in response.content.decode()


def test_a_refused_step_is_explained_with_the_rule(table):
    acting = table.seat_to_act()
    position = table.position(acting)
    worm = ui.worms_that_may_act(position, acting.number)[0]
    far = "a1" if (worm["x"], worm["y"]) not in ((0, 0), (1, 0), (0, 1)) else "o15"
    response = table.client(acting).post(f"/games/{table.game.pk}/move/", {"worm": worm["id"], "square": far},
                                         follow=True)
    html = response.content.decode()
    assert "Refused:" in html and "is not next to" in html and "(rule §7)" in html


def test_an_order_out_of_turn_is_refused_in_plain_words(table):
    other = table.other_seats()[0]
    worm = next(w for w in table.position(other)["worms"] if w["seat"] == other.number)
    response = table.client(other).post(f"/games/{table.game.pk}/move/", {"worm": worm["id"], "square": "a1"},
                                        follow=True)
    assert "It is not your turn" in response.content.decode()


def test_choosing_a_weapon_shows_the_targets_in_reach(table):
    acting = table.seat_to_act()
    worm = ui.worms_that_may_act(table.position(acting), acting.number)[0]["id"]
    html = table.client(acting).get(f"/games/{table.game.pk}/?worm={worm}&weapon=handgun").content.decode()
    assert 'class="target"' in html and "in the HGT window" in html
    assert '<datalist id="targets">' in html


def test_firing_and_ending_the_turn_passes_play_on(table):
    acting = table.seat_to_act()
    c = table.client(acting)
    position = table.position(acting)
    worm = ui.worms_that_may_act(position, acting.number)[0]["id"]
    aim = ui.aim_window(position, worm, "handgun")
    target = next(iter(aim.targets))
    response = c.post(f"/games/{table.game.pk}/fire/", {"worm": worm, "weapon": "handgun", "target": target},
                      follow=True)
    html = response.content.decode()
    assert f"fired the Handgun at {target}" in html or "Refused:" in html
    turn = table.position()["turn"]
    response = c.post(f"/games/{table.game.pk}/end/", follow=True)
    if table.position()["turn"] == turn and table.position()["stage"] == "acting":
        assert "Refused" in response.content.decode()
    else:
        assert "turn ended" in response.content.decode() or "Your turn is over." in response.content.decode()
        from referee import services

        services.game_run_pending(game_id=str(table.game.pk))
        assert table.seat_to_act().number != acting.number


def test_board_svg_endpoint_and_missing_games(table):
    svg = Client().get(f"/games/{table.game.pk}/board.svg")
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    assert Client().get("/games/not-a-game/").status_code == 404
    assert Client().get("/games/00000000-0000-0000-0000-000000000000/").status_code == 404


def test_a_moderator_sees_hidden_information_only_when_asked(table, moderator_client):
    url = f"/games/{table.game.pk}/"
    assert "moderator view" not in moderator_client.get(url).content.decode()
    html = moderator_client.get(url + "?as=moderator").content.decode()
    assert "moderator view" in html
    assert "holds Prod x∞, Handgun x∞, Mad Cow x2" in html  # every team's inventory
    if table.position()["crates"]:
        assert re.search(r"(weapon|health|utility) crate, holds ", html)
    assert ", holds " not in Client().get(url).content.decode()


def test_the_page_is_usable_on_a_phone(table):
    html = Client().get(f"/games/{table.game.pk}/").content.decode()
    assert 'name="viewport"' in html and "@media (max-width" in html
    assert re.search(r'viewBox="0 0 \d+ \d+"', html)


def test_collecting_a_crate_tells_the_player_what_was_in_it():
    from game_pages.worms.narrate import narrate

    line = {"kind": "event", "type": "ItemsGained",
            "payload": {"seat": 1, "items": [{"item": "bazooka", "count": 3}], "source": "crate"}}
    assert narrate(line, {1: "Ann"}) == "Ann gained Bazooka x3 (from crate)"


def test_a_step_onto_a_mine_or_a_crate_is_announced_before_it_is_taken():
    position = {
        "heights": [5] * 225, "water": 0, "teams": [{"seat": 1, "letter": "A", "name": "", "inventory": []}],
        "worms": [{"id": "A1", "seat": 1, "x": 5, "y": 5, "health": 150, "poison": 0, "invisible_rounds": 0}],
        "mines": [{"x": 5, "y": 4, "type": "d"}], "crates": [{"x": 6, "y": 5, "kind": "w", "contents": None,
                                                              "booby_trapped": None}],
        "drums": [{"x": 4, "y": 5}], "cards": [], "progress": {"worms": []},
    }
    steps = {s["direction"]: s for s in ui.next_steps(position, "A1")}
    assert "a mine is there" in steps["N"]["warning"]
    assert "you collect it" in steps["E"]["warning"]
    assert "oil drum" in steps["W"]["problem"]
    assert steps["S"]["problem"] == "" and steps["S"]["warning"] == ""
    assert set(ui.reach(position, "A1")) >= {"f5", "g6", "f8"} and "e6" not in ui.reach(position, "A1")


def test_the_board_is_also_given_in_words_for_screen_readers(table):
    html = Client().get(f"/games/{table.game.pk}/").content.decode()
    worm = table.position()["worms"][0]
    assert '<ul id="board-in-words">' in html
    assert f"{worm['id']} (" in html.split('id="board-in-words"')[1]


def test_a_collected_crate_shows_its_contents_at_once(table, monkeypatch):
    """What the feed brings after the order (here a crate's contents, private to the
    seat) is shown to the player as soon as the page comes back."""
    from frontend_templates import views_game

    acting = table.seat_to_act()
    worm, square = legal_step(table.position(acting), acting.number)
    real = views_game.selectors.game_events_list

    def feed(**kw):
        items = real(**kw)
        if kw.get("after"):
            items = [*items, {"seq": 999, "kind": "event", "type": "ItemsGained", "audience": "seat",
                              "payload": {"seat": acting.number, "items": [{"item": "teleport", "count": 1}],
                                          "source": "crate"}}]
        return items

    monkeypatch.setattr(views_game.selectors, "game_events_list", feed)
    html = table.client(acting).post(f"/games/{table.game.pk}/move/", {"worm": worm, "square": square},
                                     follow=True).content.decode()
    assert f"{acting.name} gained Teleport x1 (from crate)" in html
