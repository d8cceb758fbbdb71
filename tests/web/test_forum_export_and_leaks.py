"""The forum export (PNG and BBCode) is public-only, and nothing a third seat is shown
depends on a secret: two positions that differ only in another team's inventory (and
the crates' contents) give byte-identical pages, SVG, PNG and BBCode."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.test import Client

from game_pages.worms import ui
from game_pages.worms.bbcode import forum_post
from game_pages.worms.board_png import board_png
from game_pages.worms.board_scene import Highlights
from game_pages.worms.board_svg import board_svg
from games.base import MODERATOR_VIEW, PUBLIC, Viewer
from games.worms.rules import RULESET
from games.worms.state import Stock
from referee import selectors
from referee.core import Referee

pytestmark = pytest.mark.django_db

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_the_forum_png_is_a_png_anyone_can_fetch(table):
    response = Client().get(f"/games/{table.game.pk}/board.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert response.content.startswith(PNG_MAGIC)


def test_the_forum_post_has_the_summary_whose_turn_and_the_deadline(table):
    response = Client().get(f"/games/{table.game.pk}/forum/")
    html = response.content.decode()
    assert '<textarea class="code" id="bbcode" readonly>' in html
    text = Client().get(f"/games/{table.game.pk}/forum/?format=txt").content.decode()
    assert text.startswith(f"[b]{table.game.name}[/b]")
    assert "[b]What happened[/b]" in text and "[b]Damage[/b]" in text and "[b]Deaths[/b]" in text
    assert f"[b]Next to play[/b]: {table.seat_to_act().name}" in text
    assert re.search(r"\[b\]Deadline\[/b\]: \w{3} \d{1,2} \w{3} 20\d\d, \d\d:\d\d UTC", text), text  # readable
    # the picture of this moment under the configured public address, frozen at its public record
    public = selectors.viewer_log_position(game_id=str(table.game.pk), viewer=PUBLIC)
    assert f"[img]http://127.0.0.1:8000/games/{table.game.pk}/board.png?seq={public}[/img]" in text


def test_the_forum_export_is_the_same_whoever_asks(table, moderator_client):
    url = f"/games/{table.game.pk}/forum/?format=txt"
    public = Client().get(url).content
    assert table.client(table.seat_to_act()).get(url).content == public
    assert moderator_client.get(url).content == public
    png = Client().get(f"/games/{table.game.pk}/board.png").content
    assert table.client(table.seats[0]).get(f"/games/{table.game.pk}/board.png").content == png


def test_bbcode_reports_damage_and_deaths():
    position = {"teams": [{"seat": 1, "letter": "A", "name": "Ann"}, {"seat": 2, "letter": "B", "name": "Bo"}],
                "round": 2, "turn": 3, "seat": 2, "phase": "playing", "wind": {"strength": 1, "direction": "E"},
                "water": 1}
    records = [
        {"kind": "event", "type": "TurnStarted", "payload": {"turn": 3, "seat": 1}},
        {"kind": "event", "type": "WeaponFired", "payload": {"worm": "A1", "weapon": "bazooka", "target": "c4"}},
        {"kind": "event", "type": "WormDamaged", "payload": {"worm": "B2", "amount": 50, "health": 0, "cause": "bazooka"}},
        {"kind": "event", "type": "WormDied", "payload": {"worm": "B2", "cause": "health"}},
        {"kind": "event", "type": "TurnEnded", "payload": {"turn": 3, "seat": 1, "reason": "ended", "next_seat": 2}},
    ]
    text = forum_post(game_name="G", position=position, records=records, deadline="2026-12-02T10:00:00+00:00")
    assert "A1 fired the Bazooka at c4" in text
    assert "[*]B2: -50 (the bazooka), health 0" in text
    assert "[*]B2 (health)" in text
    assert "[b]Next to play[/b]: Bo" in text and "Wed 2 Dec 2026, 10:00 UTC" in text


# --- leaks ---------------------------------------------------------------------------------------


def variants(table, owner=None):
    """The current true state, and the same with the owner's (default: seat 2's) inventory
    and every crate's contents changed: only secrets differ."""
    state, _ = Referee.state_at(_referee(), str(table.game.pk), None)
    second = (owner or table.seats[1]).number

    def secret(inventory, crates):
        teams = tuple(replace(t, inventory=inventory) if t.seat == second else t for t in state.teams)
        return replace(state, teams=teams, crates=tuple(replace(c, contents=crates) for c in state.crates))

    a = secret((Stock("handgun", None), Stock("minigun", 1)), (Stock("bazooka", 3),))
    b = secret((Stock("handgun", None), Stock("holy_hand_grenade", 1), Stock("sheep", 2)), (Stock("teleport", 1),))
    return a, b


