"""Live updates: wake the readers waiting on a game when its log grows.

The write path calls :func:`notify_appended` once an append has committed. Readers wait
on a :class:`Hub`, one per process and event loop, which learns of appends three ways:

* in the same process, directly (the embedded default's single web process hears its own
  orders at once);
* from other processes over Redis pub/sub (``settings.LIVE_REDIS_URL``: the cache's or the
  broker's Redis), one subscription per process whatever the number of readers;
* and, as the fallback for appends nobody announced (a worker without Redis, a lost
  message), one slow query per process for all the games being watched
  (``REFEREE_LIVE_POLL_SECONDS``), never one per reader.

Whatever the number of readers, each append costs a process one read of the game's log
(the records after what it last read, ``referee.fanout``), shared out per viewer class with
the filter of every other read path; a woken reader takes its records from that share and
reads nothing. A reader is counted in (:meth:`Hub.watch`) *before* its own first read, so
whatever commits after that read reaches it through the shared one.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import threading
import time
import weakref
from collections import Counter
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

from django.conf import settings

from games.base import Viewer
from referee.fanout import Entry, Share, Tail, advance
from referee.outbox import Outbox

log = logging.getLogger(__name__)

CHANNEL = "referee:appended"
#: How long a process keeps following a game after its last reader left.
LINGER_SECONDS = 5.0

#: Database reads of the live endpoints under ASGI run here: a few threads, so a few
#: connections, however many readers wait.
DB_EXECUTOR = ThreadPoolExecutor(max_workers=4, thread_name_prefix="referee-live")

_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()
_hubs_lock = threading.Lock()
_blocking = threading.Condition()
_blocking_versions: dict[str, int] = {}
_publisher: Any = None


def notify_appended(game_id: str) -> None:
    """Tell every waiting reader, here and in the other processes, that ``game_id``'s log
    grew. Never raises: a lost notice only delays readers until the fallback poll."""
    game_id = str(game_id)
    with _blocking:
        _blocking_versions[game_id] = _blocking_versions.get(game_id, 0) + 1
        _blocking.notify_all()
    with _hubs_lock:
        hubs = list(_hubs.items())
    for loop, hub in hubs:
        if not loop.is_closed():
            loop.call_soon_threadsafe(hub.wake, game_id)
    _publish(game_id)


_quiet_until = 0.0


def _publish(game_id: str) -> None:
    """Hand the notice to this process's outbox: an order or a job does not wait for Redis
    (the notice is best-effort either way; the poll is the fallback)."""
    if not getattr(settings, "LIVE_REDIS_URL", None) or time.monotonic() < _quiet_until:
        return
    _outbox.put(game_id)


def _deliver(games: list[str]) -> None:
    _send(list(dict.fromkeys(games)))  # what piled up goes out once per game


def _send(games: list[str]) -> None:
    """Publish each game's notice, all in one round trip to Redis (a sweep's batch appends
    to many games at once)."""
    global _publisher, _quiet_until
    url = getattr(settings, "LIVE_REDIS_URL", None)
    if not url or time.monotonic() < _quiet_until:
        return
    try:
        if _publisher is None:
            import redis

            _publisher = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        if len(games) == 1:
            _publisher.publish(CHANNEL, games[0])
            return
        pipe = _publisher.pipeline(transaction=False)
        for game_id in games:
            pipe.publish(CHANNEL, game_id)
        pipe.execute()
    except Exception as exc:  # Redis down: readers still learn of it from the poll
        # Do not keep trying a dead Redis for every append: try again in a few seconds.
        _quiet_until = time.monotonic() + 5.0
        log.warning("live: could not publish an append of %s: %s", ", ".join(games), exc)


_outbox: Outbox[str] = Outbox("referee-live-publish", _deliver)


def wait_blocking(game_id: str, timeout: float) -> None:
    """For synchronous servers (WSGI, the test client): block this thread until an append to
    ``game_id`` is announced in this process, or for at most ``timeout`` seconds (callers
    re-read the log either way, so this doubles as a slow poll)."""
    game_id = str(game_id)
    end = time.monotonic() + timeout
    with _blocking:
        seen = _blocking_versions.get(game_id, 0)
        while _blocking_versions.get(game_id, 0) == seen:
            left = end - time.monotonic()
            if left <= 0:
                return
            _blocking.wait(min(left, 1.0))


def reader_count() -> int:
    """Readers waiting in this process now (long-polls and streams): for /health/."""
    with _hubs_lock:
        hubs = list(_hubs.values())
    return sum(h.readers() for h in hubs)


def hub() -> Hub:
    """This event loop's hub (created on first use)."""
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        found = _hubs.get(loop)
        if found is None:
            found = _hubs[loop] = Hub()
    return found


