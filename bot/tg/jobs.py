"""The bot's JobQueue: PTB's, with a stop that lets running jobs finish, and typed job data.

PTB's ``JobQueue.stop`` shuts the scheduler down, which *cancels* the jobs still running (a
question closing, an answer count refreshing): what they were doing then finishes, or not,
after the event loop is gone. :class:`QuizJobQueue` (a subclass on PTB's public API, as
python-telegram-bot/rules-bot does for its own stop order) knows which jobs run, through
``JobQueue.job_callback``, the one entry point of every job; :meth:`QuizJobQueue.drain` starts
no new job from then on and waits, a bounded time, for the running ones.

A job's data is ``object`` to PTB; :func:`job_data` gives it back as the type it was armed with
(checked), so no caller casts it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, TypeVar

from telegram.ext import CallbackContext, Job, JobQueue

log = logging.getLogger(__name__)

T = TypeVar("T")

#: seconds the running jobs get to finish at shutdown
JOBS_GRACE = 3.0


class QuizJobQueue(JobQueue[Any]):
    """PTB's JobQueue, stopping in an order that leaves no job half done."""

    def __init__(self, grace: float = JOBS_GRACE) -> None:
        super().__init__()
        self._grace = grace
        self._running: set[asyncio.Task[Any]] = set()
        self._draining = False

    @staticmethod
    async def job_callback(job_queue: JobQueue[Any], job: Job[Any]) -> None:
        """Every job goes off here (PTB's documented hook): run it unless the queue drains."""
        if not isinstance(job_queue, QuizJobQueue):  # pragma: no cover (only ours calls it)
            await job.run(job_queue.application)
            return
        if job_queue._draining:
            return  # stopping: the stored state re-arms it after the restart
        task = asyncio.current_task()
        if task is not None:
            job_queue._running.add(task)
        try:
            await job.run(job_queue.application)
        finally:
            if task is not None:
                job_queue._running.discard(task)

    @property
    def draining(self) -> bool:
        """Whether the queue is stopping: no job starts any more."""
        return self._draining

    async def drain(self) -> None:
        """Start no new job; wait (at most the grace time) for the running ones."""
        self._draining = True
        me = asyncio.current_task()
        running = [t for t in self._running if t is not me and not t.done()]
        if running:
            _, late = await asyncio.wait(running, timeout=self._grace)
            if late:
                log.warning("%d job(s) still running at shutdown", len(late))

    async def stop(self, wait: bool = True) -> None:
        """Let the running jobs finish first, then PTB's stop."""
        await self.drain()
        await super().stop(wait)


def job_data(context: CallbackContext[Any, Any, Any, Any], kind: type[T]) -> T:
    """The data the running job was armed with, as ``kind`` (TypeError if it is not)."""
    job = context.job
    if job is None:
        raise TypeError("not called from a job")
    data = job.data
    if not isinstance(data, kind):
        raise TypeError(f"job {job.name!r} carries {type(data).__name__}, not {kind.__name__}")
    return data
