"""Stopping in an order that leaves nothing running behind.

PTB's ``Application.stop`` processes the queued updates, then stops the job queue, whose
scheduler *cancels* the jobs still running (a question closing, an answer count refreshing);
what they were doing then finishes, or not, after the event loop is gone ("Task was destroyed
but it is pending", "no running event loop"). So before PTB's stop, this application:

1. tells the pacer the bot is stopping: a message waiting for its group's budget is not sent
   (the stored run sends it after the restart) instead of holding shutdown up for a minute;
   and the quizzes: a question due to close stays open (it closes after the restart, and the
   taps still queued are judged as usual) rather than wait for those taps;
2. pauses the scheduler (no new job starts) and lets the running jobs finish.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from telegram.ext import Application

from bot.services.container import Services

log = logging.getLogger(__name__)

JOBS_GRACE = 3.0  # seconds the running jobs get to finish


class QuizApplication(Application[Any, Any, Any, Any, Any, Any]):
    """PTB's Application with the stop order above."""

    async def stop(self) -> None:
        """Stop the pacer's waits and the jobs first, then what PTB stops."""
        services = self.bot_data
        if isinstance(services, Services):
            services.pacer.stop()
            services.arrivals.stop()
        queue = self.job_queue
        if queue is not None and queue.scheduler.running:
            queue.scheduler.pause()
            executor = queue.scheduler._lookup_executor("default")
            running = [f for f in getattr(executor, "_pending_futures", ()) if not f.done()]
            if running:
                _, late = await asyncio.wait(running, timeout=JOBS_GRACE)
                if late:
                    log.warning("%d job(s) still running at shutdown", len(late))
        await super().stop()
