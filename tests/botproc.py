"""The real ``quizbot run`` as a separate process, against the fake server."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from fakebot import FakeTelegram
from harness import TOKEN, BotHarness

ROOT = Path(__file__).resolve().parent.parent


class BotProcess:
    """Start, kill and restart ``python -m bot.cli run`` with a test environment."""

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
        self.logs: list[bytes] = []

    async def start(self) -> BotProcess:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "run", cwd=ROOT, env=self.env,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE)
        return self

    async def _collect(self) -> None:
        assert self.proc is not None
        _, err = await self.proc.communicate()
        self.logs.append(err)

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
        return b"".join(self.logs).decode(errors="replace")
