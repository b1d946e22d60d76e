"""A service that acts through the running Application: its bot, job queue and tasks."""

from __future__ import annotations

from typing import Any

from telegram.ext import Application, ExtBot, JobQueue


class AppBound:
    """A service that acts through the running Application: its bot and its job queue."""

    _app: Application[Any, Any, Any, Any, Any, Any]

    @property
    def _bot(self) -> ExtBot[Any]:
        bot: ExtBot[Any] = self._app.bot
        return bot

    @property
    def _jobs(self) -> JobQueue[Any]:
        assert self._app.job_queue is not None
        return self._app.job_queue
