"""The fence: every name the bot takes from python-telegram-bot's or APScheduler's private
modules, and nothing else.

PTB keeps some types it uses in its own public signatures in private modules
(``telegram._utils``, ``telegram.request._requestparameter``), and the JobQueue runs on
APScheduler, whose "job already gone" error PTB lets through. The rest of ``bot/`` imports these
from here, never from ``telegram._*`` or ``apscheduler.*`` (tests/unit/tg/test_ptb_internals.py
fails on any such import elsewhere), so a PTB upgrade has one place to look at.

What the bot relies on beyond PTB's public API is held by the contract test of this module,
tests/unit/tg/test_ptb_internals.py, on the PTB version the lock file pins:

* these names exist and behave as used (``DEFAULT_NONE`` is a ``DefaultValue``,
  ``RequestParameter`` turns JSON values into a request's parameters, ``JobLookupError`` is
  what cancelling a job raises while it goes off);
* the update fast path (bot/tg/updates.py: the taps of one getUpdates answer share one
  ``Message``) builds objects equal, field for field, to PTB's own ``Update.de_json``.
"""

from __future__ import annotations

import contextlib
from typing import Any

from apscheduler.jobstores.base import JobLookupError
from telegram._utils.defaultvalue import DEFAULT_NONE, DefaultValue
from telegram._utils.types import JSONDict, ODVInput, TimePeriod
from telegram.ext import Job
from telegram.request._requestparameter import RequestParameter

__all__ = [
    "DEFAULT_NONE",
    "DefaultValue",
    "JSONDict",
    "JobLookupError",
    "ODVInput",
    "RequestParameter",
    "TimePeriod",
    "remove_job",
]


def remove_job(job: Job[Any]) -> None:
    """``job.schedule_removal()``, also for a job going off right now (APScheduler took it out
    of its store already and raises ``JobLookupError``): either way it will not run again."""
    with contextlib.suppress(JobLookupError):
        job.schedule_removal()
