"""``referee.live.Change``: what a game's readers wait on between two reads of its log. Every
waiter wakes with True when it fires, or with False once its own time is up; however many
wait, the loop holds one timer for them (a timer per waiter was made and cancelled for every
reader at every record)."""

from __future__ import annotations

import asyncio
from typing import Any

from referee.live import Change


class CountingLoop(asyncio.SelectorEventLoop):
    """An event loop that counts the timers scheduled on it."""

    timers = 0

    def call_at(self, when: float, callback: Any, *args: Any, context: Any = None) -> asyncio.TimerHandle:
        CountingLoop.timers += 1
        return super().call_at(when, callback, *args, context=context)


def run(coro: Any) -> Any:
    loop = CountingLoop()
    CountingLoop.timers = 0
    try:
        return loop.run_until_complete(coro)
    finally:
        loop.close()


def test_every_waiter_wakes_with_true_when_the_change_fires():
    async def scenario() -> list[bool]:
        change = Change()
        waits = [asyncio.ensure_future(change.wait(3600)) for _ in range(50)]
        await asyncio.sleep(0)
        change.fire()
        return await asyncio.gather(*waits)

    assert run(scenario()) == [True] * 50


def test_a_change_that_fired_answers_at_once():
    async def scenario() -> bool:
        change = Change()
        change.fire()
        return await change.wait(3600)

    assert run(scenario()) is True


def test_each_waiter_gets_false_when_its_own_time_is_up_and_the_others_wait_on():
    async def scenario() -> tuple[list[bool], bool]:
        change = Change()
        short = [asyncio.ensure_future(change.wait(0.01 * (i + 1))) for i in range(5)]
        long = asyncio.ensure_future(change.wait(3600))
        timed_out = await asyncio.gather(*short)
        assert not long.done()
        change.fire()
        return timed_out, await long

    assert run(scenario()) == ([False] * 5, True)


def test_hundreds_of_waiters_hold_one_timer_on_the_loop():
    async def scenario() -> int:
        change = Change()
        waits = [asyncio.ensure_future(change.wait(15 + i / 1000)) for i in range(600)]
        await asyncio.sleep(0)
        change.fire()
        await asyncio.gather(*waits)
        return CountingLoop.timers

    assert run(scenario()) == 1


def test_a_waiter_cancelled_leaves_the_others_waiting():
    async def scenario() -> list[bool]:
        change = Change()
        gone = asyncio.ensure_future(change.wait(0.01))
        stays = [asyncio.ensure_future(change.wait(0.02)), asyncio.ensure_future(change.wait(3600))]
        await asyncio.sleep(0)
        gone.cancel()
        first = await stays[0]
        change.fire()
        return [first, await stays[1]]

    assert run(scenario()) == [False, True]
