"""Stored quizzes saved before the JSON form (schema 9) converted after start-up, off the loop.

Such a row holds only its bank text, and reading it means parsing and validating the YAML again
(~15 ms for 20 questions: bot/banks/yaml_reader.py). Doing that on the event loop, even one quiz
at a time with pauses between, delayed every command by several milliseconds for minutes after
an upgrade (10,000 quizzes: 150 s of parsing). So the parsing runs in one worker process of its
own, at the lowest CPU priority (nice 19): the loop only reads a small batch of bank
texts (the reader's thread), hands it over, and writes the JSON that comes back in one short
transaction. Published quizzes go first: every group's ``/quiz`` lists them.

Stopping never waits for a batch being parsed: the worker is killed, and what it had not written
is converted at the next start (writing is idempotent). A row that cannot be converted stays as
it is (logged) and is still served from its bank text; a batch whose worker died is skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from bot.banks.convert_worker import Converted, convert_rows
from bot.banks.importers.sandbox import Failed, ParsePool
from bot.core.bank import Limits
from bot.storage import StoreBase

log = logging.getLogger(__name__)

BATCH = 10  # rows per step: ~0.15 s of parsing in the worker, ~0.4 MB written in one transaction
START_DELAY = 1.0  # seconds after start-up before the worker starts (start-up first)
QUIET = 0.5  # a batch starts once no update came for this long (seconds) ...
MAX_PAUSE = 10.0  # ... or this long after the previous batch, so a busy bot converts too
WORKER_CPU_SECONDS = 60  # per batch; a batch that needs more is skipped


class Converter:
    """Converts the old rows of one store in the background (:meth:`start`, :meth:`stop`)."""

    def __init__(
        self,
        store: StoreBase,
        limits: Limits,
        pool: ParsePool | None = None,
        quiet_for: Callable[[], float] | None = None,
    ) -> None:
        """``quiet_for``: seconds since the bot last received an update (None: never wait)."""
        self._store, self._limits, self._quiet_for = store, limits, quiet_for
        self._pool = pool
        self._own_pool = pool is None
        self._task: asyncio.Task[int] | None = None
        self._parsing: asyncio.Future[list[Converted] | Failed] | None = None
        self._stopping = asyncio.Event()
        self.converted = 0  # rows given their JSON so far (tests, logs)

    def start(self, delay: float = START_DELAY) -> None:
        """Convert in a task of its own, ``delay`` seconds from now."""
        self._stopping.clear()
        self._task = asyncio.get_running_loop().create_task(
            self._run_later(delay), name="quizbot-convert-stored"
        )

    def running(self) -> bool:
        """Whether the conversion has yet to finish (or to be stopped)."""
        return self._task is not None and not self._task.done()

    async def _run_later(self, delay: float) -> int:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), delay)
        return 0 if self._stopping.is_set() else await self.run()

    async def run(self) -> int:
        """Convert every old row (published ones first); returns how many were converted."""
        done = 0
        if await self._store.authored_all_converted():
            return 0
        try:
            for published_only in (True, False):
                after = 0
                while not self._stopping.is_set():
                    batch = await self._store.authored_unconverted(
                        after, BATCH, published_only=published_only
                    )
                    if not batch:
                        break
                    after = batch[-1][0]
                    done += await self._convert(batch)
                    await self._quiet_moment()
        finally:
            await self._close_pool()
        if done:
            log.info("%d stored quiz(zes) converted to the fast form", done)
        return done

    async def _quiet_moment(self) -> None:
        """Wait until no update came for ``QUIET`` seconds, at most ``MAX_PAUSE``: commands
        and taps arriving get the machine to themselves, a busy bot still converts."""
        if self._quiet_for is None:
            return
        waited = 0.0
        while waited < MAX_PAUSE and self._quiet_for() < QUIET:
            step = min(QUIET - self._quiet_for(), MAX_PAUSE - waited)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), max(step, 0.01))
            if self._stopping.is_set():
                return
            waited += max(step, 0.01)

    async def _convert(self, batch: list[tuple[int, str]]) -> int:
        if self._pool is None:
            self._pool = ParsePool(1, cpu_seconds=WORKER_CPU_SECONDS, max_pending=1)
        self._parsing = asyncio.ensure_future(self._pool.run(convert_rows, batch, self._limits))
        try:
            result = await self._parsing
        except asyncio.CancelledError:
            if not self._stopping.is_set():
                raise
            return 0  # stopped while the worker parsed: nothing written
        finally:
            self._parsing = None
        if isinstance(result, Failed):
            log.error(
                "stored quizzes u.%d to u.%d could not be converted", batch[0][0], batch[-1][0]
            )
            return 0
        bodies = []
        for quiz_no, bank_json, why in result:
            if bank_json is None:
                log.error("stored quiz u.%s cannot be converted: %s", quiz_no, why)
            else:
                bodies.append((quiz_no, bank_json))
        if not self._stopping.is_set():
            await self._store.save_authored_json(bodies)
            self.converted += len(bodies)
            return len(bodies)
        return 0

    async def stop(self) -> None:
        """Stop at once: a batch being parsed is dropped (its worker killed), a batch being
        written is finished (one short transaction); before the store closes."""
        task, self._task = self._task, None
        self._stopping.set()
        if self._parsing is not None:
            self._parsing.cancel()
        if task is not None:
            try:
                await task
            except Exception:
                log.exception("converting stored quizzes failed")
        await self._close_pool()

    async def _close_pool(self) -> None:
        pool, self._pool = self._pool, (None if self._own_pool else self._pool)
        if pool is not None and self._own_pool:
            await pool.close()
