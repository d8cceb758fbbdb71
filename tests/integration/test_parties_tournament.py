"""A whole Parties tournament the way it is run for real: ``manage.py tournament`` starts a
server (``runserver``) and a Celery worker on the test database and Redis, eight bot
processes (``clients.parties_bot``) join over HTTP and play 2-second ticks on a small map
until the game ends (``max_ticks`` guarantees it), then the log is verified through the
API as a moderator and the ranking printed with its trophies."""

from __future__ import annotations

import json
import os
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from referee import services
from referee.models import Event, Game

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


@pytest.mark.django_db
def test_the_tournament_refuses_other_hosts_and_too_many_bots():
    """(Also makes pytest-django create the test database for the committed test below.)"""
    with pytest.raises(CommandError, match="2 to 8 bots"):
        call_command("tournament", bots=9, stdout=StringIO())
    with pytest.raises(CommandError, match="loopback"):
        call_command("tournament", url="http://example.org", stdout=StringIO())
    with pytest.raises(CommandError, match="2 seconds to 48 hours"):
        call_command("tournament", tick_seconds=1, stdout=StringIO())


def test_eight_bot_processes_play_a_whole_game_over_http_and_the_log_verifies(committed, monkeypatch):
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "tests.settings")
    monkeypatch.delenv("REFEREE_CLOCK_FILE", raising=False)
    out = StringIO()
    call_command("tournament", bots=8, width=8, height=8, obstacle_percent=10, tick_seconds=2, max_ticks=40,
                 timeout=150, broker=os.environ["REDIS_URL"], policies="always,always,lead,follow,always,never",
                 json=True, stdout=out)
    text = out.getvalue()
    outcome = json.loads(text.strip().splitlines()[-1])
    assert outcome["status"] == "finished", text
    assert outcome["verified"] is True, text
    assert outcome["bot_exit_codes"] == [0] * 8, text
    assert outcome["end_reason"] in ("united", "tick cap")
    assert sorted(s for place in outcome["ranking"] for s in place) == list(range(1, 9))
    for trophy, place in (("🥇", "1st"), ("🥈", "2nd"), ("🥉", "3rd")):
        assert any(line.strip().startswith(f"{trophy}  {place}") for line in text.splitlines()), text
    scores = [row["score"] for row in outcome["standings"]]
    assert scores == sorted(scores, reverse=True)  # ranked by score (§ Game Conclusion)
    game = Game.objects.get(pk=outcome["game"])
    assert game.status == Game.Status.FINISHED
    assert services.referee_get().verify(str(game.pk)).ok  # and the referee agrees directly
    events = Event.objects.filter(game=game)
    # the bots really chose moves (players' orders), and the ticks were run by the worker
    assert events.filter(type="MoveChosen").count() >= 8
    assert events.filter(type="TickStarted").count() == outcome["ticks"]
    assert events.filter(type="GameEnded").count() == 1
