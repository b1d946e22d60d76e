"""When each update reached the bot, and which taps are still on their way to being judged.

A tap is judged by when it *arrived* (in a getUpdates answer, or a webhook request), not by
when the bot got round to it: under load the two can be seconds apart. PTB hands every update,
polled or pushed, to the application's update queue; :class:`ArrivalQueue` stamps it there with
the bot's injected clock. Taps on a question are also counted as *pending* under a key (the
run) until the quiz judged them, so closing a question can first wait for the taps that arrived
before its deadline (:meth:`Arrivals.settled`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

from telegram import Update
from telegram.ext import SimpleUpdateProcessor


class Arrivals:
    """Arrival times of the updates in flight, and the pending taps per key."""

    def __init__(
        self, clock: Callable[[], float], key: Callable[[Update], Hashable | None]
    ) -> None:
        self._clock, self._key = clock, key
        self._at: dict[int, float] = {}  # update id -> arrival, until processed
        self._pending: dict[Hashable, dict[int, float]] = {}  # key -> update id -> arrival
        self._keys: dict[int, Hashable] = {}  # update id -> key, for the pending ones
        self._waiters: dict[Hashable, list[asyncio.Event]] = {}
        self._room = asyncio.Event()
        #: one event per threshold waited for in :meth:`lull`, set only once the updates in
        #: flight are down to it (a class's many explanations do not wake on every update)
        self._lulls: dict[int, asyncio.Event] = {}
        self.stopped = False
        self._last = time.monotonic()  # the last arrival, on the machine's clock

    def quiet_for(self) -> float:
        """Seconds (real ones) since the last update reached the bot: background work such as
        converting stored quizzes waits for a quiet moment."""
        return time.monotonic() - self._last

    def stop(self) -> None:
        """The bot is stopping: nothing waits for pending taps any more."""
        self.stopped = True
        self._room.set()
        for event in self._lulls.values():
            event.set()
        for waiters in self._waiters.values():
            for event in waiters:
                event.set()

    def arrived(self, update: object) -> None:
        """Stamp an update that just reached the bot."""
        if not isinstance(update, Update):
            return
        now = self._clock()
        self._last = time.monotonic()
        self._at[update.update_id] = now
        key = self._key(update)
        if key is not None:
            self._pending.setdefault(key, {})[update.update_id] = now
            self._keys[update.update_id] = key

    def at(self, update: Update) -> float:
        """When ``update`` arrived (now, for an update that was never stamped)."""
        found = self._at.get(update.update_id)
        return found if found is not None else self._clock()

    def settle(self, update_id: int) -> None:
        """The update is judged: closing its question need not wait for it any more."""
        key = self._keys.pop(update_id, None)
        pending = self._pending.get(key) if key is not None else None
        if pending is None or pending.pop(update_id, None) is None:
            return
        if not pending:
            del self._pending[key]
        for event in self._waiters.get(key, ()):
            event.set()

    def done(self, update: object) -> None:
        """The update was processed (or dropped): forget it."""
        if isinstance(update, Update):
            self.settle(update.update_id)
            self._at.pop(update.update_id, None)
            self._room.set()
            for most, event in self._lulls.items():
                if len(self._at) <= most:
                    event.set()

    async def room(self, limit: int) -> None:
        """Wait until fewer than ``limit`` updates are in flight."""
        while len(self._at) >= limit and not self.stopped:
            self._room.clear()
            await self._room.wait()

    async def lull(self, most: int, timeout: float, quiet: float = 0.0) -> None:  # noqa: ASYNC109
        """Wait, at most ``timeout`` seconds, until at most ``most`` updates are in flight and
        none has arrived for ``quiet`` seconds (long polling hands a burst over in batches, with
        nothing in flight between two): work that must never delay answering (an explanation
        after a tap) goes between bursts."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(timeout, 0.0)):
                while not self.stopped:
                    if len(self._at) > most:
                        event = self._lulls.setdefault(most, asyncio.Event())
                        event.clear()
                        await event.wait()
                    elif (still := quiet - self.quiet_for()) > 0:
                        await asyncio.sleep(still)
                    else:
                        return

    def waiting(self, key: Hashable) -> bool:
        """Whether something waits in :meth:`settled` for ``key`` now."""
        return bool(self._waiters.get(key))

    async def settled(self, key: Hashable, cutoff: float, timeout: float) -> bool:  # noqa: ASYNC109
        """Wait until every tap under ``key`` that arrived at or before ``cutoff`` is judged,
        at most ``timeout`` seconds; False if some were still pending then."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + timeout
        event = asyncio.Event()
        waiters = self._waiters.setdefault(key, [])
        waiters.append(event)
        try:
            while any(at <= cutoff for at in self._pending.get(key, {}).values()):
                left = give_up - loop.time()
                if left <= 0 or self.stopped:
                    return False
                event.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), left)
            return True
        finally:
            waiters.remove(event)
            if not waiters:
                del self._waiters[key]


class ArrivalQueue(asyncio.Queue[object]):
    """The application's update queue, stamping each update as it is put in.

    At most ``limit`` updates are in the bot at once (arrived, not yet processed): beyond that,
    ``put`` waits, so polling pauses (the rest wait at Telegram, not in memory) and a webhook
    request is answered only once there is room. A bot far behind keeps its memory bounded;
    a bot keeping up never meets the limit.
    """

    def __init__(self, arrivals: Arrivals, limit: int = 1000) -> None:
        super().__init__()
        self.arrivals, self.limit = arrivals, limit

    async def put(self, item: object) -> None:
        if isinstance(item, Update):
            await self.arrivals.room(self.limit)
        self.put_nowait(item)

    def put_nowait(self, item: object) -> None:
        self.arrivals.arrived(item)
        super().put_nowait(item)


class ArrivalProcessor(SimpleUpdateProcessor):
    """PTB's concurrent update processor, forgetting each update once it is processed."""

    def __init__(self, max_concurrent_updates: int, arrivals: Arrivals) -> None:
        super().__init__(max_concurrent_updates)
        self.arrivals = arrivals

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        try:
            await coroutine
        finally:
            self.arrivals.done(update)
