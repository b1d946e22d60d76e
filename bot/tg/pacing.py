"""Pacing of everything the bot sends, as a PTB rate limiter.

Telegram allows a group at most 20 sends and edits in any sliding minute, and a bot about 30
messages a second overall. PTB's AIORateLimiter is a leaky bucket that lets a burst through
beyond the group limit, so this limiter keeps an exact sliding window per group instead:

- Sends and edits to a group (negative chat id) wait, in order, for a slot in the window.
  Requests to one group are serialized, so a question is never posted before the reveal of the
  one before it, and the window counts from the moment each request *finished* (the server
  received it no later), which keeps Telegram's own count within the limit.
- A request marked ``OPTIONAL`` (the "N answered" refresh, replies to students' commands in a
  group) never waits: it goes only if the window keeps ``reserve`` slots free for the quiz
  itself, and raises :class:`Skipped` otherwise.
- Every send and edit, in any chat, also takes a slot of the bot's overall budget
  (bot/tg/overall.py): at most 30 in any sliding second as Telegram receives them, by priority
  (``QUIZ``: a question's post and its reveal; then everything else; optional requests are
  skipped, not delayed, when it is short), chat by chat in turn. A 429 slows the whole bot.
  With paid broadcasts on (``paid_per_second``), a send that finds no free slot goes at once
  with ``allow_paid_broadcast`` (0.1 Telegram Stars each) instead of waiting.
- An ephemeral message (seen by one user in a group: an explanation after a tap, a reply to a
  student's own command) spends no group's budget and takes the overall budget at the lowest
  priority (``EPHEMERAL``), leaving its reserve to everything else; it waits at most until its
  ``max_wait`` (the tap's callback window) and is then :class:`Skipped`.
- Answers to callback queries and lookups (getChatAdministrators ...) are not throttled.
- ``RetryAfter`` (429) is waited out and retried; so are network errors that happened before the
  request could reach Telegram (bot/tg/transport.py raises those as ``NEVER_SENT``). Errors after
  which the request may have been carried out are retried only for idempotent methods (edits,
  lookups), so a question is never posted twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from telegram.constants import FloodLimit
from telegram.error import BadRequest, NetworkError, RetryAfter, TimedOut
from telegram.ext import BaseRateLimiter

from bot.tg.overall import EPHEMERAL, NORMAL, QUIZ, Closed, OverallBudget
from bot.tg.transport import NEVER_SENT

T = TypeVar("T")

log = logging.getLogger(__name__)

OPTIONAL = {"optional": True}  # send only if the budget has room now
PAID_BROADCAST_PER_SECOND = 1000  # Telegram's limit for allow_paid_broadcast sends
# a question's post and its reveal: first when the overall budget is short
URGENT: dict[str, object] = {"priority": QUIZ}


def optional(max_wait: float) -> dict[str, object]:
    """Send when the budget has room within ``max_wait`` seconds, else skip."""
    return {"optional": True, "max_wait": max_wait}


def ephemeral(max_wait: float) -> dict[str, object]:
    """An ephemeral message: the lowest priority of the overall budget, waiting at most
    ``max_wait`` seconds for a slot (then :class:`Skipped`); no group's budget is spent."""
    return {"priority": EPHEMERAL, "max_wait": max_wait}


def is_ephemeral(endpoint: str, data: dict[str, Any]) -> bool:
    """An ephemeral message's send, edit or deletion: seen by one user, outside the group's
    visible traffic."""
    return "Ephemeral" in endpoint or data.get("ephemeral_message_parameters") is not None


_IDEMPOTENT_PREFIXES = ("edit", "get", "set", "delete")


class Skipped(Exception):
    """An optional request was not sent: the group's budget is kept for the quiz."""


class Stopped(Exception):
    """The bot is stopping: a request that would have to wait for its turn is not sent."""


