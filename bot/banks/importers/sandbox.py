"""Reading user files in worker processes: the event loop never waits on user input.

A pure-Python parser holds the GIL, so a thread does not keep the bot answering while a hostile
file is read (a parse on the event loop once left every group's taps unanswered for over a
minute). Here each job runs in a process of a small pool (``spawn``: no copy of the bot's
loop, sockets or database), under limits set in the worker:

- CPU time: ``RLIMIT_CPU`` allows each job ``cpu_seconds`` more than the worker has used so
  far; past it the kernel ends the worker (SIGXCPU);
- memory: ``RLIMIT_AS``; a job that asks for more gets MemoryError;
- wall time: a job not done in ``wall_seconds`` (a machine too loaded, or a worker stuck) has
  its workers killed.

Whatever goes wrong becomes a :class:`Failed` value the caller words for the user ("this file
took too long to read"); the pool is replaced after a worker died, so the next upload is read
as usual. ``close()`` ends the workers as the bot begins to stop (bot/app/lifecycle.py), so a
stop never waits for a parse: the jobs running or waiting then end as ``Failed("stopping")``,
and so does every job asked for after it; the caller leaves its message unfinished
(bot/routing/guard.py), and after the restart the sender is asked to send it again.

A worker never outlives the bot: killed with SIGKILL, the bot runs no shutdown code, and a worker
waiting for its next job would wait forever (it holds both ends of its job queue's pipe, so it
never sees the end of the file). So each worker asks the kernel for SIGKILL when its parent
dies (Linux ``PR_SET_PDEATHSIG``; jobs are submitted from the event loop's thread, which lives as
long as the bot), and a thread of its own checks every ``WATCH_SECONDS`` that its parent is still
the bot (other systems, and the moment before the request took effect).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import math
import multiprocessing
import os
import resource
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Literal, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

CPU_SECONDS = 20  # a 1 MB upload reads in under 2 s of CPU; only a blow-up needs more
MEMORY_BYTES = 1024 * 1024 * 1024  # address space of a worker (Python itself takes ~100 MB)
WALL_SECONDS = 120.0
MAX_PENDING = 16  # jobs waiting or running; more get "busy, send it again"
WATCH_SECONDS = 0.5  # how often a worker checks that the bot that started it still runs
_PR_SET_PDEATHSIG = 1  # prctl(2)


@dataclass(frozen=True, slots=True)
class Failed:
    """Why a job gave no result: it ran out of CPU time or memory, or its worker died
    ("too_long"), too many jobs were waiting ("busy"), or the pool was closed: the bot is
    stopping ("stopping")."""

    reason: Literal["too_long", "busy", "stopping"]


def _limit_worker(memory_bytes: int, parent: int) -> None:
    """The worker initializer: its memory limit, no core file when SIGXCPU ends it, and its
    end when the bot (pid ``parent``) ends."""
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    """In the worker: end it as soon as its parent is no longer the bot (which died)."""
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def _run_limited(cpu_seconds: int, fn: Callable[..., T], args: tuple[object, ...]) -> T | Failed:
    """In the worker: ``fn(*args)`` with at most ``cpu_seconds`` more of CPU time."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = math.ceil(usage.ru_utime + usage.ru_stime)
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    soft = used + cpu_seconds
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    try:
        return fn(*args)
    except (MemoryError, RecursionError):
        return Failed("too_long")


class ParsePool:
    """Worker processes for parsing user input, started on first use."""

    def __init__(
        self,
        workers: int = 2,
        *,
        cpu_seconds: int = CPU_SECONDS,
        memory_bytes: int = MEMORY_BYTES,
        wall_seconds: float = WALL_SECONDS,
        max_pending: int = MAX_PENDING,
    ) -> None:
        self.workers, self.cpu_seconds, self.memory_bytes = workers, cpu_seconds, memory_bytes
        self.wall_seconds, self.max_pending = wall_seconds, max_pending
        self._executor: ProcessPoolExecutor | None = None
        self._pending = 0
        self._closed = False
        self.failures = 0  # jobs that ended as Failed("too_long"), for tests and logs

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_limit_worker,
                initargs=(self.memory_bytes, os.getpid()),
            )
        return self._executor

    async def run(self, fn: Callable[..., T], *args: object) -> T | Failed:
        """``fn(*args)`` in a worker (``fn`` a module-level function, arguments and result
        picklable); a :class:`Failed` instead of raising when it could not finish."""
        if self._closed:
            return Failed("stopping")
        if self._pending >= self.max_pending:
            return Failed("busy")
        self._pending += 1
        try:
            for attempt in (1, 2):
                # a worker that died fails every job of its pool: each gets one more try on a
                # fresh pool, so only the job that kills its worker twice is refused; never
                # after close(), whose killing of the workers ended this job
                pool = self._pool()
                future = asyncio.wrap_future(pool.submit(_run_limited, self.cpu_seconds, fn, args))
                try:
                    result = await asyncio.wait_for(future, self.wall_seconds)
                except asyncio.CancelledError:
                    if self._closed and not _cancelling():
                        return Failed("stopping")  # a job still waiting: close() cancelled it
                    raise
                except TimeoutError:
                    log.warning("a parsing job ran over %s s: workers killed", self.wall_seconds)
                    self._discard(pool)
                    break
                except BrokenProcessPool:
                    if self._closed:
                        return Failed("stopping")  # close() killed its worker
                    log.warning("a parsing worker died (attempt %d)", attempt)
                    self._discard(pool)
                    continue
                if isinstance(result, Failed):
                    break
                return result
            self.failures += 1
            return Failed("too_long")
        finally:
            self._pending -= 1

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        """Kill ``pool``'s workers; the next job starts a new pool."""
        if self._executor is pool:
            self._executor = None
        for process in list((pool._processes or {}).values()):
            process.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """End the workers (as the bot begins to stop): the jobs waiting are cancelled, the
        running ones killed; each, and every later one, ends as ``Failed("stopping")``."""
        self._closed = True
        pool, self._executor = self._executor, None
        if pool is None:
            return
        processes = list((pool._processes or {}).values())
        self._discard(pool)
        await asyncio.to_thread(_join, processes)


def _cancelling() -> bool:
    """Whether the running task itself is being cancelled (not only the job it waits for)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _join(processes: Sequence[multiprocessing.process.BaseProcess]) -> None:
    for process in processes:
        process.join(5)
