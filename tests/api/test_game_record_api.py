"""GET /api/games/{id}/record/: a player's view while the game runs, the whole record (which
verifies offline) for moderators and, once the game is over and its log public, everyone."""

from __future__ import annotations

import pytest

from games.record.verify import verify_record
from referee import services
from tests.factories import ModeratorFactory, UserFactory, acting_seat, api_client, started_game

pytestmark = [pytest.mark.django_db]


def play_out(game, seats) -> None:
    for _ in range(200):
        state, _ = services.referee_get().current(str(game.pk))
        seat = acting_seat(game, seats)
        order = "Hold" if state.turn_total > 0 else "Roll"
        services.command_handle(game_id=str(game.pk), user=seat.user, command_type=order, payload={})
        services.game_run_pending(game_id=str(game.pk))
        game.refresh_from_db()
        if game.status == "finished":
            return
    raise AssertionError("the game did not end")


def test_a_player_gets_their_own_view_without_hashes_while_the_game_runs():
    game, seats = started_game(settings={"target": 1})
    response = api_client(seats[0].user).get(f"/api/games/{game.pk}/record/")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    body = response.json()
    assert body["format"] == "referee-record" and body["game"]["ruleset"] == "pig"
    assert body["view"] == {"whole": False, "kind": "seat", "seat": seats[0].number}
    assert body["dice"]["seed"] is None and body["dice"]["seed_commitment"] == game.seed_hash
    feed = api_client(seats[0].user).get(f"/api/games/{game.pk}/events/").json()
    assert [r["seq"] for r in body["records"]] == [e["seq"] for e in feed["events"]]
    assert all("hash" not in r for r in body["records"])


def test_a_moderator_gets_the_whole_record_and_it_verifies_with_the_seed_still_secret():
    game, seats = started_game(settings={"target": 1})
    body = api_client(ModeratorFactory()).get(f"/api/games/{game.pk}/record/?as=moderator").json()
    assert body["view"] == {"whole": True} and body["dice"]["seed"] is None
    assert verify_record(body, services.referee_get().registry).ok


def test_once_the_game_is_over_anyone_gets_the_whole_record_with_the_seed_and_it_verifies():
    game, seats = started_game(settings={"target": 1})
    play_out(game, seats)
    for client in (api_client(), api_client(UserFactory()), api_client(seats[1].user)):
        body = client.get(f"/api/games/{game.pk}/record/").json()
        assert body["view"] == {"whole": True} and body["dice"]["seed"] == game.seed
        report = verify_record(body, services.referee_get().registry)
        assert report.ok, report.problem
        assert report.draws > 0


def test_a_private_log_stays_each_players_view_after_the_game():
    game, seats = started_game(settings={"target": 1}, private_log=True)
    play_out(game, seats)
    body = api_client(seats[0].user).get(f"/api/games/{game.pk}/record/").json()
    assert body["view"]["whole"] is False


def test_a_private_game_is_not_found_for_strangers():
    game, _ = started_game(is_private=True)
    response = api_client(UserFactory()).get(f"/api/games/{game.pk}/record/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/problem+json")
