"""bot/tg/arrivals.py: a lull wakes the work waiting for it once, not on every update."""

from __future__ import annotations

import asyncio
from typing import Literal

import pytest
from telegram import Update

from bot.tg.arrivals import Arrivals

IN_FLIGHT = 40
WAITERS = 10
MOST = 4


async def test_a_lull_wakes_its_waiters_once_not_on_every_update(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A class's many explanations wait for its burst of taps to end: each update answered
    must not wake them all (a thousand waiters woken a thousand times)."""
    waits: list[asyncio.Event] = []
    all_waiting = asyncio.Event()

    class CountingEvent(asyncio.Event):
        async def wait(self) -> Literal[True]:
            waits.append(self)
            if len(waits) >= WAITERS:
                all_waiting.set()
            return await super().wait()

    monkeypatch.setattr(asyncio, "Event", CountingEvent)
    arrivals = Arrivals(lambda: 0.0, lambda update: None)
    updates = [Update(update_id=i) for i in range(IN_FLIGHT)]
    for update in updates:
        arrivals.arrived(update)
    waiters = [asyncio.create_task(arrivals.lull(MOST, 600.0)) for _ in range(WAITERS)]
    await all_waiting.wait()
    for update in updates[: IN_FLIGHT - MOST]:
        arrivals.done(update)
        await asyncio.sleep(0)  # a waiter woken here would run and wait again
    await asyncio.gather(*waiters)  # the lull came: every waiter went on
    assert len(waits) == WAITERS  # once each
