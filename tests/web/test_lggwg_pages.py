"""LGGWG's page plug-in (game_pages/lggwg): the map as SVG with fog from the viewer's own
view, the team order and who has sent a list, the order-list builder's plain forms (add,
reorder, remove, send as one SubmitOrders), the last resolution step by step with its
bullet paths, the scoreboard, the game record (.tak) and its offline replay; and nothing a
team is shown depends on another team's secret."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from frontend_templates.plugins import pages_for
from games.base import MODERATOR_VIEW
from games.lggwg import RULESET
from games.lggwg.sight import team_sight
from games.lggwg.state import Order, StepRecord
from referee import lobby, services
from referee.core import Referee
from tests.factories import ModeratorFactory, UserFactory
from tests.web.conftest import Table

pytestmark = pytest.mark.django_db


def lggwg_table(settings: dict | None = None, name: str = "Green night") -> Table:
    game = services.game_create(name=name, ruleset="lggwg", seats=2, settings=settings or {"map": "duel"})
    seats = [lobby.game_join(game_id=str(game.pk), user=UserFactory(), name=n) for n in ("Ann", "Bob")]
    services.game_run_pending(game_id=str(game.pk))
    game.refresh_from_db()
    return Table(game, seats)


def page(table: Table, seat=None, query: str = "") -> str:  # noqa: ANN001
    client = table.client(seat) if seat is not None else Client()
    response = client.get(f"/games/{table.game.pk}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def post_list(table: Table, seat, **data) -> str:  # noqa: ANN001
    response = table.client(seat).post(f"/games/{table.game.pk}/lggwg/orders/", data, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def test_the_plug_in_is_registered_for_lggwg():
    assert type(pages_for("lggwg")).__name__ == "LggwgPages"


def test_the_map_is_drawn_with_fog_units_and_the_team_order():
    table = lggwg_table()
    ann, _ = table.seats
    html = page(table, ann)
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="lggwg"' in html
    assert 'data-fog="v"' in html and 'data-fog="u"' in html  # seen now, never seen
    assert 'data-unit="R1"' in html and "R1 Executive (R) at b2: 15 of 15 hit points" in html
    assert 'data-unit="B1"' not in html  # Blue's Executive is out of Red's sight
    assert 'id="team-order"' in html and "writing…" in html
    assert 'id="scoreboard"' in html and "B1 Executive 15/15" in html  # hit points are public
    assert f'action="/games/{table.game.pk}/lggwg/orders/"' in html
    assert "R6 Miner at d3 (9 HP, 3 mines)" in html and "R1 Executive at b2 (15 HP)" in html


def test_a_spectator_sees_the_published_map_but_no_unit():
    table = lggwg_table()
    html = page(table)
    assert 'class="lggwg"' in html and 'class="unit"' not in html
    assert 'id="play"' not in html  # no order forms
    assert 'id="team-order"' in html and 'id="scoreboard"' in html  # the team order is public


def test_the_builder_adds_reorders_and_removes_orders_in_the_query_string():
    table = lggwg_table()
    ann, _ = table.seats
    html = post_list(table, ann, action="add", draft="", unit="R2", kind="move", direction="S", square="")
    assert "<code>R2&gt;S</code>" in html
    html = post_list(table, ann, action="add", draft="R2>S", unit="R2", kind="fire", direction="N", square="C4")
    assert 'value="R2&gt;S,R2*c4"' in html
    html = post_list(table, ann, action="up", draft="R2>S,R2*c4", index="1")
    assert 'value="R2*c4,R2&gt;S"' in html
    html = post_list(table, ann, action="remove", draft="R2*c4,R2>S", index="1")
    assert 'value="R2*c4"' in html and "R2&gt;S" not in html.split('id="lggwg-draft"')[1].split("</ol>")[0]
    html = post_list(table, ann, action="add", draft="R2*c4", unit="", kind="fire", direction="N", square="c4")
    assert "Pick the unit the order is for." in html


def test_a_sent_list_is_one_submit_orders_and_a_refusal_names_its_rule():
    table = lggwg_table()
    ann, bob = table.seats
    html = post_list(table, ann, action="submit", draft="R2>S,B1>N")
    assert "Refused:" in html and "(rule §" in html
    html = post_list(table, ann, action="submit", draft="R2*c4,R1-")
    assert "Your list of 2 orders is in." in html
    assert table.position(ann)["orders"] == {"1": ["R2*c4", "R1-"]}
    assert "list in ✓" in page(table, bob)  # Bob learns that Ann's list is in ...
    assert "R2*c4" not in page(table, bob)  # ... not what it says


def test_after_resolution_the_steps_are_told_and_the_paths_drawn():
    table = lggwg_table()
    ann, bob = table.seats
    post_list(table, ann, action="submit", draft="R2*c4,R1-")
    post_list(table, bob, action="submit", draft="-")
    html = page(table, ann)
    assert 'id="resolution"' in html
    shot = next(r["step"] for r in table.position(ann)["last_resolution"] if r["unit"] == "R2")
    assert f"Step {shot}: Ann — Red R2: targeted fire at c4: done" in html
    assert f'class="shot-step" data-step="{shot}"' in html  # the bullet stopped at c3 (Red's Firebot)
    html = page(table, ann, f"?step={3 - shot}")
    assert f'class="shot-step faint" data-step="{shot}"' in html  # another step picked: this path dimmed
    assert "Turn 2 begins." in html  # the log, narrated


# --- leaks -------------------------------------------------------------------------------------------


def _without_tokens(html: bytes) -> str:
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html.decode())
    return re.sub(r'name="key" value="[0-9a-f]+-', 'name="key" value="', text)


def _pages_with(table: Table, monkeypatch, variants, viewer: Client, path: str) -> list[str]:  # noqa: ANN001
    real = Referee.state_at
    last_seq = services.referee_get().store.last_seq(str(table.game.pk))
    pages = []
    for variant in variants:
        def state_at(self, game_id, seq, _variant=variant, _last=last_seq):  # noqa: ANN001, ANN202
            state, last = real(self, game_id, seq)
            return (_variant if seq is None or seq >= _last else state), last

        monkeypatch.setattr(Referee, "state_at", state_at)
        pages.append(_without_tokens(viewer.get(f"/games/{table.game.pk}/{path}").content))
    return pages


def secret_variants(table: Table) -> tuple:
    """Two positions that differ only in what Red may not know: where Blue's Puffer stands
    (out of Red's sight either way), Blue's sent list, and a step Red did not see."""
    state, _ = Referee.state_at(services.referee_get(), str(table.game.pk), None)
    seen = team_sight(state, 1)
    puffer = state.unit("B4")
    assert puffer.square not in seen
    elsewhere = next(sq for sq in ((10, 7), (9, 7), (10, 6)) if sq not in seen and state.unit_at(sq) is None)

    def variant(square, orders, target):  # noqa: ANN001, ANN202
        units = tuple(replace(u, x=square[0], y=square[1]) if u.id == "B4" else u for u in state.units)
        teams = tuple(replace(t, orders=orders, submitted=True) if t.seat == 2 else t for t in state.teams)
        step = StepRecord(1, 2, "B2", "fire", target, True, "", ((f"j{10 if target == 'j4' else 9}", target),), (2,))
        return replace(state, units=units, teams=teams, last_steps=(step,))

    a = variant(puffer.square, (Order("move", "B4", "N"),), "j4")
    b = variant(elsewhere, (Order("fire", "B2", "c4"), Order("hold")), "k5")
    assert RULESET.view(a, MODERATOR_VIEW) != RULESET.view(b, MODERATOR_VIEW)  # the secrets really differ
    return a, b


@pytest.mark.parametrize("path", ["", "?step=1", "board.svg", "forum/?format=txt"])
def test_red_pages_of_positions_differing_only_in_blues_secrets_are_identical(monkeypatch, path):
    table = lggwg_table()
    ann, _ = table.seats
    a, b = secret_variants(table)
    first, second = _pages_with(table, monkeypatch, (a, b), table.client(ann), path)
    assert first == second


def test_the_harness_can_tell_the_secrets_apart_for_blue(monkeypatch):
    table = lggwg_table()
    _, bob = table.seats
    a, b = secret_variants(table)
    first, second = _pages_with(table, monkeypatch, (a, b), table.client(bob), "")
    assert first != second


# --- the game record -----------------------------------------------------------------------------------


def record_of(table: Table, client: Client, query: str = "") -> dict:
    response = client.get(f"/games/{table.game.pk}/lggwg/record.tak{query}")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in response.content.decode().splitlines()]
    return {"header": lines[0], "records": lines[1:], "text": response.content.decode()}


def test_during_the_game_the_record_holds_the_public_log_only():
    table = lggwg_table()
    ann, bob = table.seats
    post_list(table, ann, action="submit", draft="R2*c4,R1-")
    got = record_of(table, table.client(bob))
    assert not got["header"]["complete"] and got["header"]["game"]["seed"] is None
    assert table.game.seed not in got["text"]
    assert not any(r["type"] in ("OrdersSubmitted", "SubmitOrders") for r in got["records"])
    assert any(r["type"] == "TeamSubmitted" for r in got["records"])
    assert "Download the game record (.tak)" in page(table, ann)


def test_a_moderators_record_is_complete_and_replays_offline(tmp_path, capsys):
    table = lggwg_table()
    ann, bob = table.seats
    post_list(table, ann, action="submit", draft="R2*c4,R1-")
    post_list(table, bob, action="submit", draft="-")
    moderator = Client()
    moderator.force_login(ModeratorFactory())
    got = record_of(table, moderator, "?as=moderator")
    assert got["header"]["complete"] and got["header"]["game"]["seed"] == table.game.seed
    assert got["header"]["seats"] == [{"number": 1, "name": "Ann"}, {"number": 2, "name": "Bob"}]
    path = tmp_path / "game.tak"
    path.write_text(got["text"], encoding="utf-8")
    call_command("replay_record", str(path))
    out = capsys.readouterr().out
    assert "Verified:" in out and "Red R2: targeted fire at c4: done" in out and "Result: not finished" in out
    tampered = [json.loads(line) for line in got["text"].splitlines()]
    victim = next(r for r in tampered[1:] if r["type"] == "OrdersSubmitted")
    victim["payload"]["orders"][0]["target"] = "c5"
    path.write_text("".join(json.dumps(x) + "\n" for x in tampered), encoding="utf-8")
    with pytest.raises(CommandError, match=f"seq {victim['seq']}: hash"):
        call_command("replay_record", str(path), "--quiet")


def test_a_players_record_of_a_finished_game_is_complete():
    table = lggwg_table({"map": "duel", "max_turns": 1})
    ann, bob = table.seats
    post_list(table, ann, action="submit", draft="R1-")
    post_list(table, bob, action="submit", draft="-")
    got = record_of(table, Client())
    assert got["header"]["complete"] and got["header"]["game"]["status"] == "finished"
    assert got["header"]["game"]["seed"] == table.game.seed
    assert "The game is over." in page(table, ann)


def test_the_replay_and_audit_pages_draw_the_map():
    table = lggwg_table()
    ann, bob = table.seats
    post_list(table, ann, action="submit", draft="R2*c4,R1-")
    post_list(table, bob, action="submit", draft="-")
    replay = table.client(ann).get(f"/games/{table.game.pk}/replay/?step=3")
    html = replay.content.decode()
    assert replay.status_code == 200 and 'class="lggwg"' in html
    assert "Bob&#x27;s list is in; the turn resolves in 3 steps; turn 2 begins" in html
    assert 'class="shot-step" data-step=' in html  # Red's shot of this step, drawn
    first = table.client(ann).get(f"/games/{table.game.pk}/replay/?step=2").content.decode()
    assert "Ann&#x27;s list is in" in first and 'class="shot-step' not in first
    moderator = Client()
    moderator.force_login(ModeratorFactory())
    audit = moderator.get(f"/games/{table.game.pk}/audit/")
    assert audit.status_code == 200
    everything = moderator.get(f"/games/{table.game.pk}/?as=moderator").content.decode()
    assert 'data-unit="B1"' in everything and 'data-fog="u"' not in everything  # a moderator sees it all


def test_the_rules_page_has_the_unit_table_and_clauses_link_to_it():
    html = Client().get("/rules/lggwg/").content.decode()
    assert 'id="s3"' in html and "<td>Executive</td><td>15</td>" in html
    assert pages_for("lggwg").clause_url("§3.2") == "/rules/lggwg/#s3"
    assert pages_for("lggwg").clause_url("L-R14") is None
