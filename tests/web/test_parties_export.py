"""The forum export of a Parties game: the arena as a PNG (the public view, frozen at a
public record) and a BBCode post with the last tick, the standings and the podium or the
next close, without any bot's secret move or ally policy (P-R14)."""

from __future__ import annotations

import io
import re

import pytest
from django.test import Client
from PIL import Image

from game_pages.parties.board_svg import CELL, MARGIN
from games.base import MODERATOR_VIEW
from referee import lobby, selectors, services
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db]

SMALL = {"width": 8, "height": 7, "obstacle_percent": 10, "tick_seconds": 60, "max_ticks": 30}


@pytest.fixture
def game():
    game = services.game_create(name="Export night", ruleset="parties", seats=2, settings=SMALL)
    users = [UserFactory(), UserFactory()]
    for n, user in enumerate(users, start=1):
        lobby.game_join(game_id=str(game.pk), user=user, name=f"Bot {n}")
    services.game_run_pending(game_id=str(game.pk))
    game.users = users
    return game


def _position(game) -> dict:
    return selectors.game_state_get(game_id=str(game.pk), viewer=MODERATOR_VIEW)["position"]


def test_the_board_image_is_a_png_of_the_whole_arena(game):
    response = Client().get(f"/games/{game.pk}/board.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    assert image.format == "PNG"
    assert image.size == ((MARGIN + 8 * CELL + 4) * 2, (MARGIN + 7 * CELL + 4) * 2)


def test_the_game_page_links_the_board_image(game):
    html = Client().get(f"/games/{game.pk}/").content.decode()
    assert f'href="/games/{game.pk}/board.png"' in html


def test_the_forum_post_links_the_frozen_picture_and_tells_the_tick_and_standings(game):
    text = Client().get(f"/games/{game.pk}/forum/?format=txt").content.decode()
    assert "[b]Export night[/b] — Parties (bot arena), tick 1 of at most 30" in text
    assert f"/games/{game.pk}/board.png?seq=" in text and "[img]" in text
    assert "[b]Standings[/b]" in text and "Bot 1: score 0" in text and "Bot 2: score 0" in text
    assert "[b]Tick 1 closes[/b]" in text and "[b]Still to move[/b]: Bot 1, Bot 2" in text


def test_the_forum_post_keeps_a_bots_chosen_move_and_ally_policy_secret(game):
    def post() -> str:
        text = Client().get(f"/games/{game.pk}/forum/?format=txt").content.decode()
        return re.sub(r"\?seq=\d+", "?seq=N", text)

    before = post()
    mover = Client()
    mover.force_login(game.users[0])
    mover.post(f"/games/{game.pk}/parties/ally/", {"policy": "never"})
    mover.post(f"/games/{game.pk}/parties/move/", {"direction": "stay", "tick": "1"})
    # only that Bot 1 has moved is public, not what it chose nor its policy
    assert post() == before.replace("[b]Still to move[/b]: Bot 1, Bot 2", "[b]Still to move[/b]: Bot 2")


def test_after_a_tick_the_post_tells_it_and_at_the_end_the_podium(game):
    for user in game.users:
        c = Client()
        c.force_login(user)
        c.post(f"/games/{game.pk}/parties/move/", {"direction": "stay", "tick": str(_position(game)["tick"])})
    text = Client().get(f"/games/{game.pk}/forum/?format=txt").content.decode()
    assert "[b]Last tick[/b]" in text and "Tick 1 closed because every bot had moved" in text
    assert "tick 2 of at most 30" in text


def test_a_finished_game_posts_its_podium():
    game = services.game_create(name="Short night", ruleset="parties", seats=2,
                                settings={**SMALL, "max_ticks": 1})
    users = [UserFactory(), UserFactory()]
    for n, user in enumerate(users, start=1):
        lobby.game_join(game_id=str(game.pk), user=user, name=f"Bot {n}")
    services.game_run_pending(game_id=str(game.pk))
    for user in users:
        c = Client()
        c.force_login(user)
        c.post(f"/games/{game.pk}/parties/move/", {"direction": "stay", "tick": "1"})
    text = Client().get(f"/games/{game.pk}/forum/?format=txt").content.decode()
    assert "[b]Game over[/b] (" in text and "1st " in text
    assert "Still to move" not in text
    assert Client().get(f"/games/{game.pk}/board.png").status_code == 200