def _referee():
    from referee import services

    return services.referee_get()


def test_the_board_pictures_of_two_positions_differing_in_a_secret_are_identical_for_a_third_seat(table):
    a, b = variants(table)
    third = Viewer.for_seat(table.seats[2].number)
    view_a, view_b = RULESET.view(a, third), RULESET.view(b, third)
    assert board_svg(view_a) == board_svg(view_b)
    assert board_png(RULESET.view(a, PUBLIC)) == board_png(RULESET.view(b, PUBLIC))
    worm = next(w for w in view_a["worms"] if w["seat"] == table.seats[2].number)["id"]
    hl_a = Highlights(worm, ui.reach(view_a, worm), ui.aim_window(view_a, worm, "handgun").targets)
    hl_b = Highlights(worm, ui.reach(view_b, worm), ui.aim_window(view_b, worm, "handgun").targets)
    assert board_svg(view_a, hl_a) == board_svg(view_b, hl_b)


def _without_tokens(html: bytes) -> str:
    """The page less what is fresh on every request (CSRF tokens, idempotency keys)."""
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html.decode("latin-1"))
    return re.sub(r'name="key" value="[0-9a-f]+-', 'name="key" value="', text)


@pytest.mark.parametrize("viewer_acts", [True, False], ids=["viewer-to-act", "viewer-waiting"])
@pytest.mark.parametrize("path", ["", "aiming", "board.svg", "board.png", "forum/?format=txt", "forum/", "replay/"])
def test_every_page_a_third_seat_sees_is_identical_when_only_a_secret_differs(table, monkeypatch, path, viewer_acts):
    acting = table.seat_to_act()
    viewer = acting if viewer_acts else table.other_seats()[0]
    owner = next(s for s in table.seats if s.number != viewer.number)
    a, b = variants(table, owner)
    third = table.client(viewer)
    if path == "aiming":  # the controls: a worm picked, its reach, a weapon's targets
        worm = next(w["id"] for w in table.position(viewer)["worms"] if w["seat"] == viewer.number)
        path = f"?worm={worm}&weapon=handgun"
    url = f"/games/{table.game.pk}/{path}"
    real = Referee.state_at
    last_seq = _referee().store.last_seq(str(table.game.pk))
    pages = []
    for variant in (a, b):
        def state_at(self, game_id, seq, _variant=variant, _last=last_seq):
            state, last = real(self, game_id, seq)
            return (_variant if seq is None or seq >= _last else state), last

        monkeypatch.setattr(Referee, "state_at", state_at)
        pages.append(_without_tokens(third.get(url).content))
    assert pages[0] == pages[1]
    # and the secret really differs underneath: the moderator's view tells them apart
    assert RULESET.view(a, MODERATOR_VIEW) != RULESET.view(b, MODERATOR_VIEW)


def test_the_seat_itself_does_see_its_own_secret(table, monkeypatch):
    a, b = variants(table)
    owner = table.client(table.seats[1])
    real = Referee.state_at
    last_seq = _referee().store.last_seq(str(table.game.pk))
    pages = []
    for variant in (a, b):
        def state_at(self, game_id, seq, _variant=variant, _last=last_seq):
            state, last = real(self, game_id, seq)
            return (_variant if seq is None or seq >= _last else state), last

        monkeypatch.setattr(Referee, "state_at", state_at)
        pages.append(_without_tokens(owner.get(f"/games/{table.game.pk}/").content))
    assert pages[0] != pages[1]  # the harness can tell secrets apart
    assert "Holy Hand-Grenade" in pages[1] and "Holy Hand-Grenade" not in pages[0]
