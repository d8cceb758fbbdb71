"""The settings page: a player adds a chat channel, sends it a test notice and sees the
delivery in the channel's log; a webhook's secret is shown once; a failure shows its error."""

from __future__ import annotations

import pytest
from django.test import Client

from notices import delivery
from tests.factories import UserFactory
from tests.notice_receiver import Receiver

pytestmark = pytest.mark.django_db


@pytest.fixture
def receiver():
    r = Receiver().start()
    yield r
    r.stop()


def signed_in() -> Client:
    client = Client()
    client.force_login(UserFactory())
    return client


def test_a_player_adds_a_chat_channel_tests_it_and_sees_the_delivery(receiver):
    client = signed_in()
    url = receiver.url.replace("http://", "json://")
    page = client.post("/settings/notices/", {"action": "add-chat", "url": url, "want-turn": "on"}, follow=True)
    assert "Channel added" in page.content.decode()
    channel = page.content.decode().split('data-channel="')[1].split('"')[0]
    client.post("/settings/notices/", {"action": "test", "channel": channel})
    delivery.send_due()
    html = client.get("/settings/").content.decode()
    assert "<td>test</td><td>sent</td>" in html and "accepted" in html
    assert len(receiver.received) == 1


def test_a_failing_channel_shows_its_last_error_to_its_owner(receiver):
    receiver.status = 500
    client = signed_in()
    client.post("/settings/notices/", {"action": "add-webhook", "url": receiver.url + "/bot", "want-turn": "on"})
    html = client.get("/settings/").content.decode()
    channel = html.split('data-channel="')[1].split('"')[0]
    client.post("/settings/notices/", {"action": "test", "channel": channel})
    delivery.send_due()
    assert "Last error" in client.get("/settings/").content.decode()
    assert "HTTP 500 Internal Server Error" in client.get("/settings/").content.decode()


def test_a_webhooks_secret_is_shown_once(receiver):
    client = signed_in()
    first = client.post("/settings/notices/", {"action": "add-webhook", "url": receiver.url, "want-turn": "on"},
                        follow=True).content.decode()
    secret = first.split("shown this once: ")[1].split("<")[0].strip()
    assert secret.startswith("whsec_")
    assert secret not in client.get("/settings/").content.decode()


def test_email_choices_are_kept(receiver):
    client = signed_in()
    client.post("/settings/notices/", {"action": "email", "want-over": "on"})
    html = client.get("/settings/").content.decode()
    assert 'name="want-over" checked' in html and 'name="want-turn" checked' not in html.split("Chat channels")[0]