class Change:
    """Fires once, when the game's next read is in: every reader waiting on it wakes.

    What ``asyncio.wait_for(event.wait(), timeout)`` does, without its task per wait nor a
    loop timer per waiter: with hundreds of streams on a game, each new record woke as many
    tasks, then made and cancelled as many timers. The waiters' deadlines are kept in a heap
    of their own, and the loop holds one timer, for the earliest."""

    __slots__ = ("fired", "waiters", "_deadlines", "_timer")

    def __init__(self) -> None:
        self.fired = False
        self.waiters: set[asyncio.Future[bool]] = set()
        self._deadlines: list[tuple[float, int, asyncio.Future[bool]]] = []
        self._timer: asyncio.TimerHandle | None = None

    def fire(self) -> None:
        self.fired = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for waiter in self.waiters:
            if not waiter.done():
                waiter.set_result(True)
        self.waiters.clear()
        self._deadlines.clear()

    async def wait(self, timeout: float) -> bool:
        if self.fired:
            return True
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[bool] = loop.create_future()
        deadline = loop.time() + timeout
        self.waiters.add(waiter)
        heapq.heappush(self._deadlines, (deadline, next(_order), waiter))
        if self._timer is None or self._timer.when() > deadline:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = loop.call_at(deadline, self._time_up, loop)
        try:
            return await waiter
        finally:
            self.waiters.discard(waiter)

    def _time_up(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer = None
        # The loop runs a timer up to its clock's resolution early: a millisecond's grace.
        now = loop.time() + 0.001
        heap = self._deadlines
        while heap and (heap[0][0] <= now or heap[0][2].done()):
            waiter = heapq.heappop(heap)[2]
            if not waiter.done():
                waiter.set_result(False)
        if heap:
            self._timer = loop.call_at(heap[0][0], self._time_up, loop)


_order = itertools.count()  # ties between equal deadlines, without comparing futures


class GameFeed:
    """A watched game in one hub: its readers' viewers, the tail last read for them, and
    the event the next tail sets."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.viewers: Counter[Viewer] = Counter()
        self.tail: Tail | None = None
        self.changed = Change()
        self.running = False
        self.again = False
        self.idle_since = 0.0
        self.started = float("-inf")  # when the last read began (loop time)
        self.due: asyncio.TimerHandle | None = None  # a read put off by wake()


class Hub:
    """Per process and event loop: one subscription to appends, and per watched game one
    read per new head (``referee.fanout``), whatever the number of readers."""

    def __init__(self, executor: Executor | None = None) -> None:
        self._feeds: dict[str, GameFeed] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._executor = executor or DB_EXECUTOR
        self.redis_connected = False

    # --- readers ---------------------------------------------------------------------------

    def watch(self, game_id: str, viewer: Viewer) -> None:
        """Count a reader of ``game_id`` as ``viewer`` in, before its own first read: every
        append that commits after this reaches it through the tail."""
        self._ensure_started()
        game_id = str(game_id)
        feed = self._feeds.get(game_id)
        if feed is None:
            feed = self._feeds[game_id] = GameFeed(game_id)
        feed.viewers[viewer] += 1
        if feed.tail is None or viewer not in feed.tail.shares:
            self._refresh(feed)

    def unwatch(self, game_id: str, viewer: Viewer) -> None:
        game_id = str(game_id)
        feed = self._feeds.get(game_id)
        if feed is None:
            return
        feed.viewers[viewer] -= 1
        if feed.viewers[viewer] <= 0:
            del feed.viewers[viewer]
        if not feed.viewers:
            # Kept (and kept up to date) a little longer: a long-poll answered comes back
            # at once for what follows, and finds the game's read still there.
            feed.idle_since = time.monotonic()
            asyncio.get_running_loop().call_later(LINGER_SECONDS, self._drop_if_idle, feed)

    def _drop_if_idle(self, feed: GameFeed) -> None:
        if feed.viewers or self._feeds.get(feed.game_id) is not feed:
            return
        left = feed.idle_since + LINGER_SECONDS - time.monotonic()
        if left > 0.01:  # it had readers again since, then none: count from then
            asyncio.get_running_loop().call_later(left, self._drop_if_idle, feed)
            return
        del self._feeds[feed.game_id]

    def readers(self) -> int:
        return sum(sum(f.viewers.values()) for f in self._feeds.values())

    def share_of(self, game_id: str, viewer: Viewer) -> Share | None:
        """What ``viewer`` sees of the game's records as this process follows them now, or
        None when it does not follow the game (or not yet for that viewer's class). A
        followed game's tail takes in every append that commits (``wake``, the poll), so a
        reader may wait on it for what comes after."""
        feed = self._feeds.get(str(game_id))
        if feed is None or feed.tail is None:
            return None
        return feed.tail.shares.get(viewer)

    async def next_entries(self, game_id: str, viewer: Viewer, after: int, timeout: float) -> list[Entry] | None:
        """What ``viewer`` sees after its record ``after``, as soon as there is some, or []
        once ``timeout`` has passed; None when some of it is older than the shared tail
        (the reader reads that itself). The reader must be watching the game."""
        feed = self._feeds[str(game_id)]
        end = time.monotonic() + timeout
        while True:
            changed = feed.changed
            share = feed.tail.shares.get(viewer) if feed.tail is not None else None
            if share is None:
                self._refresh(feed)  # a class the last read did not know of yet
            else:
                found = share.after(after)
                if found is None or found:
                    return found
            left = end - time.monotonic()
            if left <= 0 or not await self.wait(changed, left):
                return []

    async def wait(self, change: Change, timeout: float) -> bool:
        """True when ``change`` fires, False when ``timeout`` passed first."""
        return await change.wait(timeout)

    def wake(self, game_id: str) -> None:
        """The log of ``game_id`` grew: read it once for its readers here, if any. At most
        one read starts per ``REFEREE_LIVE_COALESCE_SECONDS``: appends that follow each
        other closely reach the readers together, so a game written to many times a second
        costs its readers' process a bounded number of wake-ups (each a write per stream,
        an answer and a new request per long-poll), not one per append."""
        feed = self._feeds.get(str(game_id))
        if feed is None or feed.due is not None:
            return  # a read is already due, and it starts after this append committed
        loop = asyncio.get_running_loop()
        delay = feed.started + float(getattr(settings, "REFEREE_LIVE_COALESCE_SECONDS", 0.0)) - loop.time()
        if delay <= 0:
            self._refresh(feed)
        else:
            feed.due = loop.call_later(delay, self._refresh_due, feed)

    def _refresh_due(self, feed: GameFeed) -> None:
        feed.due = None
        if self._feeds.get(feed.game_id) is feed:
            self._refresh(feed)

    # --- the shared read -------------------------------------------------------------------

    def _refresh(self, feed: GameFeed) -> None:
        if feed.running:
            feed.again = True  # read again once the read under way is in: it may predate the append
            return
        feed.running = True
        asyncio.get_running_loop().create_task(self._read(feed))

    async def _read(self, feed: GameFeed) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                feed.again = False
                feed.started = loop.time()
                try:
                    # The classes shared out before stay while the game is followed: the
                    # same few (the public, each seat, moderators) come back at once.
                    before = feed.tail
                    classes = list(dict.fromkeys([*feed.viewers, *(before.shares if before else ())]))
                    feed.tail = await loop.run_in_executor(self._executor, _advance, feed.game_id, before, classes)
                except Exception as exc:  # the database away: try again shortly, readers keep waiting
                    log.warning("live: could not read the log of %s: %s", feed.game_id, exc)
                    await asyncio.sleep(1.0)
                    feed.again = bool(feed.viewers)
                else:
                    if _news(before, feed.tail):  # (an append announced twice, here and by Redis, is read once)
                        woken, feed.changed = feed.changed, Change()
                        woken.fire()
                if not feed.again or self._feeds.get(feed.game_id) is not feed:
                    return
        finally:
            feed.running = False

    # --- sources ---------------------------------------------------------------------------

    def _ensure_started(self) -> None:
        if self._tasks:
            return
        self._tasks.append(asyncio.get_running_loop().create_task(self._poll_forever()))
        if getattr(settings, "LIVE_REDIS_URL", None):
            self._tasks.append(asyncio.get_running_loop().create_task(self._listen_forever()))

    async def _listen_forever(self) -> None:
        import redis.asyncio as aioredis

        backoff = 0.5
        while True:
            client = aioredis.Redis.from_url(settings.LIVE_REDIS_URL, socket_connect_timeout=2)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(CHANNEL)
                    self.redis_connected, backoff = True, 0.5
                    # Appends announced while we were not subscribed: read again.
                    for game_id in list(self._feeds):
                        self.wake(game_id)
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            data = message["data"]
                            self.wake(data.decode() if isinstance(data, bytes) else str(data))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.redis_connected:
                    log.warning("live: lost Redis pub/sub (%s); falling back to the slow poll", exc)
            finally:
                self.redis_connected = False
                try:
                    await client.aclose()
                except Exception:  # closing a broken connection may fail again; nothing to save
                    pass
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 10.0)

    async def _poll_forever(self) -> None:
        """One query for all the watched games of this process, every few seconds: a game
        whose log is ahead of what its readers were given is read again."""
        while True:
            await asyncio.sleep(float(getattr(settings, "REFEREE_LIVE_POLL_SECONDS", 2.0)))
            games = list(self._feeds)
            if not games:
                continue
            try:
                latest = await asyncio.get_running_loop().run_in_executor(self._executor, _last_seqs, games)
            except Exception as exc:
                log.warning("live: the fallback poll failed: %s", exc)
                continue
            for game_id in games:
                feed = self._feeds.get(game_id)
                if feed is not None and (feed.tail is None or latest.get(game_id, 0) > feed.tail.head):
                    self._refresh(feed)


def _news(before: Tail | None, after: Tail) -> bool:
    """Whether a read gave the readers anything: a share is new whenever it has new entries
    (or its class is new, or the game's settings changed); one with nothing new is kept."""
    return before is None or any(share is not before.shares.get(viewer) for viewer, share in after.shares.items())


def _advance(game_id: str, tail: Tail | None, viewers: list[Viewer]) -> Tail:
    db_ready()
    return advance(game_id, tail, viewers)


def _last_seqs(game_ids: list[str]) -> dict[str, int]:
    from django.db.models import Max

    from referee.models import Event

    db_ready()
    rows = Event.objects.filter(game_id__in=game_ids).values("game_id").annotate(last=Max("seq"))
    return {str(r["game_id"]): int(r["last"] or 0) for r in rows}


def db_ready() -> None:
    """Before using this thread's connection in DB_EXECUTOR: drop it if it broke (these
    threads outlive requests, so Django's per-request clean-up never sees them)."""
    from django.db import connection

    if connection.connection is not None and connection.errors_occurred and not connection.is_usable():
        connection.close()