class SlidingWindow:
    """At most ``limit`` events in any ``window`` seconds, measured on ``clock``."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float]) -> None:
        self.limit, self.window, self._clock = limit, window, clock
        self._times: deque[float] = deque()
        self.lock = asyncio.Lock()

    def _trim(self, now: float) -> None:
        while self._times and self._times[0] <= now - self.window:
            self._times.popleft()

    def free(self) -> int:
        self._trim(self._clock())
        return self.limit - len(self._times)

    def wait_time(self) -> float:
        now = self._clock()
        self._trim(now)
        if len(self._times) < self.limit:
            return 0.0
        return self._times[len(self._times) - self.limit] + self.window - now

    def time_until(self, free: int) -> float:
        """Seconds until at least ``free`` slots are free (0 if they are now)."""
        now = self._clock()
        self._trim(now)
        over = len(self._times) - (self.limit - free)
        if over <= 0:
            return 0.0
        return self._times[over - 1] + self.window - now

    def record(self) -> None:
        self._times.append(self._clock())

    def idle(self) -> bool:
        return not self._times or self._times[-1] <= self._clock() - self.window


def counts_overall(endpoint: str) -> bool:
    """Sends and edits, in any chat, spend the bot's overall budget (chat actions do not)."""
    return endpoint.startswith(("send", "edit", "copy", "forward")) and endpoint != "sendChatAction"


def counts_against_group(endpoint: str, chat_id: object) -> bool:
    """Sends and edits into a group or supergroup (negative ids) spend its budget."""
    if not isinstance(chat_id, int) or chat_id >= 0:
        return False
    return endpoint.startswith(("send", "edit", "copy", "forward"))


