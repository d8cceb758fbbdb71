"""docs/adding-a-ruleset.md cannot go stale: every code block it shows from the worked
example (Nim, ``tests/rulesets/nim/``) is in that file word for word, and Nim, registered
with one setting and nothing else, is opened, joined, played to its end, verified and
replayed through the generic API and the generic pages, the way the guide says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from referee import services
from referee.models import Game
from tests.factories import ModeratorFactory, UserFactory, api_client

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "adding-a-ruleset.md"
#: a block the guide shows from a file: <!-- from PATH --> then a fenced block
SHOWN = re.compile(r"<!-- from (\S+) -->\n```[a-z]*\n(.*?)\n```", re.S)


def test_every_block_the_guide_shows_from_the_example_is_in_that_file_word_for_word():
    shown = SHOWN.findall(GUIDE.read_text(encoding="utf-8"))
    assert {path for path, _ in shown} >= {"tests/rulesets/nim/__init__.py", "tests/rulesets/nim/rules.py",
                                           "tests/rulesets/nim/notation.py"}
    for path, block in shown:
        assert block in (ROOT / path).read_text(encoding="utf-8"), f"the guide's block from {path} is stale"


def test_the_guides_package_layout_is_the_examples():
    text = GUIDE.read_text(encoding="utf-8")
    for name in ("__init__.py", "rules.py", "notation.py"):
        assert (ROOT / "tests" / "rulesets" / "nim" / name).is_file()
        assert name in text


@pytest.mark.django_db
def test_nim_plays_through_the_generic_api_as_the_guide_says():
    ann, bob, mod = UserFactory(), UserFactory(), ModeratorFactory()
    listed = {r["name"]: r for r in api_client().get("/api/rulesets/").json()}
    assert listed["nim"]["orders"] == ["Take", "PassTurn"]
    assert listed["nim"]["deadline_policies"] == ["pass"]
    created = api_client(ann).post("/api/games/", {"name": "Nim", "ruleset": "nim", "seats": 2,
                                                   "settings": {"stones": 7, "most": 3}}, format="json")
    assert created.status_code == 201, created.json()
    game = created.json()["id"]
    clients = {}
    for number, (user, name) in enumerate(((ann, "Ann"), (bob, "Bob")), start=1):
        assert api_client(user).post(f"/api/games/{game}/join/", {"name": name}, format="json").status_code == 201
        clients[number] = api_client(user)
    services.game_run_pending(game_id=game)  # after joining: on_commit does not fire in a test's transaction
    refused = clients[1].post(f"/api/games/{game}/commands/", {"type": "Take", "payload": {"count": 4}},
                              format="json")
    assert refused.status_code == 400 and refused.json()["rule"] == "take", refused.json()
    for count in (3, 3, 1):  # 7 stones: Ann 3, Bob 3, Ann takes the last
        seat = api_client().get(f"/api/games/{game}/").json()["clock"]["waiting_for"][0]
        response = clients[seat].post(f"/api/games/{game}/commands/", {"type": "Take", "payload": {"count": count}},
                                      format="json")
        assert response.status_code == 201, response.json()
        services.game_run_pending(game_id=game)  # after each order, for the same reason
    detail = api_client().get(f"/api/games/{game}/").json()
    assert detail["status"] == "finished" and detail["result"]["winners"] == [1]
    assert clients[2].get(f"/api/games/{game}/state/").json()["position"]["stones"] == 0
    assert api_client(mod).post(f"/api/games/{game}/verify/").json()["ok"]
    assert api_client(ann).get(f"/api/games/{game}/replay/").json()["steps"]


@pytest.mark.django_db
def test_nim_plays_through_the_generic_pages_as_the_guide_says():
    ann, bob = UserFactory(), UserFactory()
    pages = {}
    for user in (ann, bob):
        pages[user] = Client()
        pages[user].force_login(user)
    response = pages[ann].post("/games/new/", {"ruleset": "nim", "name": "Nim at noon", "players": "2",
                                               "turn_limit_minutes": "1440"})
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(name="Nim at noon")
    for user, name in ((ann, "Ann"), (bob, "Bob")):
        assert pages[user].post(f"/games/{game.pk}/join/", {"name": name}).status_code in (200, 302)
    services.game_run_pending(game_id=str(game.pk))
    html = pages[ann].get(f"/games/{game.pk}/").content.decode()
    assert "Nim at noon" in html and "Take" in html  # the view drawn plainly, a form per order
    for user, count in ((ann, 3), (bob, 3), (ann, 3), (bob, 3), (ann, 3)):  # 15 stones
        html = pages[user].post(f"/games/{game.pk}/order/", {"command_type": "Take", "field-count": str(count)},
                                follow=True).content.decode()
        assert "Order given: Take." in html, html[:3000]
        services.game_run_pending(game_id=str(game.pk))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert "<strong>Game over.</strong>" in Client().get(f"/games/{game.pk}/").content.decode()
