"""The bot's overall budget: at most ``limit`` sends and edits in any sliding second, as
Telegram *receives* them, shared fairly between chats and by priority.

Telegram counts a request when it arrives, somewhere between when the bot starts it and when
the answer comes back. So a request holds a slot from the moment it is let through until it
completes, and then counts from its completion for one window (plus a margin). At any moment
``completed in the last window + in flight <= limit``; every request that arrives in some
second of Telegram's clock either completed within that second or was still in flight at its
end, so Telegram never sees more than ``limit`` in a second, however far starts and arrivals
drift apart under load.

When the budget is short, waiting requests are let through by priority (:data:`QUIZ` — a
question's post and its reveal — before :data:`NORMAL`: results, replies, private messages,
before :data:`EPHEMERAL`: messages only one user sees, which also leave ``reserve`` slots
free, so they never delay anything else), and among one priority, chat by chat in turn
(start-time fair queuing: a chat that has just been served queues behind the others, so none
starves). Optional requests never wait here:
:meth:`OverallBudget.try_take` gives them a slot only if one is free beyond ``reserve`` and
nobody is waiting.

A 429 from Telegram slows the whole bot, not one chat: nothing is let through until its
``retry_after`` has passed, and for ``penalty_seconds`` after it the limit is a third lower.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

QUIZ = 0  # a question's post and its reveal
NORMAL = 1  # results, replies, private messages: everything not marked otherwise
#: an ephemeral message (one student's explanation, a reply only its sender sees): the lowest,
#: let through only while ``reserve`` slots stay free for everything else
EPHEMERAL = 2


class Closed(Exception):
    """The budget was closed (the bot is stopping) while a request waited for it."""


@dataclass(order=True)
class _Waiter:
    priority: int
    tag: float
    seq: int
    future: asyncio.Future[None] = field(compare=False)
    chat: object = field(compare=False)


class OverallBudget:
    """See the module docstring. Single event loop; ``clock`` in seconds."""

    def __init__(
        self,
        limit: int,
        clock: Callable[[], float],
        *,
        window: float = 1.0,
        margin: float = 0.1,
        reserve: int = 3,
        penalty_seconds: float = 30.0,
    ) -> None:
        self.limit, self.span, self.reserve = limit, window + margin, reserve
        self.penalty_seconds = penalty_seconds
        self._clock = clock
        self._done: deque[float] = deque()
        self.in_flight = 0
        self._heap: list[_Waiter] = []
        self._seq = itertools.count()
        self._virtual = 0.0  # start-time fair queuing: the tag of the last request let through
        self._last_tag: dict[object, float] = {}
        self._paused_until = 0.0
        self._penalty_until = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._closed = False

    # --- state -----------------------------------------------------------------------------

    def current_limit(self) -> int:
        """The limit now: a third lower while a 429's penalty lasts."""
        if self._clock() < self._penalty_until:
            return max(1, self.limit - self.limit // 3)
        return self.limit

    def _trim(self, now: float) -> None:
        while self._done and self._done[0] <= now - self.span:
            self._done.popleft()

    def free(self) -> int:
        """Slots free now (0 while paused by a 429)."""
        now = self._clock()
        if now < self._paused_until:
            return 0
        self._trim(now)
        return self.current_limit() - len(self._done) - self.in_flight

    def waiting(self) -> int:
        return sum(1 for w in self._heap if not w.future.done())

    # --- taking and giving back ------------------------------------------------------------

    async def take(self, priority: int, chat: object) -> None:
        """Wait for a slot (in turn, by priority); :class:`Closed` if the bot stops first."""
        if self._closed:
            raise Closed
        tag = max(self._virtual, self._last_tag.get(chat, 0.0)) + 1.0
        self._last_tag[chat] = tag
        if len(self._last_tag) > 4096:
            self._last_tag = {k: v for k, v in self._last_tag.items() if v > self._virtual}
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._heap, _Waiter(priority, tag, next(self._seq), future, chat))
        self._pump()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled() and future.exception() is None:
                self.in_flight -= 1  # granted, but its task was cancelled before sending
                self._pump()
            raise

    def try_take(self) -> bool:
        """A slot now for an optional request, if one is free beyond the reserve and no one
        waits; False otherwise (the request is skipped, never delayed)."""
        if self._closed or self.waiting() or self.free() <= self.reserve:
            return False
        self.in_flight += 1
        return True

    def give_back(self, *, sent: bool = True) -> None:
        """The request holding a slot completed (``sent``: it may have reached Telegram, so
        it counts for a window from now) or never left."""
        self.in_flight -= 1
        if sent:
            self._done.append(self._clock())
        self._pump()

    def refused(self, retry_after: float) -> None:
        """Telegram answered 429: pause everyone for ``retry_after``, then a lower limit."""
        now = self._clock()
        self._paused_until = max(self._paused_until, now + retry_after)
        self._penalty_until = max(self._penalty_until, now + retry_after + self.penalty_seconds)
        self._pump()

    def close(self) -> None:
        """The bot is stopping: every waiter gets :class:`Closed`."""
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
        for waiter in self._heap:
            if not waiter.future.done():
                waiter.future.set_exception(Closed())
        self._heap.clear()

    # --- the dispatcher --------------------------------------------------------------------

    def _pump(self) -> None:
        """Let waiters through, best first, while there are free slots; else wake up later."""
        while self._heap and self._heap[0].future.done():
            heapq.heappop(self._heap)  # cancelled while waiting
        while self._heap and self.free() > 0:
            if self._heap[0].priority >= EPHEMERAL and self.free() <= self.reserve:
                break  # the last slots stay for the quiz, results and replies
            waiter = heapq.heappop(self._heap)
            if waiter.future.done():
                continue
            self.in_flight += 1
            self._virtual = max(self._virtual, waiter.tag)
            waiter.future.set_result(None)
        if self._heap and self._timer is None:
            needed = self.reserve + 1 if self._heap[0].priority >= EPHEMERAL else 1
            delay = self._next_free_in(needed)
            if delay is not None:
                self._timer = asyncio.get_running_loop().call_later(delay, self._wake)

    def _wake(self) -> None:
        self._timer = None
        self._pump()

    def _next_free_in(self, needed: int = 1) -> float | None:
        """Seconds until ``needed`` slots may be free by time alone; None if only a
        completion frees them."""
        now = self._clock()
        if now < self._paused_until:
            return self._paused_until - now + 0.001
        over = len(self._done) + self.in_flight - self.current_limit() + needed
        if over <= 0:
            return 0.001  # the penalty ends (or nothing holds a slot): look again
        if over > len(self._done):
            return None
        return max(self._done[over - 1] + self.span - now, 0.001)
