"""The generic pages, with Pig (tests/rulesets/pig.py): a ruleset that has no page
plug-in gets a lobby entry, a join page, its view drawn plainly, one form per order type
posted to the generic order URL, replay, audit and a forum post; and nothing a seat is
shown depends on another seat's secret (its private note)."""

from __future__ import annotations

import ast
import enum
import re
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from django.test import Client

from frontend_templates import generic_board, generic_forms
from frontend_templates.plugins import GENERIC, RulesetPages, pages_for
from games.base import MODERATOR_VIEW, Command
from referee import lobby, services
from referee.core import Referee
from referee.models import Game
from tests.factories import UserFactory
from tests.rulesets.pig import RULESET as PIG
from tests.web.conftest import Table

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def pig_table(target: int = 3, name: str = "Pig night") -> Table:
    game = services.game_create(name=name, ruleset="pig", seats=2, settings={"target": target})
    seats = [lobby.game_join(game_id=str(game.pk), user=UserFactory(), name=n) for n in ("Ann", "Bo")]
    services.game_run_pending(game_id=str(game.pk))
    game.refresh_from_db()
    return Table(game, seats)


def acting(table: Table):
    number = table.position()["to_act"][0]
    return next(s for s in table.seats if s.number == number)


def waiting(table: Table):
    number = table.position()["to_act"][0]
    return next(s for s in table.seats if s.number != number)


def order(table: Table, seat, command_type: str, **fields) -> str:
    data = {"command_type": command_type, **{f"field-{k}": v for k, v in fields.items()}}
    response = table.client(seat).post(f"/games/{table.game.pk}/order/", data, follow=True)
    assert response.status_code == 200
    return response.content.decode()


# --- the lobby, opening and joining ----------------------------------------------------------------


def test_a_ruleset_without_pages_can_be_chosen_when_opening_a_game():
    c = Client()
    c.force_login(UserFactory())
    html = c.get("/games/new/?ruleset=pig").content.decode()
    assert '<option value="pig" selected>Pig (core test ruleset)</option>' in html
    assert 'name="turn_limit_minutes"' in html  # Pig counts its turn limit in minutes
    assert 'min="1" max="10080"' in html  # TurnLimits(60 s .. 7 days)
    response = c.post("/games/new/", {"ruleset": "pig", "name": "Piggy", "players": "3", "turn_limit_minutes": "30"})
    assert response.status_code == 302 and response["Location"].endswith("/join/")
    game = Game.objects.get(name="Piggy")
    assert game.ruleset == "pig" and game.turn_limit_seconds == 30 * 60 and game.max_seats == 3
    assert "Piggy" in Client().get("/").content.decode()
    assert "30 minutes" in Client().get("/").content.decode()


def test_a_turn_limit_outside_the_rulesets_bounds_is_explained_in_its_unit():
    c = Client()
    c.force_login(UserFactory())
    response = c.post("/games/new/", {"ruleset": "pig", "name": "Slow pig", "players": "2",
                                      "turn_limit_minutes": "20000"})
    assert response.status_code == 400 and "1 to 10080 minutes" in response.content.decode()


def test_joining_a_game_without_a_signup_order_takes_just_a_name():
    game = services.game_create(name="Open pig", ruleset="pig", seats=2)
    c = Client()
    user = UserFactory()
    c.force_login(user)
    html = c.get(f"/games/{game.pk}/join/").content.decode()
    assert 'id="id_name"' in html and "Shopping list" not in html
    response = c.post(f"/games/{game.pk}/join/", {"name": "Ann"}, follow=True)
    assert "You joined Open pig." in response.content.decode()
    assert game.seats.get(user=user).signup_order is None


# --- the game page -----------------------------------------------------------------------------------


def test_the_game_page_draws_the_view_plainly_with_one_form_per_players_order_type():
    table = pig_table()
    html = table.client(acting(table)).get(f"/games/{table.game.pk}/").content.decode()
    assert '<div class="generic-board"' in html and "<dt>turn total</dt>" in html
    assert "pprint" not in html and "{&#x27;" not in html  # not a dump of the dict
    for command in ("Roll", "Hold", "WriteNote"):
        assert f'id="order-{command}"' in html, command
    assert 'id="order-StartTurn"' not in html  # the scheduler's order (given_by "referee") is not offered
    assert 'name="field-text"' in html and '<label for="order-WriteNote-text">Text</label>' in html
    assert "The game is waiting for you." in html
    assert f'<strong id="to-act">{acting(table).name}</strong>' in html


def test_a_spectator_gets_the_board_but_no_forms():
    table = pig_table()
    html = Client().get(f"/games/{table.game.pk}/").content.decode()
    assert '<div class="generic-board"' in html and 'id="play"' not in html


