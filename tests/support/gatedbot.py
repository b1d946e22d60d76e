"""``quizbot run`` whose parsing jobs each wait in their worker for a gate (``parsekit.gated``:
the folder named by ``QUIZBOT_TEST_GATE``), so that a test can stop the real process while a job
is held (tests/e2e/reliability/test_workers.py). Run as a script: ``python
tests/support/gatedbot.py``."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # parsekit, for the workers too

from parsekit import HeldJobs
from telegram.ext import Application

from bot.app import application
from bot.cli import main

_build = application.build_application


def held(*args: Any, **kwargs: Any) -> Application[Any, Any, Any, Any, Any, Any]:
    """The bot as ``quizbot run`` builds it, its parsing jobs held at the gate."""
    app = _build(*args, **kwargs)
    pool = HeldJobs()
    pool.gate = os.environ["QUIZBOT_TEST_GATE"]
    app.bot_data.parsing = pool
    return app


if __name__ == "__main__":  # not in a spawned worker, which imports this module too
    application.build_application = held
    raise SystemExit(main(["run"]))
