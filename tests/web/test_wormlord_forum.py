"""Wormlord's forum export: the board as a PNG (drawn like the page's SVG, from the public
view) and a BBCode post that tells the round, the sides and the result."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from PIL import Image

from game_pages.wormlord.board_svg import CELL, MARGIN, SIZE
from referee import services
from tests.web.test_wormlord_pages import clicked, now, wormlord_table  # noqa: F401  (the clock fixture)

pytestmark = pytest.mark.django_db


def _pixel(png: bytes, square: str) -> tuple[int, int, int]:
    """The colour at the middle of a square of the 2x picture."""
    x, y = "abcdefg".index(square[0]), int(square[1]) - 1
    cx, cy = MARGIN + x * CELL + CELL // 2, MARGIN + (SIZE - 1 - y) * CELL + CELL // 2
    return Image.open(io.BytesIO(png)).convert("RGB").getpixel((cx * 2, cy * 2))


def test_the_board_png_is_a_picture_of_the_board_that_shows_a_new_knot(now):  # noqa: F811
    table = wormlord_table()
    url = f"/games/{table.game.pk}/board.png"
    before = Client().get(url)
    assert before.status_code == 200 and before["Content-Type"] == "image/png"
    assert before.content.startswith(b"\x89PNG\r\n\x1a\n")
    assert Image.open(io.BytesIO(before.content)).size == ((MARGIN * 2 + CELL * SIZE) * 2,) * 2
    assert _pixel(before.content, "d1") == (0xE0, 0x52, 0x8A)  # pink's base
    now.at(4)  # NOW! and pink's first knot tied
    assert clicked(table, table.seats[0], do="knot", square="d2")["ok"]
    after = Client().get(url).content
    assert _pixel(before.content, "d2") != _pixel(after, "d2") == (0xE0, 0x52, 0x8A)  # the pink knot


def test_the_board_png_of_a_game_not_started_is_not_found():
    game = services.game_create(name="Waiting", ruleset="wormlord", seats=2)
    assert Client().get(f"/games/{game.pk}/board.png").status_code == 404


def test_the_forum_post_links_the_frozen_png_and_tells_the_round_and_the_sides(now):  # noqa: F811
    table = wormlord_table()
    now.at(4)
    assert clicked(table, table.seats[0], do="knot", square="d2")["ok"]
    text = Client().get(f"/games/{table.game.pk}/forum/?format=txt").content.decode()
    assert text.startswith("[b]Knots at noon[/b] — Wormlord, round 1")
    image = next(line for line in text.splitlines() if line.startswith("[img]"))
    assert f"/games/{table.game.pk}/board.png?seq=" in image
    assert "Ann (pink) took d2." in text
    assert "[*][color=pink]Pink[/color] (Ann): 14 strings in supply, 0 Objectives held, 0 rounds won" in text
    assert "[b]Round clock[/b]: the round ends at 12:03:03.0 UTC (§7.2)" in text
    local = image[len("[img]"):-len("[/img]")].split("://", 1)[-1]
    local = local[local.index("/"):]
    assert Client().get(local).content.startswith(b"\x89PNG")
