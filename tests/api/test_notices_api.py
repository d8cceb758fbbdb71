"""The notices API: a player's channels and e-mail choices, a bot's webhook whose secret is
shown once, a game's channel for its creator or a moderator only."""

from __future__ import annotations

import pytest

from notices import delivery
from tests.factories import GameFactory, UserFactory, api_client
from tests.notice_receiver import Receiver

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture
def receiver():
    r = Receiver().start()
    yield r
    r.stop()


def test_a_player_sets_a_chat_channel_sends_a_test_and_reads_its_delivery_log(receiver):
    client = api_client(UserFactory())
    url = receiver.url.replace("http://", "json://") + "/discord-stand-in"
    answer = client.put("/api/me/notifications/", {"email": ["turn"], "channels": [
        {"url": url, "wants": ["turn", "over"], "label": "my chat"}]}, format="json")
    assert answer.status_code == 200, answer.content
    channel = answer.json()["channels"][0]
    assert (channel["label"], channel["wants"], channel["enabled"]) == ("my chat", ["turn", "over"], True)
    sent = client.post(f"/api/me/channels/{channel['id']}/test/")
    assert sent.status_code == 202 and sent.json()["status"] == "pending"  # the notices worker sends it
    assert delivery.send_due() == 1
    log = client.get("/api/me/notifications/").json()["channels"][0]["deliveries"]
    assert [(d["notice"], d["status"], d["answer"]) for d in log] == [("test", "sent", "accepted")]
    assert len(receiver.received) == 1


def test_a_webhooks_secret_is_shown_once_and_never_read_back(receiver):
    client = api_client(UserFactory())
    made = client.post("/api/me/webhooks/", {"url": receiver.url + "/bot", "wants": ["turn"]}, format="json")
    assert made.status_code == 201 and made.json()["secret"].startswith("whsec_")
    read = client.get("/api/me/notifications/")
    assert made.json()["secret"] not in read.content.decode()
    assert read.json()["webhooks"][0]["url"] == receiver.url + "/bot"


def test_a_chat_urls_token_is_masked_on_the_way_back(receiver):
    client = api_client(UserFactory())
    url = receiver.url.replace("http://", "json://user:hunter2@")
    client.put("/api/me/notifications/", {"email": [], "channels": [{"url": url, "wants": ["turn"]}]}, format="json")
    assert "hunter2" not in client.get("/api/me/notifications/").content.decode()


def test_bad_channels_are_refused_with_a_plain_reason_and_change_nothing(settings):
    settings.NOTICES_ALLOW_PRIVATE = False
    client = api_client(UserFactory())
    for body in ({"email": ["nonsense"]}, {"email": [], "channels": [{"url": "mailto://x@y.org"}]},
                 {"email": [], "channels": [{"url": "json://127.0.0.1/x"}]}):
        answer = client.put("/api/me/notifications/", body, format="json")
        assert answer.status_code == 400 and answer["Content-Type"] == "application/problem+json", answer.content
    assert client.get("/api/me/notifications/").json()["channels"] == []
    refused = client.post("/api/me/webhooks/", {"url": "https://127.0.0.1/x", "wants": ["turn"]}, format="json")
    assert refused.status_code == 400 and "loopback" in refused.json()["detail"]


def test_only_the_games_creator_or_a_moderator_sets_its_channel(receiver):
    creator, other = UserFactory(), UserFactory()
    game = GameFactory(created_by=creator)
    body = {"url": receiver.url.replace("http://", "json://"), "markup": "bbcode"}
    assert api_client(other).put(f"/api/games/{game.pk}/channel/", body, format="json").status_code == 400
    answer = api_client(creator).put(f"/api/games/{game.pk}/channel/", body, format="json")
    assert answer.status_code == 200 and answer.json()["markup"] == "bbcode"
    assert api_client(creator).delete(f"/api/games/{game.pk}/channel/").status_code == 204
    assert delivery.send_due() == 0


def test_only_a_moderator_sets_and_reads_a_leagues_channel(receiver):
    from referee import lobby
    from tests.factories import ModeratorFactory

    moderator = ModeratorFactory()
    league = lobby.league_create(name="L", ruleset="pig", seats_per_game=2, moderator=moderator)
    path = f"/api/leagues/{league.pk}/channel/"
    body = {"url": receiver.url.replace("http://", "json://"), "markup": "bbcode"}
    assert api_client(UserFactory()).put(path, body, format="json").status_code == 400
    assert api_client(UserFactory()).get(path).status_code == 400
    answer = api_client(moderator).put(path, body, format="json")
    assert answer.status_code == 200 and answer.json()["markup"] == "bbcode", answer.content
    assert api_client(moderator).get(path).json()["kind"] == "apprise"
    assert api_client(moderator).put("/api/leagues/999999/channel/", body, format="json").status_code == 404
    assert api_client(moderator).delete(path).status_code == 204
    assert not api_client(moderator).get(path).content
