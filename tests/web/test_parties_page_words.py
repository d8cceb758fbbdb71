"""What the Parties page says around a move: the move pad alone tells the seat's choice,
for the tick in play only (a flash of it would stay beside the next tick's pad on a live
page), and the tick's close reads as a phrase ("Closes in 8 s"), not a stopwatch."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from referee import lobby, services
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db]


def _started(name: str, max_ticks: int):
    """A two-bot game on an 8 x 8 arena, started, and each bot's player signed in."""
    game = services.game_create(name=name, ruleset="parties", seats=2, turn_limit_seconds=30,
                                settings={"width": 8, "height": 8, "max_ticks": max_ticks})
    clients = []
    for n in (1, 2):
        user = UserFactory()
        lobby.game_join(game_id=str(game.pk), user=user, name=f"Bot {n}")
        c = Client()
        c.force_login(user)
        clients.append(c)
    services.game_run_pending(game_id=str(game.pk))
    return game, clients


@pytest.fixture
def players():
    return _started("Words night", max_ticks=30)


def _messages(html: str) -> str:
    found = re.search(r'<ul class="messages".*?</ul>', html, re.S)
    return found.group(0) if found else ""


def test_a_move_is_told_by_the_pad_for_this_tick_and_not_flashed(players):
    game, (one, _) = players
    page = one.post(f"/games/{game.pk}/parties/move/", {"direction": "stay", "tick": "1"}, follow=True)
    html = page.content.decode()
    assert 'Your move this tick: <strong id="chosen">stay</strong>' in html
    assert "Your move" not in _messages(html) and "chose" not in _messages(html)


def test_after_the_tick_closes_the_pad_asks_for_the_next_move_and_nothing_repeats_the_old_one(players):
    game, (one, two) = players
    one.post(f"/games/{game.pk}/parties/move/", {"direction": "stay", "tick": "1"})
    two.post(f"/games/{game.pk}/parties/move/", {"direction": "stay", "tick": "1"})
    html = one.get(f"/games/{game.pk}/").content.decode()
    assert "Choose a move for tick 2" in html
    assert "Your move" not in html


def test_the_tick_closes_in_words_with_the_clock_time_as_the_fallback(players):
    game, (one, _) = players
    html = one.get(f"/games/{game.pk}/").content.decode()
    closes = re.search(r'<li id="tick-closes">Closes <time data-countdown="in" datetime="[^"]+">at '
                       r'(\d\d:\d\d:\d\d) UTC</time>', html)
    assert closes, html
    assert "30 s each" in html


def test_at_the_end_the_page_says_how_the_game_ended_in_words_without_bot_numbers():
    game, clients = _started("Short words", max_ticks=1)
    for c in clients:
        c.post(f"/games/{game.pk}/parties/move/", {"direction": "stay", "tick": "1"})
    html = clients[0].get(f"/games/{game.pk}/").content.decode()
    said = re.search(r'<p id="parties-result">(.*?)</p>', html)
    assert said, html
    assert said.group(1) in ("Game over: tick 1, the tick cap, was played (P-R5).",
                             "Game over: all bots are united in one party.")
