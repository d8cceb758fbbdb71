"""Surrender and the end of the game (everything becomes public, dice included), the
moderator's clock controls, and double-submitted orders."""

from __future__ import annotations

import pytest
from django.test import Client

from game_pages.worms import ui
from referee.models import Event
from tests.web.conftest import worms_table

pytestmark = pytest.mark.django_db


def test_surrender_needs_a_confirmation():
    table = worms_table(players=2)
    seat = table.seats[0]
    response = table.client(seat).post(f"/games/{table.game.pk}/surrender/", follow=True)
    assert "Tick the box to confirm" in response.content.decode()
    assert table.position()["phase"] == "playing"


def test_after_a_surrender_ends_the_game_everyone_sees_the_winner_and_the_dice():
    table = worms_table(players=2)
    loser, winner = table.seats
    response = table.client(loser).post(f"/games/{table.game.pk}/surrender/", {"confirm": "yes"}, follow=True)
    html = response.content.decode()
    assert "You surrendered" in html
    assert f'<strong id="winner">{winner.name}</strong>' in html
    pages = [Client().get(f"/games/{table.game.pk}/replay/?step={i}").content.decode()
             for i in range(1, Client().get(f"/games/{table.game.pk}/replay/").context["count"] + 1)]
    assert any('id="draws"' in page for page in pages), "after the end the dice are public"
    # the teams' shopping lists, secret during play, are public now
    everything = " ".join(pages).lower()
    assert "minigun" in everything and "mad cow" in everything


def test_a_moderator_pauses_resumes_and_extends_the_deadline(moderator_client):
    table = worms_table(players=2)
    url = f"/games/{table.game.pk}/audit/"
    html = moderator_client.post(url, {"action": "pause", "reason": "server move"}, follow=True).content.decode()
    assert "Game paused." in html and "Resume the game" in html
    # a paused game refuses orders, in plain words
    acting = table.seat_to_act()
    refused = table.client(acting).post(f"/games/{table.game.pk}/end/", follow=True).content.decode()
    assert "paused this game" in refused
    html = moderator_client.post(url, {"action": "resume", "reason": "back"}, follow=True).content.decode()
    assert "Game resumed." in html
    html = moderator_client.post(url, {"action": "extend", "hours": "12", "reason": "flu"}, follow=True).content.decode()
    assert "The deadline is now" in html
    html = moderator_client.post(url, {"action": "extend", "hours": "x", "reason": "flu"}, follow=True).content.decode()
    assert "whole hours" in html


def test_a_double_submitted_step_is_played_once():
    table = worms_table(players=2)
    acting = table.seat_to_act()
    position = table.position(acting)
    worm, square = next((w["id"], s["square"]) for w in ui.worms_that_may_act(position, acting.number)
                        for s in ui.next_steps(position, w["id"]) if not s["problem"] and not s["warning"])
    c = table.client(acting)
    before = Event.objects.filter(game=table.game).count()
    form = {"worm": worm, "square": square, "key": f"k-move-{worm}-{square}"}
    c.post(f"/games/{table.game.pk}/move/", form)
    after_first = Event.objects.filter(game=table.game).count()
    c.post(f"/games/{table.game.pk}/move/", form)
    assert after_first > before
    assert Event.objects.filter(game=table.game).count() == after_first


def test_the_game_page_offers_the_moderator_audit_link_only_to_moderators(moderator_client):
    table = worms_table(players=2)
    assert "Moderator audit" in moderator_client.get(f"/games/{table.game.pk}/").content.decode()
    assert "Moderator audit" not in table.client(table.seats[0]).get(f"/games/{table.game.pk}/").content.decode()
