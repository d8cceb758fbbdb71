"""Parties' pages (game_pages.parties): the arena drawn from the viewer's view, the live
fragment, a human seat's moves and ally policy through the page, the trophies at the end,
the replay, and nothing of another bot's secret (its chosen move, its ally policy) on any
page a seat or a spectator gets."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.test import Client

from games.base import MODERATOR_VIEW, Viewer
from games.parties import RULESET
from referee import lobby, selectors, services
from referee.core import Referee
from tests.factories import ModeratorFactory, UserFactory

pytestmark = [pytest.mark.django_db]

SMALL = {"width": 8, "height": 8, "obstacle_percent": 10, "tick_seconds": 60, "max_ticks": 30}


class Arena:
    def __init__(self, players: int = 3, **settings: int) -> None:
        self.users = [UserFactory() for _ in range(players)]
        self.game = services.game_create(name="Arena night", ruleset="parties", seats=players,
                                         settings={**SMALL, **settings}, created_by=ModeratorFactory())
        self.seats = [lobby.game_join(game_id=str(self.game.pk), user=u, name=f"Bot {n + 1}")
                      for n, u in enumerate(self.users)]
        services.game_run_pending(game_id=str(self.game.pk))  # tick 1 starts (no on_commit in a test)
        self.url = f"/games/{self.game.pk}/"

    def client(self, n: int) -> Client:
        c = Client()
        c.force_login(self.users[n - 1])
        return c

    def position(self, seat: int | None = None) -> dict:
        viewer = Viewer.for_seat(seat) if seat else MODERATOR_VIEW
        return selectors.game_state_get(game_id=str(self.game.pk), viewer=viewer)["position"]

    def move(self, n: int, direction: str = "stay") -> object:
        return self.client(n).post(self.url + "parties/move/", {"direction": direction,
                                                                "tick": self.position()["tick"]})


@pytest.fixture
def arena() -> Arena:
    return Arena()


def test_the_game_page_draws_the_arena_with_every_bot_its_strength_and_score(arena):
    html = arena.client(1).get(arena.url).content.decode()
    assert 'class="board parties"' in html and 'id="parties-board"' in html
    for bot in arena.position()["bots"]:
        assert f'data-seat="{bot["seat"]}" data-square="{bot["square"]}" data-strength="{bot["strength"]}"' in html
    terrain = "".join(arena.position()["terrain"])
    assert html.count('class="sq mountain"') == terrain.count("M")
    assert html.count('class="sq forest"') == terrain.count("F")
    assert 'Tick <strong id="tick">1</strong> of at most 30' in html
    assert "data-countdown" in html  # the tick's deadline
    assert f'data-live="/games/{arena.game.pk}/parties/live/"' in html
    assert f'data-stream="/api/games/{arena.game.pk}/stream/' in html


def test_a_seat_gets_nine_move_buttons_and_the_ally_policy_select(arena):
    html = arena.client(1).get(arena.url).content.decode()
    buttons = re.findall(r'data-direction="([A-Za-z]+)"', html)
    assert sorted(buttons) == sorted(["N", "NE", "E", "SE", "S", "SW", "W", "NW", "stay"])
    assert 'id="ally-policy"' in html and '<option value="always" selected>' in html


def test_a_spectator_sees_the_arena_live_but_no_move_buttons(arena):
    html = Client().get(arena.url).content.decode()
    assert 'class="board parties"' in html and "data-direction" not in html
    fragment = Client().get(arena.url + "parties/live/").content.decode()
    assert 'id="parties-board"' in fragment and 'id="parties-status"' in fragment
    assert 'id="parties-orders"' not in fragment


def test_the_board_fragment_carries_board_status_and_move_pad_for_a_seat(arena):
    fragment = arena.client(2).get(arena.url + "parties/live/").content.decode()
    for block in ("parties-board", "parties-status", "parties-orders"):
        assert f'id="{block}"' in fragment
    assert "<html" not in fragment  # a fragment, not a page


def test_a_move_through_the_page_is_the_seats_secret_until_the_tick_closes(arena):
    response = arena.move(1, "stay")
    assert response.status_code == 302
    assert arena.position(1)["pending"] == {"1": "stay"}
    assert arena.position(2)["pending"] == {}
    mine = arena.client(1).get(arena.url + "parties/live/").content.decode()
    assert 'Your move this tick: <strong id="chosen">stay</strong>' in mine
    other = arena.client(2).get(arena.url + "parties/live/").content.decode()
    assert 'id="chosen"' not in other


def test_the_last_move_closes_the_tick_and_the_story_is_told(arena):
    for n in (1, 2, 3):
        arena.move(n, "stay")
    assert arena.position()["tick"] == 2
    html = arena.client(1).get(arena.url).content.decode()
    assert "Tick 1 closed because every bot had moved" in html


def test_a_refused_move_names_its_rule(arena):
    client = arena.client(1)
    response = client.post(arena.url + "parties/move/", {"direction": "stay", "tick": 7}, follow=True)
    assert "Refused: This is tick 1, not tick 7. (rule tick)" in response.content.decode()


def test_the_ally_policy_is_set_through_the_page_and_shown_only_to_its_bot(arena):
    response = arena.client(1).post(arena.url + "parties/ally/", {"policy": "never"}, follow=True)
    assert "From now on you never ally" in response.content.decode()
    assert '<option value="never" selected>' in arena.client(1).get(arena.url).content.decode()
    assert next(b for b in arena.position(1)["bots"] if b["seat"] == 1)["ally_policy"] == "never"
    assert "ally_policy" not in next(b for b in arena.position(2)["bots"] if b["seat"] == 1)


def test_trophies_for_first_second_and_third_at_the_end():
    arena = Arena(players=4, max_ticks=1)
    for n in (1, 2, 3, 4):
        arena.move(n, "stay")
    assert arena.position()["finished"]
    html = Client().get(arena.url).content.decode()
    assert html.count('class="trophy ') == min(3, len(arena.position()["ranking"]))
    for place in ("1st", "2nd", "3rd")[: len(arena.position()["ranking"])]:
        assert f'data-place="{place}"' in html
    result = Client().get(arena.url + "parties/result/").content.decode()
    assert "1st place" in result and "Full ranking" in result
    summary = selectors.game_result_get(game_id=str(arena.game.pk))["summary"]
    assert summary.split(".")[0] in result


def test_the_replay_draws_the_arena_and_narrates_with_seat_names(arena):
    for n in (1, 2, 3):
        arena.move(n, "stay")
    first = Client().get(arena.url + "replay/?step=1").content.decode()
    assert "The arena is 8 x 8 squares; Bot 1 on" in first and 'class="board parties"' in first
    last = Client().get(arena.url + "replay/").content.decode()
    assert "Tick 1 closed because every bot had moved: Bot 1 stay, Bot 2 stay, Bot 3 stay." in last
    assert 'id="parties-board"' in last and "data-live" not in last  # no live updates in a replay


def test_a_battle_is_narrated_bout_by_bout_with_its_d20_rolls():
    from game_pages.parties.narrate import narrate

    record = {"kind": "event", "type": "BattleFought", "payload": {
        "sides": [[1, 4], [2]], "cause": "refused to join",
        "bouts": [{"number": 1, "rolls": [14, 3], "scores": [322, 45], "winner": 1},
                  {"number": 2, "rolls": [5, 5], "scores": [115, 75], "winner": 1},
                  {"number": 3, "rolls": [2, 19], "scores": [46, 285], "winner": 2}],
        "winner": 1, "loser": 2, "awards": [[1, 2], [4, 1], [2, -1]], "absorbed": [],
        "respawn_x": 2, "respawn_y": 3}}
    text = narrate(record, {1: "Ann", 2: "Bob", 4: "Dee"})
    assert "between the party of Ann (2 bots) and Bob" in text
    assert "bout 1: D20 14 → 32.2 against D20 3 → 4.5, Ann wins it" in text
    assert "bout 3: D20 2 → 4.6 against D20 19 → 28.5, Bob wins it" in text
    assert "scores Ann +2, Dee +1, Bob -1 (§2.3); Bob respawns on c4 (§2.4)" in text


# --- leaks ---------------------------------------------------------------------------------------


def _without_tokens(html: bytes) -> str:
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html.decode())
    return re.sub(r'name="key" value="[0-9a-f]+-', 'name="key" value="', text)


def _pages_with(arena: Arena, monkeypatch, variants, viewer: Client, path: str) -> list[str]:
    real = Referee.state_at
    last_seq = services.referee_get().store.last_seq(str(arena.game.pk))
    pages = []
    for variant in variants:
        def state_at(self, game_id, seq, _variant=variant, _last=last_seq):
            state, last = real(self, game_id, seq)
            return (_variant if seq is None or seq >= _last else state), last

        monkeypatch.setattr(Referee, "state_at", state_at)
        pages.append(_without_tokens(viewer.get(arena.url + path).content))
    return pages


def secret_variants(arena: Arena) -> tuple:
    """Bot 1 has chosen a move and has an ally policy: two positions differing only there."""
    arena.move(1, "stay")
    state, _ = Referee.state_at(services.referee_get(), str(arena.game.pk), None)

    def secret(direction: str, policy: str):
        bots = tuple(replace(b, ally=policy) if b.seat == 1 else b for b in state.bots)
        return replace(state, bots=bots, pending=((1, direction),))

    return secret("stay", "always"), secret("NE", "never")


@pytest.mark.parametrize("path", ["", "parties/live/", "board.svg", "replay/"])
@pytest.mark.parametrize("who", ["other seat", "spectator"])
def test_another_bots_chosen_move_and_ally_policy_leave_no_trace_on_any_page(arena, monkeypatch, path, who):
    a, b = secret_variants(arena)
    viewer = arena.client(2) if who == "other seat" else Client()
    pages = _pages_with(arena, monkeypatch, (a, b), viewer, path)
    assert pages[0] == pages[1]
    assert RULESET.view(a, MODERATOR_VIEW) != RULESET.view(b, MODERATOR_VIEW)


def test_the_bot_itself_sees_its_own_move_and_policy(arena, monkeypatch):
    a, b = secret_variants(arena)
    pages = _pages_with(arena, monkeypatch, (a, b), arena.client(1), "parties/live/")
    assert pages[0] != pages[1]
    assert 'id="chosen">north-east' in pages[1] and '<option value="never" selected>' in pages[1]
