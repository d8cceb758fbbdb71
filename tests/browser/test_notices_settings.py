"""A player adds a chat channel on the settings page, sends it a test notice and sees the
delivery in its log, in a real browser against a real server. The receiver is a local
HTTP server behind apprise's json:// target (a Discord URL would leave the machine)."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from tests.notice_receiver import Receiver

pytestmark = [pytest.mark.postgres]


@pytest.mark.django_db
def test_the_notices_browser_tests_have_a_migrated_test_database():
    from django.db import connection

    assert connection.settings_dict["NAME"].startswith("test_")


def test_a_player_adds_a_channel_sends_a_test_notice_and_sees_its_delivery(server, browser):
    from django.contrib.auth import get_user_model

    name = f"n{uuid.uuid4().hex[:8]}"
    get_user_model().objects.create_user(username=name, password="pw-" + name, email=f"{name}@example.org")
    receiver = Receiver().start()
    try:
        page = browser.new_page()
        page.goto(server + "/accounts/login/")
        page.get_by_label("Username").fill(name)
        page.get_by_label("Password").fill("pw-" + name)
        page.get_by_role("button", name="Sign in").click()
        page.goto(server + "/settings/")
        page.get_by_label("Discord, Slack, Telegram, Matrix or ntfy URL").fill(
            receiver.url.replace("http://", "json://") + "/discord-stand-in")
        page.get_by_label("Name (optional)").fill("my discord")
        page.get_by_role("button", name="Add the channel").click()
        expect(page.get_by_text("Channel added")).to_be_visible()
        page.get_by_role("button", name="Send a test notice").click()
        expect(page.get_by_text("Test notice queued")).to_be_visible()
        page.reload()  # the worker (eager here: right after the request's commit) has sent it
        row = page.locator("table.delivery-log tbody tr").first
        expect(row).to_contain_text("test")
        expect(row).to_contain_text("sent")
        expect(row).to_contain_text("accepted")
        assert len(receiver.received) == 1 and receiver.received[0].path == "/discord-stand-in"
    finally:
        receiver.stop()