def test_rolling_and_holding_through_the_generic_order_url_plays_the_game_to_its_end():
    table = pig_table(target=3)
    for _ in range(60):
        if table.game.status == Game.Status.FINISHED:
            break
        seat = acting(table)
        turn = table.position()["turn"]
        html = order(table, seat, "Roll")
        assert "Order given: Roll." in html and "Die rolled: seat " in html
        if table.position()["turn"] == turn:  # not a 1: bank it
            html = order(table, seat, "Hold")
            assert "Order given: Hold." in html
        services.game_run_pending(game_id=str(table.game.pk))
        table.game.refresh_from_db()
    assert table.game.status == Game.Status.FINISHED
    winner = next(s for s in table.seats if s.number == table.position()["winner"])
    html = Client().get(f"/games/{table.game.pk}/").content.decode()
    assert "<strong>Game over.</strong>" in html and 'id="play"' not in html
    assert f'<strong id="winner">{winner.name}</strong>' in html  # from rules.result
    assert f"Won by {winner.name}." in table.client(winner).get("/my/").content.decode()
    assert "you won" in table.client(winner).get("/my/").content.decode()
    text = Client().get(f"/games/{table.game.pk}/forum/?format=txt").content.decode()
    assert f"[b]Game over[/b]: Won by {winner.name}." in text


def test_an_order_out_of_turn_is_refused_with_the_rule():
    table = pig_table()
    html = order(table, waiting(table), "Roll")
    assert "Refused: It is not your turn. (rule turn)" in html


def test_a_form_the_ruleset_refuses_or_that_makes_no_order_is_explained():
    table = pig_table()
    seat = acting(table)
    assert "Refused: A note needs some text. (rule notes)" in order(table, seat, "WriteNote", text="  ")
    assert "Refused: There is no order called &#x27;Fly&#x27;" in order(table, seat, "Fly")
    assert "Refused: Turn must be a whole number." in order(table, seat, "StartTurn", turn="x")


def test_a_private_note_reaches_its_writer_only():
    table = pig_table()
    ann, bo = table.seats
    assert "Order given: Write note." in order(table, ann, "WriteNote", text="bluff on 12")
    assert "bluff on 12" in table.client(ann).get(f"/games/{table.game.pk}/").content.decode()
    assert "bluff on 12" not in table.client(bo).get(f"/games/{table.game.pk}/").content.decode()
    assert "bluff on 12" not in Client().get(f"/games/{table.game.pk}/").content.decode()


# --- replay, audit, export ---------------------------------------------------------------------------


def test_the_replay_steps_through_the_orders_with_the_generic_board():
    table = pig_table()
    roller = acting(table)
    order(table, roller, "Roll")
    c = table.client(roller)  # an order is private to the seat that gave it
    count = c.get(f"/games/{table.game.pk}/replay/").context["count"]
    html = c.get(f"/games/{table.game.pk}/replay/?step={count}").content.decode()
    assert re.search(r"Step #\d+: Roll", html) and "Die rolled: seat " in html
    assert '<div class="generic-board"' in html


def test_the_audit_page_shows_on_get_and_verifies_on_post_only(moderator_client):
    table = pig_table()
    url = f"/games/{table.game.pk}/audit/"
    page = moderator_client.get(url + "?action=verify")
    assert page.status_code == 200 and 'id="report"' not in page.content.decode()  # a GET never verifies
    html = moderator_client.post(url, {"action": "verify"}).content.decode()
    assert 'id="report"' in html and "all good" in html


def test_the_forum_export_is_a_generic_post_without_a_picture():
    table = pig_table()
    order(table, acting(table), "Roll")
    text = Client().get(f"/games/{table.game.pk}/forum/?format=txt").content.decode()
    assert text.startswith("[b]Pig night[/b] — Pig (core test ruleset)")
    assert "[b]What happened[/b]" in text and "[*]Die rolled: seat " in text and "[img]" not in text
    assert "[b]Waiting for[/b]: " in text and "[b]Deadline[/b]: " in text
    assert Client().get(f"/games/{table.game.pk}/board.png").status_code == 404
    assert Client().get(f"/games/{table.game.pk}/board.svg").status_code == 404
    html = Client().get(f"/games/{table.game.pk}/forum/").content.decode()
    assert 'id="bbcode"' in html and "<img" not in html


def test_my_games_lists_the_game_with_whose_turn_it_is():
    table = pig_table()
    assert "Your turn" in table.client(acting(table)).get("/my/").content.decode()
    assert "Your turn" not in table.client(waiting(table)).get("/my/").content.decode()


# --- leaks -----------------------------------------------------------------------------------------


def _without_tokens(html: bytes) -> str:
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html.decode())
    return re.sub(r'name="key" value="[0-9a-f]+-', 'name="key" value="', text)


