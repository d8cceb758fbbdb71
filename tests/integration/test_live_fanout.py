"""Readers on the game being played share one read of its log per new head: each reader gets
exactly its viewer's feed (a seat's private note reaches that seat's readers only), and the
statements a process runs for an append do not grow with the number of its readers."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection

from bench.streams import Loop
from games.base import MODERATOR_VIEW, PUBLIC, Viewer
from referee import selectors, services
from referee.live import Hub
from tests.factories import started_game

pytestmark = [pytest.mark.postgres]


@pytest.mark.django_db  # pytest-django sets the test database up only for a module with one
def test_a_reader_must_watch_before_it_waits():
    async def unwatched() -> None:
        await Hub().next_entries("no-such-game", PUBLIC, 0, 0.1)

    with pytest.raises(KeyError):
        asyncio.run(unwatched())


class Counted:
    """The hub's database thread, with every statement it runs logged (``CaptureQueriesContext``
    counts a connection of this thread; the hub's reads run in another)."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(max_workers=1, initializer=self._log_queries)

    @staticmethod
    def _log_queries() -> None:
        connection.force_debug_cursor = True

    def statements(self) -> int:
        return self.pool.submit(lambda: len(connection.queries_log)).result()

    def close(self) -> None:
        self.pool.submit(lambda: connection.close()).result()
        self.pool.shutdown()


class Reader:
    def __init__(self, game_id: str, viewer: Viewer) -> None:
        self.game_id, self.viewer = game_id, viewer
        self.after = selectors.viewer_log_position(game_id=game_id, viewer=viewer)
        self.start = self.after
        self.got: list[dict[str, Any]] = []

    async def run(self, hub: Hub) -> None:
        hub.watch(self.game_id, self.viewer)
        try:
            while True:
                entries = await hub.next_entries(self.game_id, self.viewer, self.after, 60)
                assert entries is not None, "the shared tail lost a reader that never fell behind"
                for entry in entries:
                    self.got.append(entry.item)
                    self.after = entry.seq
        finally:
            hub.unwatch(self.game_id, self.viewer)


def wait_until(condition: Any, what: str) -> None:
    for _ in range(600):
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


def play_with_readers(per_class: int, settings: Any) -> tuple[list[int], dict[Viewer, list[Reader]], list[Any]]:
    """``per_class`` readers of each of four viewer classes on one game; seat 1 writes three
    private notes. The statements of the hub's thread for each note, and the readers."""
    settings.LIVE_REDIS_URL = None  # only the test's own notices wake the hub
    settings.REFEREE_LIVE_POLL_SECONDS = 10**6
    game, seats = started_game()
    game_id = str(game.pk)
    viewers = [PUBLIC, Viewer.for_seat(seats[0].number), Viewer.for_seat(seats[1].number), MODERATOR_VIEW]
    readers = {v: [Reader(game_id, v) for _ in range(per_class)] for v in viewers}
    counted, loop = Counted(), Loop()
    per_append: list[int] = []
    try:
        hub = loop.run(_hub(counted))
        for group in readers.values():
            for reader in group:
                loop.spawn(reader.run(hub))
        wait_until(lambda: hub.readers() == 4 * per_class and all(
            v in (hub._feeds[game_id].tail.shares if hub._feeds[game_id].tail else {}) for v in viewers),
            "every reader is counted in and its class shared out")
        for n in range(3):
            before = counted.statements()
            services.command_handle(game_id=game_id, user=seats[0].user, command_type="WriteNote",
                                    payload={"text": f"secret plan {n}"})  # commits
            loop.loop.call_soon_threadsafe(hub.wake, game_id)  # what notify_appended does after the commit
            feeds = {v: selectors.game_events_list(game_id=game_id, viewer=v, after=readers[v][0].start)
                     for v in viewers}
            wait_until(lambda feeds=feeds: all(len(r.got) >= len(feeds[r.viewer]) for g in readers.values() for r in g),
                       "every reader has the note's records")
            per_append.append(counted.statements() - before)
    finally:
        loop.close()
        counted.close()
    return per_append, readers, seats


async def _hub(counted: Counted) -> Hub:
    return Hub(executor=counted.pool)


def test_every_reader_gets_its_viewers_feed_once_in_order_and_secrets_stay_with_their_seat(committed, settings):
    _, readers, seats = play_with_readers(25, settings)
    for viewer, group in readers.items():
        feed = selectors.game_events_list(game_id=group[0].game_id, viewer=viewer, after=group[0].start)
        assert len(feed) >= 3
        for reader in group:
            assert reader.got == feed  # each record once, in the viewer's order, numbered as /events/ numbers it
    writer = Viewer.for_seat(seats[0].number)
    notes = [e["payload"]["text"] for e in readers[writer][0].got if e["type"] == "NoteWritten"]
    assert notes == ["secret plan 0", "secret plan 1", "secret plan 2"]
    for viewer in (PUBLIC, Viewer.for_seat(seats[1].number)):
        seen = readers[viewer][0].got
        assert seen and "secret plan" not in repr(seen)
        assert {e["type"] for e in seen if e["actor"].get("seat") == seats[0].number} <= {"Order"}
    assert [e["payload"].get("text") for e in readers[MODERATOR_VIEW][0].got if e["type"] == "NoteWritten"] == notes


def test_an_append_costs_a_process_the_same_statements_for_one_reader_or_a_hundred(committed, settings):
    few, _, _ = play_with_readers(1, settings)
    many, _, _ = play_with_readers(25, settings)
    # The game's row and the records after the tail: one read per append, shared by all.
    assert few == many == [2, 2, 2]


def test_appends_announced_while_a_read_is_due_reach_the_readers_together_in_one_read(committed, settings):
    settings.LIVE_REDIS_URL = None
    settings.REFEREE_LIVE_POLL_SECONDS = 10**6
    settings.REFEREE_LIVE_COALESCE_SECONDS = 3600  # the due read runs when the test says so (no clock)
    game, seats = started_game()
    game_id, me = str(game.pk), Viewer.for_seat(seats[0].number)
    readers = [Reader(game_id, me) for _ in range(5)]
    counted, loop = Counted(), Loop()
    try:
        hub = loop.run(_hub(counted))
        for reader in readers:
            loop.spawn(reader.run(hub))
        wait_until(lambda: hub.readers() == 5 and hub.share_of(game_id, me) is not None, "the readers wait")

        def append_and_announce(text: str) -> None:
            services.command_handle(game_id=game_id, user=seats[0].user, command_type="WriteNote",
                                    payload={"text": text})
            loop.loop.call_soon_threadsafe(hub.wake, game_id)

        feed = hub._feeds[game_id]

        async def due_now() -> None:
            feed.due.cancel()
            hub._refresh_due(feed)

        # The readers' first read has just run: what is announced now waits for the next.
        append_and_announce("first")
        wait_until(lambda: feed.due is not None, "a read is due")
        loop.run(due_now())
        wait_until(lambda: all("first" in repr(r.got) for r in readers), "the first note reaches every reader")
        before = counted.statements()
        append_and_announce("second")
        append_and_announce("third")
        wait_until(lambda: feed.due is not None, "a read is due")
        assert counted.statements() == before and not any("second" in repr(r.got) for r in readers)
        loop.run(due_now())
        want = selectors.game_events_list(game_id=game_id, viewer=me, after=readers[0].start)
        wait_until(lambda: all(len(r.got) >= len(want) for r in readers), "both notes reach every reader")
        assert counted.statements() - before == 2  # one read for the two appends
        assert all(r.got == want for r in readers)  # each record once, in order
    finally:
        loop.close()
        counted.close()
