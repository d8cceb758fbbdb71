"""The appends that piled up in a process's live outbox reach the other processes through
Redis, each game once, in one round trip however many games a sweep's batch appended to."""

from __future__ import annotations

import os
import time

import pytest

from referee import live

pytestmark = [pytest.mark.postgres]


def test_every_game_that_piled_up_is_published_once(monkeypatch, settings):
    import redis

    url = os.environ.get("REDIS_URL")
    assert url, "REDIS_URL is not set: run the tests with scripts/test.sh, which starts Redis"
    settings.LIVE_REDIS_URL = url
    monkeypatch.setattr(live, "_publisher", None)
    monkeypatch.setattr(live, "_quiet_until", 0.0)
    listener = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
    listener.subscribe(live.CHANNEL)
    while listener.get_message(timeout=0.5) is not None:
        pass
    live._deliver(["game-a", "game-b", "game-a", "game-c"])
    heard, end = [], time.monotonic() + 5
    while len(heard) < 3 and time.monotonic() < end:
        message = listener.get_message(timeout=0.5)
        if message is not None:
            heard.append(message["data"].decode())
    listener.close()
    assert heard == ["game-a", "game-b", "game-c"]
