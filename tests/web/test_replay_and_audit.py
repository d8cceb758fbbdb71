"""The replay viewer and the moderator's audit page."""

from __future__ import annotations

import pytest
from django.test import Client

from referee import services

pytestmark = pytest.mark.django_db


def test_replay_has_a_slider_and_step_buttons(table):
    html = Client().get(f"/games/{table.game.pk}/replay/").content.decode()
    assert 'type="range" id="step-slider"' in html
    assert 'aria-label="Previous step"' in html and 'aria-label="Next step"' in html


def test_each_step_shows_the_order_and_the_rulebook_clause(table):
    seat = table.seats[0]
    html = table.client(seat).get(f"/games/{table.game.pk}/replay/?step=2").content.decode()
    assert "Submit shopping list" in html and "SubmitShoppingList" not in html  # in words, never the type
    assert "§6" in html.split('id="clauses"')[1][:300]
    assert 'href="/rules/worms/#s6"' in html.split('id="clauses"')[1][:300]  # the clause links to its text


def test_players_do_not_see_the_dice_but_moderators_do(table, moderator_client):
    steps = Client().get(f"/games/{table.game.pk}/replay/").context["count"]
    player = table.client(table.seats[0]).get(f"/games/{table.game.pk}/replay/?step={steps}").content.decode()
    assert 'id="draws"' not in player and "The dice are shown to moderators" in player
    html = moderator_client.get(f"/games/{table.game.pk}/replay/?step={steps}").content.decode()
    assert 'id="draws"' in html and "Moderator view" in html


def test_no_replay_step_shows_a_third_seat_anothers_shopping_list(table):
    third = table.client(table.seats[2])
    count = third.get(f"/games/{table.game.pk}/replay/").context["count"]
    for step in range(1, count + 1):
        html = third.get(f"/games/{table.game.pk}/replay/?step={step}").content.decode().lower()
        assert "minigun" not in html and "mad_cow" not in html, step  # seats 2 and 1's team weapons


def test_replay_draws_the_board_after_a_step(table):
    steps = Client().get(f"/games/{table.game.pk}/replay/").context["count"]
    html = Client().get(f"/games/{table.game.pk}/replay/?step={steps}").content.decode()
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in html


def test_a_bad_step_number_falls_back_to_the_last(table):
    assert Client().get(f"/games/{table.game.pk}/replay/?step=abc").status_code == 200
    assert Client().get(f"/games/{table.game.pk}/replay/?step=9999").status_code == 200


def test_the_audit_page_is_for_moderators_only(table):
    response = table.client(table.seats[0]).get(f"/games/{table.game.pk}/audit/")
    html = response.content.decode()
    assert response.status_code == 403 and "For moderators only" in html  # our page, not the admin's login
    assert "/admin/" not in html
    signed_out = Client().get(f"/games/{table.game.pk}/audit/")
    assert signed_out.status_code == 302 and signed_out["Location"].startswith("/accounts/login/")


def test_a_moderator_verifies_the_log(table, moderator_client):
    response = moderator_client.post(f"/games/{table.game.pk}/audit/", {"action": "verify"})
    html = response.content.decode()
    assert 'id="report"' in html and "all good" in html


def test_a_correction_needs_a_reason_and_is_logged_with_it(table, moderator_client):
    turn = table.position()["turn"]
    response = moderator_client.post(f"/games/{table.game.pk}/audit/", {
        "action": "correct", "command_type": "SkipTurn", "payload": f'{{"turn": {turn}}}', "reason": "",
    }, follow=True)
    assert "Say why" in response.content.decode()
    response = moderator_client.post(f"/games/{table.game.pk}/audit/", {
        "action": "correct", "command_type": "SkipTurn", "payload": f'{{"turn": {turn}}}',
        "reason": "player asked to pass",
    }, follow=True)
    assert "Correction filed" in response.content.decode()
    log = services.referee_get().feed(str(table.game.pk), __import__("games.base").base.PUBLIC)
    notice = next(e for e in log if e["type"] == "ModeratorRuling")
    assert notice["payload"]["reason"] == "player asked to pass"


def test_a_malformed_correction_payload_is_explained(table, moderator_client):
    response = moderator_client.post(f"/games/{table.game.pk}/audit/", {
        "action": "correct", "command_type": "SkipTurn", "payload": "{nope", "reason": "x",
    }, follow=True)
    assert "The payload is not JSON" in response.content.decode()
