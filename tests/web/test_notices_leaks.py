"""Nothing secret reaches a game's channel, or another seat's: the notices of two
positions that differ only in seat 2's inventory (and the crates' contents) are identical
for the game's channel and for every other seat."""

from __future__ import annotations

import pytest

from notices.render import render
from referee.core import Referee
from tests.web.test_forum_export_and_leaks import _referee, variants

pytestmark = pytest.mark.django_db


def _notices(table, monkeypatch, variant, seat):
    real = Referee.state_at
    last_seq = _referee().store.last_seq(str(table.game.pk))

    def state_at(self, game_id, seq, _variant=variant, _last=last_seq):
        state, last = real(self, game_id, seq)
        return (_variant if seq is None or seq >= _last else state), last

    monkeypatch.setattr(Referee, "state_at", state_at)
    return [render(notice=n, game_id=str(table.game.pk), seat=seat, markup=m)
            for n in ("turn", "remind", "over", "correction") for m in ("markdown", "bbcode")]


@pytest.mark.parametrize("who", ["game channel", "third seat"])
def test_a_notice_is_identical_when_only_another_seats_secret_differs(table, monkeypatch, who):
    owner = table.seats[1]
    seat = None if who == "game channel" else next(s for s in table.seats if s.number != owner.number).number
    a, b = variants(table, owner)
    assert _notices(table, monkeypatch, a, seat) == _notices(table, monkeypatch, b, seat)


def test_a_games_channel_posts_the_public_forum_export(table):
    from django.test import Client

    text = Client().get(f"/games/{table.game.pk}/forum/?format=txt").content.decode()
    notice = render(notice="turn", game_id=str(table.game.pk), seat=None, markup="bbcode")
    assert notice.data["post"] == text.strip() or notice.data["post"] == text
    markdown = render(notice="turn", game_id=str(table.game.pk), seat=None, markup="markdown").text
    assert "[b]" not in markdown and f"**{table.game.name}**" in markdown
