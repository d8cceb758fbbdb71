"""Wormlord's page plug-in (game_pages/wormlord) through Django's test client: the board
drawn from the viewer's view with its forms, a click that conquers or liberates, refusals
told with their rule, the live fragment the page re-fetches, events in plain words."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.test import Client

from frontend_templates.plugins import pages_for
from game_pages.wormlord.board_svg import actions
from game_pages.wormlord.pages import WormlordPages
from game_pages.wormlord.views import order_for
from referee import lobby, services
from referee.models import Event
from tests.factories import UserFactory
from tests.web.conftest import Table

pytestmark = pytest.mark.django_db
T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def now(tmp_path, monkeypatch, settings):
    """The injected clock (referee/clock.py): ``now.at(seconds)`` moves it to T0 + seconds."""
    path = tmp_path / "clock"
    monkeypatch.setenv("REFEREE_CLOCK_FILE", str(path))
    settings.REFEREE_OUTAGE_SECONDS = 10**9
    from referee.clock import set_fake_now

    class Clock:
        def at(self, seconds: float) -> None:
            set_fake_now(path, T0 + dt.timedelta(seconds=seconds))

    clock = Clock()
    clock.at(0)
    return clock


def wormlord_table(**settings) -> Table:
    game = services.game_create(name="Knots at noon", ruleset="wormlord", seats=2,
                                settings={"knot_interval_ms": 1000, "countdown_ms": 3000, **settings})
    seats = [lobby.game_join(game_id=str(game.pk), user=UserFactory(), name=n) for n in ("Ann", "Bo")]
    services.game_run_pending(game_id=str(game.pk))  # round 1 is set up (on_commit waits in a test)
    game.refresh_from_db()
    return Table(game, seats)


@pytest.fixture
def table(now) -> Table:
    return wormlord_table()


def act(table: Table, seat, follow: bool = True, **fields) -> str:
    response = table.client(seat).post(f"/games/{table.game.pk}/wormlord/act/", fields, follow=follow)
    assert response.status_code == 200
    return response.content.decode()


def clicked(table: Table, seat, **fields) -> dict:
    """What the page's script gets back for a click (no reload)."""
    response = table.client(seat).post(f"/games/{table.game.pk}/wormlord/act/", fields,
                                       HTTP_ACCEPT="application/json")
    return {"status": response.status_code, **json.loads(response.content)}