class GroupPacer(BaseRateLimiter[dict[str, Any]]):
    """The bot's rate limiter; see the module docstring."""

    def __init__(
        self,
        *,
        group_limit: int = FloodLimit.MESSAGES_PER_MINUTE_PER_GROUP,
        group_window: float = 60.0,
        reserve: int = 5,
        overall_per_second: int = FloodLimit.MESSAGES_PER_SECOND,
        paid_per_second: int = 0,
        max_retries: int = 5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.group_limit, self.group_window, self.reserve = group_limit, group_window, reserve
        self.max_retries = max_retries
        self._clock = clock
        self._groups: dict[int, SlidingWindow] = {}
        self.overall = OverallBudget(overall_per_second, clock)
        # paid broadcasts: what Telegram allows beyond the free limit, with allow_paid_broadcast
        self.paid = OverallBudget(paid_per_second, clock) if paid_per_second > 0 else None
        self._stopping = asyncio.Event()

    def stop(self) -> None:
        """The bot is stopping: requests waiting for their turn (or to retry) give up with
        :class:`Stopped` instead, so shutdown is not held up by a group's budget."""
        self._stopping.set()
        self.overall.close()
        if self.paid is not None:
            self.paid.close()

    async def _sleep(self, seconds: float) -> None:
        """Sleep, unless the bot is (or starts) stopping: then raise Stopped."""
        if not self._stopping.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), seconds)
        if self._stopping.is_set():
            raise Stopped

    async def initialize(self) -> None:
        """Nothing to open."""

    async def shutdown(self) -> None:
        """Nothing to close."""

    def group(self, chat_id: int) -> SlidingWindow:
        window = self._groups.get(chat_id)
        if window is None:
            if len(self._groups) > 1024:
                for key in [k for k, w in self._groups.items() if w.idle()]:
                    del self._groups[key]
            window = self._groups[chat_id] = SlidingWindow(
                self.group_limit, self.group_window, self._clock
            )
        return window

    def spare_in(self, chat_id: int) -> float:
        """Seconds until the group's window has room for an optional request beyond the quiz's
        reserve (0: now; a private chat has no group window)."""
        if chat_id >= 0:
            return 0.0
        return self.group(chat_id).time_until(self.reserve + 1)

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: dict[str, Any] | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        chat_id: Any = data.get("chat_id")
        with contextlib.suppress(TypeError, ValueError):
            chat_id = int(chat_id)
        optional = bool(rate_limit_args and rate_limit_args.get("optional"))
        priority = int(rate_limit_args.get("priority", NORMAL)) if rate_limit_args else NORMAL
        slot = _Slot(self, endpoint, chat_id, priority, optional, data)
        if priority >= EPHEMERAL and rate_limit_args is not None:
            slot.deadline = self._clock() + float(rate_limit_args.get("max_wait", 0.0))
        if is_ephemeral(endpoint, data) or not counts_against_group(endpoint, chat_id):
            counted = counts_overall(endpoint) and chat_id is not None
            result: bool | dict[str, Any] | list[dict[str, Any]] = await self._attempts(
                callback, args, kwargs, endpoint, slot if counted else None
            )
            return result
        assert isinstance(chat_id, int)
        window = self.group(chat_id)
        if optional:
            await self._wait_for_spare(
                window,
                float(rate_limit_args.get("max_wait", 0.0)) if rate_limit_args else 0.0,
                endpoint,
            )
        async with window.lock:
            delay = window.wait_time()
            if delay > 0:
                log.debug("pacing %s in chat %s for %.1fs", endpoint, chat_id, delay)
                await self._sleep(delay)
            try:
                result = await self._attempts(callback, args, kwargs, endpoint, slot)
                return result
            finally:
                window.record()

    async def unthrottled(self, endpoint: str, call: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """``call()`` (a request that counts against no budget, such as answering a callback
        query, made outside PTB's ``Bot``), retried by the same rules as every request."""
        result: T = await self._attempts(call, (), {}, endpoint, None)
        return result

    async def _wait_for_spare(self, window: SlidingWindow, max_wait: float, endpoint: str) -> None:
        """Wait up to ``max_wait`` for the window to have more than ``reserve`` free slots."""
        give_up = self._clock() + max_wait
        while window.lock.locked() or window.free() <= self.reserve:
            delay = max(window.time_until(self.reserve + 1), 0.05)
            if self._clock() + delay > give_up:
                raise Skipped(endpoint)
            await self._sleep(delay)

    async def _attempts(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        slot: _Slot | None,
    ) -> Any:
        for attempt in range(self.max_retries + 1):
            budget = await slot.take() if slot is not None else None
            sent = True
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as exc:
                if attempt == self.max_retries:
                    raise
                wait = exc.retry_after
                seconds = wait if isinstance(wait, int) else wait.total_seconds()
                log.warning(
                    "Telegram asked to wait %ss before %s (attempt %d)",
                    seconds,
                    endpoint,
                    attempt + 1,
                )
                if budget is not None:
                    budget.refused(seconds)
                await self._sleep(seconds + 0.05)
            except BadRequest:
                raise
            except (TimedOut, NetworkError) as exc:
                sent = not isinstance(exc, NEVER_SENT)
                if attempt == self.max_retries or not _retry_is_safe(endpoint, exc):
                    raise
                log.warning("network error on %s, retrying: %s", endpoint, type(exc).__name__)
                await self._sleep(min(0.2 * 2**attempt, 2.0))
            finally:
                if budget is not None:
                    budget.give_back(sent=sent)
        raise AssertionError("unreachable")


class _Slot:
    """How one request takes its slot of the overall budget at each attempt."""

    __slots__ = ("_pacer", "chat_id", "data", "deadline", "endpoint", "optional", "priority")

    def __init__(
        self,
        pacer: GroupPacer,
        endpoint: str,
        chat_id: object,
        priority: int,
        optional: bool,
        data: dict[str, Any],
    ) -> None:
        self._pacer, self.endpoint, self.chat_id = pacer, endpoint, chat_id
        self.priority, self.optional, self.data = priority, optional, data
        self.deadline: float | None = None  # an ephemeral message: skipped past this time

    async def take(self) -> OverallBudget:
        """The budget this attempt holds a slot of (Skipped, Stopped)."""
        pacer = self._pacer
        if pacer._stopping.is_set():
            raise Stopped
        if self.optional:
            if not pacer.overall.try_take():
                raise Skipped(self.endpoint)
            return pacer.overall
        if self.deadline is not None:
            return await self._take_by(self.deadline)
        try:
            if pacer.paid is not None and self.endpoint.startswith("send"):
                if pacer.overall.free() <= 0 and pacer.paid.free() > 0:
                    await pacer.paid.take(self.priority, self.chat_id)
                    self.data["allow_paid_broadcast"] = True
                    return pacer.paid
                self.data.pop("allow_paid_broadcast", None)
            await pacer.overall.take(self.priority, self.chat_id)
        except Closed:
            raise Stopped from None
        return pacer.overall

    async def _take_by(self, deadline: float) -> OverallBudget:
        """A slot of the lowest priority by ``deadline`` (never a paid one), else Skipped."""
        pacer = self._pacer
        wait = deadline - pacer._clock()
        if wait <= 0:
            raise Skipped(self.endpoint)
        try:
            await asyncio.wait_for(pacer.overall.take(self.priority, self.chat_id), wait)
        except TimeoutError:
            raise Skipped(self.endpoint) from None
        except Closed:
            raise Stopped from None
        return pacer.overall


def _retry_is_safe(endpoint: str, exc: Exception) -> bool:
    """True if the request surely did not reach Telegram, or repeating it changes nothing."""
    return isinstance(exc, NEVER_SENT) or endpoint.startswith(_IDEMPOTENT_PREFIXES)
