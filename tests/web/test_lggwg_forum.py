"""LGGWG's forum export: ``board.png`` is the published map and the public scoreboard as a
PNG, the same whoever asks; the BBCode post links it and tells the last resolution, the
scoreboard and whose list is awaited, from the public view and log only."""

from __future__ import annotations

import io
import re

import pytest
from django.test import Client
from PIL import Image

from game_pages.lggwg.board_png import board_png
from game_pages.lggwg.board_svg import CELL, MARGIN
from games.base import MODERATOR_VIEW, PUBLIC
from referee import selectors
from tests.web.test_lggwg_pages import lggwg_table, post_list

pytestmark = pytest.mark.django_db

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_the_board_png_is_a_png_of_the_map_anyone_can_fetch():
    table = lggwg_table()
    response = Client().get(f"/games/{table.game.pk}/board.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert response.content.startswith(PNG_MAGIC)
    image = Image.open(io.BytesIO(response.content))
    position = table.position()
    assert image.width >= 2 * (MARGIN + position["width"] * CELL)  # the whole map, drawn at twice the size
    assert image.height > 2 * (MARGIN + position["height"] * CELL)  # and the scoreboard under it


def test_the_board_png_is_the_same_whoever_asks_and_shows_no_unit():
    table = lggwg_table()
    ann, bob = table.seats
    url = f"/games/{table.game.pk}/board.png"
    public = Client().get(url).content
    assert table.client(ann).get(url).content == public
    assert table.client(bob).get(url).content == public
    assert board_png(table.position()) == public  # drawn from the public view alone
    # the moderator's view (every unit on its square) draws a different picture
    everything = selectors.game_state_get(game_id=str(table.game.pk), viewer=MODERATOR_VIEW)["position"]
    assert board_png(everything) != public


def test_the_forum_post_links_the_png_and_tells_the_steps_scoreboard_and_who_is_awaited():
    table = lggwg_table(name="Green dawn")
    ann, bob = table.seats
    post_list(table, ann, action="submit", draft="R2*c4,R1-")
    post_list(table, bob, action="submit", draft="-")
    text = Client().get(f"/games/{table.game.pk}/forum/?format=txt").content.decode()
    public = selectors.viewer_log_position(game_id=str(table.game.pk), viewer=PUBLIC)
    assert text.startswith("[b]Green dawn[/b] — Little Green Guys With Guns, turn 2 of 30 on the map duel")
    assert f"/games/{table.game.pk}/board.png?seq={public}[/img]" in text
    assert "[b]The last resolution[/b]\n[list=1][*]Step 1: " in text
    assert "Ann — Red R2: targeted fire." in text  # who fired is public; where and what it hit are not
    # squares are looked for in the words, not in the links (a game's id may hold "c4")
    words = re.sub(r"https?://\S+", "", text)
    assert "c4" not in words
    # the scores depend on where the seeded set-up put the units: the line's shape is the point
    assert re.search(r"\[\*\]Red \(Ann\): score -?\d+, kills \d+, sheep \d+ — R1 Executive \d+/15", text), text
    assert "[b]Lists awaited from[/b]: Ann, Bob" in text
    assert "[b]Deadline[/b]: " in text
    assert "b2" not in words  # no unit's square
    assert table.client(ann).get(f"/games/{table.game.pk}/forum/?format=txt").content.decode() == text


def test_the_forum_post_of_a_finished_game_says_who_won():
    table = lggwg_table({"map": "duel", "max_turns": 1}, name="Short night")
    ann, bob = table.seats
    post_list(table, ann, action="submit", draft="-")
    post_list(table, bob, action="submit", draft="-")
    text = Client().get(f"/games/{table.game.pk}/forum/?format=txt").content.decode()
    assert "[b]Game over[/b]: " in text and "Lists awaited" not in text
