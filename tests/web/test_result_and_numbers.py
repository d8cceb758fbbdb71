"""What every ruleset's game page shows a player: the result in the main area once the game
is over (and nothing that no longer applies), one number per step (the public one), the
ruleset's title instead of its id, and the moderators' replay details in words."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from game_pages.worms import ui
from referee.models import Game
from tests.web.conftest import worms_table
from tests.web.test_generic_pages import acting, order, pig_table

pytestmark = pytest.mark.django_db


def _live_part(html: str) -> str:
    """The part of the page the live script swaps in (what an open page gets by itself)."""
    start = html.index('<div id="live"')
    return html[start:]


def _page(table, seat=None, path: str = "") -> str:
    """The game's page (or the page at ``path`` under it) as ``seat``'s player, or anyone, reads it."""
    client = table.client(seat) if seat is not None else Client()
    return client.get(f"/games/{table.game.pk}/{path}").content.decode()


def _moderator() -> Client:
    from tests.factories import ModeratorFactory

    client = Client()
    client.force_login(ModeratorFactory())
    return client


def _result_block(html: str) -> str | None:
    """The result section in the part the live script swaps in, if there is one."""
    block = re.search(r'<section id="result".*?</section>', _live_part(html), re.S)
    return block.group(0) if block else None


def _surrendered_worms():
    table = worms_table(players=2)
    loser, winner = table.seats
    table.client(loser).post(f"/games/{table.game.pk}/surrender/", {"confirm": "yes"})
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.FINISHED
    return table, loser, winner


def _finished_pig():
    table = pig_table(target=2)
    from referee import services

    for _ in range(80):
        if table.game.status == Game.Status.FINISHED:
            break
        seat = acting(table)
        turn = table.position()["turn"]
        order(table, seat, "Roll")
        if table.position()["turn"] == turn:
            order(table, seat, "Hold")
        services.game_run_pending(game_id=str(table.game.pk))
        table.game.refresh_from_db()
    assert table.game.status == Game.Status.FINISHED
    return table


# --- the result, where the player looks ------------------------------------------------------------


def test_at_game_over_the_result_is_in_the_main_area_of_the_part_the_page_refreshes_by_itself():
    table, loser, winner = _surrendered_worms()
    html = _page(table, winner)
    live = _live_part(html)
    block = _result_block(html)
    assert block, "no result section in the live part of the page"
    text = re.sub(r"<[^>]+>", " ", block)
    assert winner.name in text and "won" in text.lower()
    assert "surrender" in text.lower(), "how it ended is not said"
    # the result comes before the board
    assert live.index('id="result"') < live.index('id="board-section"')


def test_at_game_over_the_header_says_so_in_the_refreshed_part_and_the_prompts_are_gone():
    table, loser, winner = _surrendered_worms()
    html = _page(table, loser)
    live = _live_part(html)
    meta = re.search(r'<p[^>]*id="game-meta".*?</p>', live, re.S)
    assert meta, "the header line is not refreshed with the page"
    assert "over" in meta.group(0) and "in play" not in meta.group(0)
    assert 'id="notify-toggle"' not in html, "the turn notification is still offered"
    assert 'id="end-turn"' not in html and "Surrender" not in live


def test_a_finished_ruleset_without_a_plugin_shows_the_result_block_with_scores():
    table = _finished_pig()
    block = _result_block(_page(table))
    assert block
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", block))
    winner = next(s for s in table.seats if s.number == table.position()["winner"])
    assert winner.name in text and "Final scores" in text


def test_while_the_game_runs_there_is_no_result_block_and_the_notify_prompt_is_offered():
    table = worms_table(players=2)
    html = _page(table, table.seats[0])
    assert 'id="result"' not in html and 'id="notify-toggle"' in html


# --- one number per step ---------------------------------------------------------------------------


def _worms_after_a_step():
    table = worms_table(players=2)
    seat = table.seat_to_act()
    position = table.position(seat)
    worm, square = next((w["id"], s["square"]) for w in ui.worms_that_may_act(position, seat.number)
                        for s in ui.next_steps(position, w["id"]) if not s["problem"] and not s["warning"])
    table.client(seat).post(f"/games/{table.game.pk}/move/", {"worm": worm, "square": square})
    return table, seat


def test_a_player_sees_only_public_step_numbers_on_the_game_page():
    table, seat = _worms_after_a_step()
    html = _page(table, seat)
    assert "after record" not in html and "public step" not in html
    assert re.search(r'id="board-heading">Board <span class="muted">\(after step #\d+\)', html)
    log = re.search(r'<ol[^>]*id="log".*?</ol>|<ul[^>]*id="log".*?</ul>', html, re.S).group(0)
    assert "value=" not in log, "the list numbers its lines with a second scheme"


def test_a_player_sees_one_number_per_replay_step_and_a_moderator_also_the_record():
    table, seat = _worms_after_a_step()
    html = _page(table, seat, "replay/")
    meta = re.search(r'id="step-meta">(.*?)</p>', html, re.S).group(1)
    assert "record" not in meta and "public step" not in meta
    heading = re.search(r'id="order-heading">(.*?)</h2>', html, re.S).group(1)
    assert re.match(r"Step #\d+: ", heading), heading
    html = _moderator().get(f"/games/{table.game.pk}/replay/").content.decode()
    assert re.search(r'id="step-meta">.*record \d+', html, re.S)


# --- titles, not ids -------------------------------------------------------------------------------


def test_the_lobby_and_the_game_header_name_the_ruleset_by_its_title():
    table = worms_table(players=2)
    lobby_html = Client().get("/").content.decode()
    assert "Worms: Evolved v2.1" in lobby_html
    assert not re.search(r"<td>worms \d", lobby_html)
    html = _page(table)
    meta = re.search(r'id="game-meta">(.*?)</p>', html, re.S).group(1)
    assert "Worms: Evolved v2.1" in meta and not re.search(r"worms \d", meta)


# --- the moderators' replay details in words ---------------------------------------------------------


def test_the_moderators_details_show_no_python_text_and_times_as_local_times():
    from frontend_templates.details import detail_value

    value = detail_value("teams[0]", {"colour": "blue", "worms": ["A1", "A2"]})
    assert "{" not in value.text and "'" not in value.text
    assert value.text == "colour blue; worms A1, A2"
    when = detail_value("at_ms", 1796140800000)
    assert when.iso.startswith("2026-12-01T") and "UTC" in when.text
    assert detail_value("at_ms", None).text == "not given"
    assert detail_value("deadline.at ms", "").text == "not given"


def test_the_moderators_replay_details_render_every_step_without_python_text():
    table, loser, winner = _surrendered_worms()
    mod = _moderator()
    count = mod.get(f"/games/{table.game.pk}/replay/").context["count"]
    for i in range(1, count + 1):
        html = mod.get(f"/games/{table.game.pk}/replay/?step={i}").content.decode()
        details = re.search(r'<details id="details">.*?</details>', html, re.S)
        if not details:
            continue
        shown = re.sub(r'<pre id="order-payload">.*?</pre>', "", details.group(0), flags=re.S)
        assert "{&#x27;" not in shown and "[&#x27;" not in shown and "True" not in shown, shown[:400]
        assert "at ms" not in shown


# --- smaller ones ------------------------------------------------------------------------------------


def test_after_game_over_no_other_seats_records_are_listed_as_the_players_private_messages():
    table, loser, winner = _surrendered_worms()
    html = _page(table, loser)
    assert "Private messages" not in html
    # the log, public now, says which lines were private until the end
    assert "private until the end" in html


def test_during_play_a_seat_reads_its_own_private_messages_only():
    table = worms_table(players=2)
    first, second = table.seats
    html = _page(table, first)
    inbox = re.search(r'<ul id="inbox">(.*?)</ul>', html, re.S)
    assert inbox, "a seat's own private records (its inventory) are its messages"
    assert "private until the end" not in html


def test_a_weapon_whose_last_round_is_spent_gets_no_fire_form():
    from game_pages.worms.pages import play_context

    table = worms_table(players=2)
    seat = table.seat_to_act()
    position = table.position(seat)
    team = next(t for t in position["teams"] if t["seat"] == seat.number)
    held = next(s for s in team["inventory"] if s["count"])
    worm = ui.worms_that_may_act(position, seat.number)[0]["id"]
    assert play_context(position, seat.number, worm, held["item"])["weapon"] == held["item"]
    held["count"] = 0
    spent = play_context(position, seat.number, worm, held["item"])
    assert spent["weapon"] == "" and "aim" not in spent
