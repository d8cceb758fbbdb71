from __future__ import annotations

import pytest

from referee.models import Event, Game
from tests.factories import (
    GameFactory,
    ModeratorFactory,
    UserFactory,
    acting_seat,
    api_client,
    started_game,
)

pytestmark = [pytest.mark.django_db]




def test_games_are_listed_and_filtered():
    GameFactory(name="Open pig")
    started_game(name="Running pig")
    client = api_client()
    assert {g["name"] for g in client.get("/api/games/?status=open").json()} >= {"Open pig"}
    assert "Open pig" not in {g["name"] for g in client.get("/api/games/?status=active").json()}
    assert client.get("/api/games/?ruleset=worms").json() == []


def test_joining_with_a_private_order_and_the_last_seat_starts_the_game():
    ann, bob = UserFactory(), UserFactory()
    gid = api_client(ann).post("/api/games/", {"name": "Notes", "ruleset": "pig", "seats": 2}, format="json").json()["id"]
    order = {"type": "WriteNote", "payload": {"text": "my secret list"}}
    first = api_client(ann).post(f"/api/games/{gid}/join/", {"name": "Ann", "signup_order": order}, format="json")
    assert first.status_code == 201 and first.json()["game_status"] == "open"
    second = api_client(bob).post(f"/api/games/{gid}/join/", {"name": "Bob"}, format="json")
    assert second.json()["game_status"] == "active"
    seat_of_ann = first.json()["seat"]
    assert "my secret list" in str(api_client(ann).get(f"/api/games/{gid}/inbox/").json())
    assert "my secret list" not in str(api_client(bob).get(f"/api/games/{gid}/events/").json())
    assert Event.objects.filter(game_id=gid, type="NoteWritten", payload__seat=seat_of_ann).exists()


def test_a_malformed_private_order_is_refused_at_the_door():
    game = GameFactory()
    response = api_client(UserFactory()).post(f"/api/games/{game.pk}/join/",
                                           {"name": "X", "signup_order": {"type": "WriteNote", "payload": {"text": 3}}},
                                           format="json")
    assert response.status_code == 400 and "expected text" in response.json()["detail"]
    assert not game.seats.exists()


def test_a_retried_join_with_the_same_key_returns_the_first_answer():
    game = GameFactory(seats=3)
    client = api_client(UserFactory())
    answers = [client.post(f"/api/games/{game.pk}/join/", {"name": "Ann"}, format="json",
                           HTTP_IDEMPOTENCY_KEY="join-1") for _ in range(2)]
    assert [a.status_code for a in answers] == [201, 201]
    assert answers[0].json() == answers[1].json() and answers[1]["Idempotent-Replayed"] == "true"
    assert game.seats.count() == 1
    other = client.post(f"/api/games/{game.pk}/join/", {"name": "Changed"}, format="json", HTTP_IDEMPOTENCY_KEY="join-1")
    assert other.status_code == 422


def test_the_creator_may_start_early_but_not_a_stranger():
    ann = UserFactory()
    gid = api_client(ann).post("/api/games/", {"name": "Early", "ruleset": "pig", "seats": 4}, format="json").json()["id"]
    for user in (ann, UserFactory()):
        api_client(user).post(f"/api/games/{gid}/join/", {"name": user.username}, format="json")
    assert api_client(UserFactory()).post(f"/api/games/{gid}/start/").status_code == 400
    assert api_client(ann).post(f"/api/games/{gid}/start/").json()["status"] == "active"


def test_the_event_feed_is_paginated_and_long_polls():
    game, seats = started_game()
    client = api_client(seats[0].user)
    page = client.get(f"/api/games/{game.pk}/events/?after=0&limit=2").json()
    assert [e["seq"] for e in page["events"]] == [1, 2] and page["more"] and page["next_after"] == 2
    rest = client.get(f"/api/games/{game.pk}/events/?after=2&limit=100").json()
    assert not rest["more"]
    empty = client.get(f"/api/games/{game.pk}/events/?after={rest['next_after']}&wait=1").json()
    assert empty["events"] == [] and empty["next_after"] == rest["next_after"]
    assert client.get(f"/api/games/{game.pk}/events/?after=-1").status_code == 400
    assert client.get(f"/api/games/{game.pk}/events/?wait=600").status_code == 400


