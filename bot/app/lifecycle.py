"""Stopping in an order that leaves nothing running behind.

PTB's ``Application.stop`` processes the queued updates, then stops the job queue, whose
scheduler *cancels* the jobs still running (a question closing, an answer count refreshing);
what they were doing then finishes, or not, after the event loop is gone ("Task was destroyed
but it is pending", "no running event loop"). So before PTB's stop, this application:

1. tells the pacer the bot is stopping: a message waiting for its group's budget is not sent
   (the stored run sends it after the restart) instead of holding shutdown up for a minute;
   and the quizzes: a question due to close stays open (it closes after the restart, and the
   taps still queued are judged as usual) rather than wait for those taps;
2. ends the parsing workers (bot/banks/importers/sandbox.py, ``ParsePool.close``): PTB's stop
   waits for the running handlers, and one waiting on a hostile upload's parse would hold the
   stop up to the job's CPU limit (20 s), past the deploy's 10 s stop timeout (then SIGKILL).
   The handler gets ``Failed("stopping")`` at once, saves nothing and leaves its message
   unfinished: after the restart the sender is asked to send it again (bot/routing/guard.py);
3. drains the job queue (bot/tg/jobs.py, ``QuizJobQueue``: no new job starts, the running ones
   get a few seconds to finish), all on PTB's public API.
"""

from __future__ import annotations

from typing import Any

from telegram.ext import Application

from bot.services.container import Services
from bot.tg.jobs import QuizJobQueue


class QuizApplication(Application[Any, Any, Any, Any, Any, Any]):
    """PTB's Application with the stop order above."""

    async def stop(self) -> None:
        """Stop the pacer's waits, the parsing and the jobs first, then what PTB stops."""
        services = self.bot_data
        if isinstance(services, Services):
            services.pacer.stop()
            services.arrivals.stop()
            await services.parsing.close()
        queue = self.job_queue
        if isinstance(queue, QuizJobQueue):
            await queue.drain()
        await super().stop()