def page(table: Table, seat=None) -> str:
    client = table.client(seat) if seat else Client()
    response = client.get(f"/games/{table.game.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_plug_in_is_registered_for_wormlord():
    assert isinstance(pages_for("wormlord"), WormlordPages)


def test_the_page_draws_the_board_from_the_viewers_view_with_its_forms(table):
    ann = table.seats[0]
    html = page(table, ann)
    assert 'class="board wormlord"' in html
    assert html.count('class="space') == 49
    assert 'data-square="d4" data-terrain="objective"' in html
    assert 'data-square="b2" data-terrain="impassable"' in html
    assert "d1, pink&#x27;s base" in html and "d7, blue&#x27;s base" in html
    assert "You play <strong>pink</strong>" in html
    assert f'action="/games/{table.game.pk}/wormlord/act/"' in html
    assert 'name="square"' in html and 'name="do" value="hq"' in html and 'id="wl-lift"' in html
    # what a click would do, for pink: the spaces next to its base
    assert 'data-square="d2" data-terrain="plain" data-action="conquer"' in html
    # live: the stream (or long-poll) URL and the fragment route
    assert f'data-live-url="/games/{table.game.pk}/wormlord/live/"' in html
    assert f'data-events-url="/api/games/{table.game.pk}/events/"' in html
    # the synchronised start is counted down in the browser from starts_at_ms
    starts_ms = int((T0 + dt.timedelta(seconds=3)).timestamp() * 1000)
    assert f'data-starts="{starts_ms}"' in html
    assert ("Round 1 is set up: 3, 2, 1, NOW! at 12:00:03.0 UTC; the round ends at 12:03:03.0 UTC (§7.2)."
            in html)  # every refereed round has its clock (WL-R10)


def test_a_spectator_sees_the_board_but_no_forms(table):
    html = page(table)
    assert 'class="board wormlord"' in html
    assert 'id="wl-act"' not in html
    assert 'data-action=' not in html


def test_a_click_on_an_empty_space_conquers_it(table, now):
    ann = table.seats[0]
    now.at(4)
    html = act(table, ann, do="knot", square="d2")
    assert "Ann (pink) took d2." in html
    assert 'data-square="d2" data-terrain="plain" data-knot="pink"' in html
    assert table.position()["squares"][3 * 0 + 1 * 7 + 3]["knot"]["colour"] == "pink"  # d2


def test_a_click_posted_by_the_script_answers_in_json_without_a_reload(table, now):
    ann = table.seats[0]
    now.at(4)
    answer = clicked(table, ann, do="knot", square="d2", key="k1")
    assert answer["ok"] is True and answer["status"] == 200
    assert "Ann (pink) took d2." in [m["text"] for m in answer["messages"]]


def test_a_knot_before_now_is_refused_with_the_rule(table, now):
    now.at(1)
    html = act(table, table.seats[0], do="knot", square="d2")
    assert "Refused:" in html and "(rule §3.1)" in html


def test_a_space_not_next_to_yours_is_refused_with_the_rule(table, now):
    now.at(4)
    answer = clicked(table, table.seats[0], do="knot", square="d5")
    assert answer["ok"] is False and answer["status"] == 409
    text = answer["messages"][0]["text"]
    assert text.startswith("Refused:") and "(rule §3.2)" in text


def test_the_knot_interval_is_told_with_the_wait(table, now):
    ann = table.seats[0]
    now.at(4)
    act(table, ann, do="knot", square="d2")
    now.at(4.5)
    html = act(table, ann, do="knot", square="d3")
    assert "Refused: Your next knot is not tied yet" in html and "(rule §3.3)" in html


def test_liberating_and_the_headquarters_through_the_page(table, now):
    ann, bo = table.seats
    t = 4.0
    for seat, square in ((ann, "d2"), (bo, "d6"), (ann, "d3"), (bo, "d5"), (bo, "d4")):
        now.at(t)
        act(table, seat, do="knot", square=square)
        t += 1.1 if seat is bo else 0.0
    now.at(t + 2)
    html = act(table, bo, do="knot", square="d3", owner="pink")
    assert "Bo (blue) liberated d3 from pink: the string goes back to pink&#x27;s supply." in html
    html = act(table, bo, do="hq", square="d5")
    assert "Bo (blue) put the headquarters on d5" in html
    assert 'data-square="d5"' in html and "blue headquarters" in html
    html = act(table, bo, do="lift")
    assert "Bo (blue) took the headquarters off d5." in html


def test_liberating_a_space_that_changed_since_it_was_seen_is_refused_with_the_rule(table, now):
    ann, bo = table.seats
    t = 4.0
    for seat, square in ((ann, "d2"), (bo, "d6"), (bo, "d5"), (bo, "d4")):
        now.at(t)
        act(table, seat, do="knot", square=square)
        t += 1.1
    now.at(t)
    html = act(table, ann, do="knot", square="d3", owner="blue")
    assert "Refused: There is no knot on d3 to liberate" in html and "(rule §3.2)" in html


def test_the_live_fragment_is_the_board_for_this_viewer_with_the_latest_events(table, now):
    ann = table.seats[0]
    now.at(4)
    act(table, ann, do="knot", square="d2")
    response = table.client(ann).get(f"/games/{table.game.pk}/wormlord/live/")
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="wl-live"')
    assert 'class="board wormlord"' in html and 'data-action="conquer"' in html
    assert "Ann (pink) took d2." in html
    assert f'data-server-now="{int((T0 + dt.timedelta(seconds=4)).timestamp() * 1000)}"' in html
    spectator = Client().get(f"/games/{table.game.pk}/wormlord/live/").content.decode()
    assert "Ann (pink) took d2." in spectator and "data-action=" not in spectator


def test_the_live_fragment_of_a_game_not_started_is_not_found(now):
    game = services.game_create(name="Later", ruleset="wormlord", seats=2, settings={})
    assert Client().get(f"/games/{game.pk}/wormlord/live/").status_code == 404


def test_the_log_and_the_replay_use_plain_words(table, now):
    ann = table.seats[0]
    now.at(4)
    act(table, ann, do="knot", square="d2")
    html = page(table, ann)
    assert "The board is set up (standard-2): Pink (Ann) with its base on d1" in html
    seq = Event.objects.filter(game=table.game).count()
    replay = Client().get(f"/games/{table.game.pk}/replay/?step={seq}")
    assert replay.status_code == 200


def test_a_posted_action_becomes_the_ruleset_order():
    assert order_for({"do": "knot", "square": " D2 "}) == ("Conquer", {"square": "d2"})
    assert order_for({"do": "knot", "square": "d3", "owner": "Blue"}) == (
        "Liberate", {"square": "d3", "owner": "blue"})
    assert order_for({"do": "hq", "square": "c2"}) == ("PlaceHeadquarters", {"square": "c2"})
    assert order_for({"do": "lift"}) == ("LiftHeadquarters", {})
    assert order_for({"do": "say", "text": "go left"}) == ("Say", {"text": "go left"})
    assert isinstance(order_for({"do": "knot"}), str)


def test_what_a_click_means_follows_the_view():
    squares = [{"square": f"{c}{r}", "terrain": "plain", "knot": None, "hq": None, "base": None}
               for r in range(1, 8) for c in "abcdefg"]
    by = {s["square"]: s for s in squares}
    by["d1"].update(terrain="base", base="pink")
    by["d2"]["knot"] = {"colour": "pink", "seat": 1, "at_ms": 0}
    by["d3"]["knot"] = {"colour": "blue", "seat": 2, "at_ms": 0}
    by["c2"]["knot"] = {"colour": "blue", "seat": 2, "at_ms": 0}
    by["c2"]["hq"] = "blue"
    todo = actions({"squares": squares}, "pink")
    assert todo["d2"] == "hq" and todo["d3"] == "liberate" and todo["e1"] == "conquer"
    assert "c2" not in todo  # a headquarters makes it indisputable (§5)
    assert "d5" not in todo


def test_what_a_team_says_is_shown_to_the_team_only(now):
    game = services.game_create(name="Teams", ruleset="wormlord", seats=4,
                                settings={"teams": True, "countdown_ms": 0, "knot_interval_ms": 1000})
    seats = [lobby.game_join(game_id=str(game.pk), user=UserFactory(), name=n) for n in ("Ann", "Al", "Bo", "Bea")]
    services.game_run_pending(game_id=str(game.pk))
    game.refresh_from_db()
    table = Table(game, seats)
    now.at(1)
    html = act(table, seats[0], do="say", text="take the middle")
    assert 'id="wl-say"' in html
    assert "take the middle" in page(table, seats[1])  # the teammate
    fragment = f"/games/{game.pk}/wormlord/live/"
    assert "take the middle" in table.client(seats[1]).get(fragment).content.decode()
    for other in (seats[2], seats[3]):
        assert "take the middle" not in page(table, other)
        assert "take the middle" not in table.client(other).get(fragment).content.decode()
    assert "take the middle" not in page(table) and "take the middle" not in Client().get(fragment).content.decode()