def test_an_order_against_a_stale_position_is_a_conflict():
    game, seats = started_game()
    seat = acting_seat(game, seats)
    last = Event.objects.filter(game=game).count()
    client = api_client(seat.user)
    stale = client.post(f"/api/games/{game.pk}/commands/", {"type": "Roll", "expected_seq": last - 1}, format="json")
    assert stale.status_code == 409 and "moved on" in stale.json()["detail"]
    assert Event.objects.filter(game=game).count() == last
    fresh = client.post(f"/api/games/{game.pk}/commands/", {"type": "Roll", "expected_seq": last}, format="json")
    assert fresh.status_code == 201


def test_a_flooding_client_is_told_to_slow_down(settings):
    from rest_framework.settings import api_settings
    from rest_framework.throttling import UserRateThrottle

    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "3/min", "user": "3/min"}}
    api_settings.reload()
    UserRateThrottle.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES
    try:
        from django.core.cache import cache

        cache.clear()
        client = api_client(UserFactory())
        codes = [client.get("/api/games/").status_code for _ in range(5)]
        assert codes[:3] == [200, 200, 200] and codes[-1] == 429
        response = client.get("/api/games/")
        assert response.json()["status"] == 429 and "Retry-After" in response
    finally:
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "100000/min", "user": "100000/min"}}
        api_settings.reload()
        UserRateThrottle.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES


def test_the_league_queue_prefers_newcomers_and_winners():
    moderator = api_client(ModeratorFactory())
    league = moderator.post("/api/leagues/", {"name": "Pig league", "ruleset": "pig", "seats_per_game": 2},
                            format="json").json()
    players = [UserFactory(username=f"league{i}") for i in range(4)]
    for user in players[:2]:
        api_client(user).post(f"/api/leagues/{league['id']}/queue/", {}, format="json")
    first = moderator.post(f"/api/leagues/{league['id']}/next-game/").json()
    assert {s["name"] for s in first["seats"]} == {"league0", "league1"}
    # league0 and league1 played; league2 and league3 did not: they go first though later in the queue
    for user in (players[0], players[1], players[2], players[3]):
        api_client(user).post(f"/api/leagues/{league['id']}/queue/", {}, format="json")
    queue = moderator.get("/api/leagues/").json()[0]["queue"]
    assert queue == ["league2", "league3", "league0", "league1"]


def test_moderator_corrections_are_public_notices_with_reasons():
    game, seats = started_game()
    moderator = api_client(ModeratorFactory())
    base = f"/api/games/{game.pk}/corrections/"
    assert moderator.post(base, {"action": "pause", "reason": "dispute about turn 3"}, format="json").status_code == 201
    assert Game.objects.get(pk=game.pk).paused_at is not None
    assert moderator.post(base, {"action": "resume", "reason": "settled"}, format="json").status_code == 201
    assert moderator.post(base, {"action": "ruling", "reason": "x"}, format="json").status_code == 400
    feed = api_client().get(f"/api/games/{game.pk}/events/").json()["events"]
    notices = [(e["type"], e["payload"]["reason"]) for e in feed if e["kind"] == "notice"]
    assert notices == [("GamePaused", "dispute about turn 3"), ("GameResumed", "settled")]


