"""The board pictures (SVG and PNG) from a position as a viewer may see it (§7)."""

from __future__ import annotations

import io

from PIL import Image

from game_pages.worms.board_png import board_png
from game_pages.worms.board_scene import HEIGHT, WIDTH
from game_pages.worms.board_svg import board_svg


def position(**over):
    heights = [5] * 225
    heights[0] = 0  # a1 is water
    heights[1] = 1  # b1 is under the risen water
    base = {
        "phase": "playing", "heights": heights, "water": 1, "wind": {"direction": "E", "strength": 2},
        "round": 4, "turn": 9, "seat": 2, "sudden_death_after": 10, "sudden_death": False, "order": [2, 1],
        "teams": [{"seat": 1, "letter": "A", "name": "Ann", "inventory": None, "out": False},
                  {"seat": 2, "letter": "B", "name": "Bo", "inventory": None, "out": False}],
        "worms": [{"id": "A1", "seat": 1, "x": 2, "y": 2, "health": 120, "poison": 5, "invisible_rounds": 0},
                  {"id": "B1", "seat": 2, "x": 6, "y": 6, "health": 77, "poison": 0, "invisible_rounds": 0}],
        "mines": [{"x": 3, "y": 3, "type": "p"}], "drums": [{"x": 4, "y": 4}],
        "crates": [{"x": 5, "y": 5, "kind": "h", "contents": None, "booby_trapped": None}],
        "cards": [{"x": 7, "y": 7, "contents": None}], "bubbles": [{"x": 6, "y": 6, "seat": 2, "rounds": 2}],
        "progress": {"worms": []},
    }
    return {**base, **over}


def test_the_svg_draws_every_kind_of_thing_with_a_readable_title():
    svg = board_svg(position())
    for text in ("a1: water", "b1: water", "c1: height 5", "c3: worm A1, health 120, poisoned",
                 "g7: worm B1, health 77", "d4: poison mine", "e5: oil drum", "f6: health crate",
                 "h8: donor card", "g7: bubble (2 rounds left)", "Wind: 2 E", "Water level: 1",
                 "Sudden death in 6 rounds", "Turn order", "▶ B Bo", "A Ann"):
        assert text in svg, text
    assert "wind E strength 2" in svg  # the arrow


def test_team_colours_are_the_headgear_colours():
    svg = board_svg(position())
    assert 'fill="#d62728"' in svg and 'fill="#1f77b4"' in svg


def test_sudden_death_and_calm_wind_are_shown():
    svg = board_svg(position(sudden_death=True, wind={"direction": None, "strength": 0}))
    assert "SUDDEN DEATH" in svg and "Wind: 0 (calm)" in svg


def test_names_are_escaped():
    svg = board_svg(position(teams=[{"seat": 1, "letter": "A", "name": "<script>", "inventory": None},
                                    {"seat": 2, "letter": "B", "name": "Bo", "inventory": None}]))
    assert "<script>" not in svg and "&lt;script&gt;" in svg


def test_the_png_is_the_same_picture_at_twice_the_size():
    image = Image.open(io.BytesIO(board_png(position())))
    assert image.format == "PNG" and image.size == (WIDTH * 2, HEIGHT * 2)
    x, y = (22 + 0 * 36 + 18) * 2, (22 + 0 * 36 + 18) * 2
    assert image.getpixel((x, y)) == (0x3A, 0x7B, 0xD5)  # a1 is water blue