@pytest.mark.parametrize("path", ["", "replay/", "forum/?format=txt", "forum/"])
def test_pages_of_two_positions_differing_only_in_a_private_note_are_identical_for_the_other_seat(
    monkeypatch, path
):
    table = pig_table()
    writer, other = table.seats
    referee = services.referee_get()
    state, _ = Referee.state_at(referee, str(table.game.pk), None)
    a = replace(state, notes=((writer.number, "I hold at 20"),))
    b = replace(state, notes=((writer.number, "never hold"),))
    assert PIG.view(a, MODERATOR_VIEW) != PIG.view(b, MODERATOR_VIEW)  # the secret really differs
    real = Referee.state_at
    last_seq = referee.store.last_seq(str(table.game.pk))
    pages = []
    for variant in (a, b):
        def state_at(self, game_id, seq, _variant=variant, _last=last_seq):
            found, last = real(self, game_id, seq)
            return (_variant if seq is None or seq >= _last else found), last

        monkeypatch.setattr(Referee, "state_at", state_at)
        pages.append(_without_tokens(table.client(other).get(f"/games/{table.game.pk}/{path}").content))
        if path == "":  # the writer sees their own note: the harness can tell them apart
            mine = table.client(writer).get(f"/games/{table.game.pk}/").content.decode()
            assert ("I hold at 20" in mine) == (variant is a)
    assert pages[0] == pages[1]


# --- the generic code knows no ruleset -------------------------------------------------------------


ALLOWED_GAMES_MODULES = {"games.base", "games.serialization", "games.dice"}


def test_frontend_templates_imports_nothing_from_a_rulesets_package():
    for source in (ROOT / "frontend_templates").rglob("*.py"):
        tree = ast.parse(source.read_text(), str(source))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                if name == "games" or name.startswith("games."):
                    assert name in ALLOWED_GAMES_MODULES, f"{source.name} imports {name}"


def test_the_generic_pages_never_branch_on_a_rulesets_name():
    for source in (ROOT / "frontend_templates").rglob("*"):
        if source.suffix in (".py", ".html"):
            text = source.read_text()
            assert not re.search(r"ruleset\s*(==|!=)", text), source.name


def test_a_ruleset_without_a_plugin_gets_the_fallback_and_worms_its_own():
    assert pages_for("pig") is GENERIC
    assert type(pages_for("worms")) is not RulesetPages


# --- the fallback's pieces -----------------------------------------------------------------------------


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Spot:
    x: int
    y: int


@dataclass(frozen=True, kw_only=True)
class Paint(Command):
    """Paint a square (§3)."""

    count: int
    careful: bool = False
    colour: Colour = Colour.RED
    note: str = ""
    spots: tuple[Spot, ...] = ()
    weight: float | None = None


def test_each_field_of_an_order_gets_the_input_its_type_calls_for():
    form = generic_forms.order_form(Paint)
    kinds = {f.name: f.kind for f in form.fields}
    assert kinds == {"count": "number", "careful": "checkbox", "colour": "select", "note": "text",
                     "spots": "json", "weight": "float"}
    assert form.title == "Paint" and form.help == "Paint a square (§3)."
    assert next(f for f in form.fields if f.name == "colour").choices == ("red", "blue")


def test_a_posted_form_becomes_the_payload_the_referee_reads():
    class Rules:
        command_types = (Paint,)

    command_type, payload = generic_forms.order_from_post(Rules(), {
        "command_type": "Paint", "field-count": "3", "field-careful": "on", "field-colour": "blue",
        "field-note": "hi", "field-spots": '[{"x": 1, "y": 2}]', "field-weight": "",
    })
    assert command_type == "Paint"
    assert payload == {"count": 3, "careful": True, "colour": "blue", "note": "hi",
                       "spots": [{"x": 1, "y": 2}], "weight": None}
    from games.serialization import from_data

    assert from_data(Paint, payload).spots == (Spot(1, 2),)
    with pytest.raises(generic_forms.OrderFormError, match="Count needs a value"):
        generic_forms.order_from_post(Rules(), {"command_type": "Paint"})
    with pytest.raises(generic_forms.OrderFormError, match="Spots is not JSON"):
        generic_forms.order_from_post(Rules(), {"command_type": "Paint", "field-count": "1", "field-spots": "[x"})


def test_the_plain_board_draws_rows_and_squares_as_grids_and_escapes_every_text():
    html = generic_board.render({"rows": [[".", "X"], ["O", "."]], "pieces": [{"x": 0, "y": 1, "kind": "king"}],
                                 "name": "<script>"})
    assert html.count('<table class="grid">') == 2
    assert "<td>kind king</td>" in html
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert generic_board.render({}) is None


def test_the_fallback_narrates_the_type_in_words_with_a_payload_summary():
    line = {"kind": "event", "type": "DieRolled", "payload": {"seat": 2, "value": 5}}
    assert GENERIC.narrate(line, {2: "Bo"}) == "Die rolled: seat Bo, value 5"
    refused = {"kind": "rejection", "type": "OrderRefused", "payload": {"message": "Not now.", "rule": "turn"}}
    assert GENERIC.narrate(refused, {}) == "refused: Not now."