def test_replay_shows_the_order_its_events_and_what_changed():
    game, seats = started_game()
    seat = acting_seat(game, seats)
    other = next(s for s in seats if s != seat)
    api_client(seat.user).post(f"/api/games/{game.pk}/commands/", {"type": "Roll"}, format="json")
    client = api_client(seat.user)
    steps = client.get(f"/api/games/{game.pk}/replay/").json()["steps"]
    roll = next(s for s in steps if s["type"] == "Roll")
    detail = client.get(f"/api/games/{game.pk}/replay/?seq={roll['seq']}").json()
    assert detail["events"][0]["type"] == "DieRolled"
    assert any(d["path"] in ("turn_total", "turn", "to_act") for d in detail["diff"])
    assert "draws" not in detail  # dice are for moderators until the end
    assert client.get(f"/api/games/{game.pk}/replay/?seq=9999").status_code == 404
    theirs = api_client(other.user).get(f"/api/games/{game.pk}/replay/").json()["steps"]
    assert "Roll" not in [s["type"] for s in theirs] and theirs[-1]["type"] == "Order"


def test_a_refused_order_reaches_only_the_players_inbox():
    game, seats = started_game()
    mover = acting_seat(game, seats)
    refused = api_client(mover.user).post(f"/api/games/{game.pk}/commands/",
                                          {"type": "StartTurn", "payload": {"turn": 99}}, format="json")
    assert refused.status_code == 400
    inbox = api_client(mover.user).get(f"/api/games/{game.pk}/inbox/").json()
    assert inbox[-1]["type"] == "OrderRefused"
    other = next(s for s in seats if s != mover)
    assert "OrderRefused" not in str(api_client(other.user).get(f"/api/games/{game.pk}/events/").json())


def test_an_order_out_of_turn_is_refused_with_its_rule_and_not_kept():
    game, seats = started_game()
    waiting = next(s for s in seats if s != acting_seat(game, seats))
    refused = api_client(waiting.user).post(f"/api/games/{game.pk}/commands/", {"type": "Roll"}, format="json")
    assert refused.status_code == 400 and refused.json()["rule"] == "turn"
    assert api_client(waiting.user).get(f"/api/games/{game.pk}/inbox/").json() == []


def test_a_league_that_seats_by_rating_puts_the_closest_ratings_together():
    import datetime as dt

    from referee import ratings
    from tests.factories import GameFactory

    moderator = api_client(ModeratorFactory())
    league = moderator.post("/api/leagues/", {"name": "Rated pig", "ruleset": "pig", "seats_per_game": 2,
                                              "seating": "rating"}, format="json").json()
    assert league["seating"] == "rating"
    strong, weak, middle = (UserFactory(username=n) for n in ("strong", "weak", "middle"))
    for n in range(3):  # strong beats middle who beats weak, three times
        ratings.record(game_id=str(GameFactory(rated=True).pk), ruleset="pig", ladder="players",
                       standing=[[strong.pk], [middle.pk], [weak.pk]], ended_at=dt.datetime(2025, 1, 1 + n, tzinfo=dt.UTC))
    for user in (weak, strong, middle):
        api_client(user).post(f"/api/leagues/{league['id']}/queue/", {}, format="json")
    queue = moderator.get("/api/leagues/").json()[0]["queue"]
    assert queue == ["weak", "middle", "strong"]  # first come would seat weak with strong
    game = moderator.post(f"/api/leagues/{league['id']}/next-game/").json()
    assert {s["name"] for s in game["seats"]} == {"weak", "middle"}
    assert moderator.get("/api/leagues/").json()[0]["queue"] == ["strong"]


def test_a_league_seats_first_come_unless_asked_and_refuses_an_unknown_seating():
    moderator = api_client(ModeratorFactory())
    made = moderator.post("/api/leagues/", {"name": "Plain pig", "ruleset": "pig", "seats_per_game": 2}, format="json")
    assert made.json()["seating"] == "queue"
    odd = moderator.post("/api/leagues/", {"name": "Odd pig", "ruleset": "pig", "seats_per_game": 2,
                                           "seating": "alphabet"}, format="json")
    assert odd.status_code == 400 and odd["Content-Type"] == "application/problem+json"
