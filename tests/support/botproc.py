"""The real ``quizbot run`` as a separate process, against the fake server."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from fakebot import FakeTelegram
from harness import TOKEN, BotHarness

ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    """Start, kill and restart ``python -m bot.cli run`` with a test environment."""

    #: the Python arguments that run the bot (tests/support/gatedbot.py: its parsing jobs held)
    command: tuple[str, ...] = ("-m", "bot.cli", "run")

    def __init__(self, tg: FakeTelegram, db: Path, **env: str) -> None:
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "PTB_TIMEDELTA": "1",
            "TELEGRAM_BOT_TOKEN": TOKEN,
            "QUIZBOT_API_URL": tg.base_url,
            "QUIZBOT_DB": str(db),
            "QUIZBOT_GROUP_WINDOW": str(BotHarness.WINDOW),
            "QUIZBOT_COUNT_INTERVAL": "0.3",
            "QUIZBOT_LANGUAGE": "en",
            "QUIZBOT_LOG_LEVEL": "INFO",
            **env,
        }
        self.proc: asyncio.subprocess.Process | None = None
        self.workdir = db.parent  # not the checkout: a developer's .env there must not leak in
        self.log_path = db.parent / "bot-stderr.log"

    async def start(self) -> BotProcess:
        # stderr goes to a file, so a chatty bot can never block on a full pipe
        with self.log_path.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                *self.command,
                cwd=self.workdir,
                env={**self.env, "PYTHONPATH": str(ROOT)},
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        return self

    async def _collect(self) -> None:
        assert self.proc is not None
        await self.proc.wait()

    async def kill(self) -> None:
        """SIGKILL: no shutdown code runs at all."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await asyncio.wait_for(self._collect(), 10)

    async def terminate(self, within: float = 10.0) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(self._collect(), within)
        assert self.proc.returncode is not None
        return self.proc.returncode

    async def close(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self._collect()

    @property
    def stderr(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
