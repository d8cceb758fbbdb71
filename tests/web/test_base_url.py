"""The forum post's picture (and every link the referee writes) points at the address the
server actually serves when no public address is configured."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from config.settings import served_base_url
from referee.embedded import child_environment
from tests.web.conftest import worms_table


def test_without_a_host_or_port_the_default_address_is_the_embedded_servers():
    assert served_base_url({}) == "http://127.0.0.1:8000"


def test_the_default_address_follows_the_port_and_host_the_server_is_told_to_serve_on():
    assert served_base_url({"REFEREE_PORT": "8765"}) == "http://127.0.0.1:8765"
    assert served_base_url({"REFEREE_HOST": "0.0.0.0", "REFEREE_PORT": "9000"}) == "http://127.0.0.1:9000"
    assert served_base_url({"REFEREE_HOST": "referee.lan", "REFEREE_PORT": "80"}) == "http://referee.lan:80"


def test_make_run_hands_its_processes_the_address_it_serves_on_unless_one_is_configured(tmp_path):
    served = child_environment(base={"REFEREE_PORT": "8000"}, host="127.0.0.1", port=8123, var_dir=tmp_path)
    assert served["REFEREE_BASE_URL"] == "http://127.0.0.1:8123"
    configured = {"REFEREE_BASE_URL": "https://worms.example.org"}
    told = child_environment(base=configured, host="127.0.0.1", port=8123, var_dir=tmp_path)
    assert told["REFEREE_BASE_URL"] == "https://worms.example.org"


@pytest.mark.django_db
def test_the_forum_posts_picture_is_under_the_served_address():
    table = worms_table(players=2)
    with override_settings(REFEREE_BASE_URL=served_base_url({"REFEREE_PORT": "8765"})):
        text = Client().get(f"/games/{table.game.pk}/forum/?format=txt").content.decode()
    assert f"[img]http://127.0.0.1:8765/games/{table.game.pk}/board.png?seq=" in text
