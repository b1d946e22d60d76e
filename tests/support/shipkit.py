"""Helpers for tests that run the real ``quizbot`` command as a separate process.

The process gets a clean environment (no QUIZBOT_* or TELEGRAM_* variables from the caller) and
runs in a working directory of the test's own, so no ``.env`` file of a developer is read.
Standard output and error are read continuously (at DEBUG level the bot writes a lot, and a full
pipe would block it) and kept for the test to search.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from fakebot import FakeTelegram
from harness import TOKEN, BotHarness

ROOT = Path(__file__).resolve().parents[2]

__all__ = ["ROOT", "TOKEN", "QuizbotProcess", "healthcheck", "quizbot_env"]


#: the operator's locale, which the ``quizbot`` command speaks: one for each language
LOCALE = {"en": "C.UTF-8", "bn": "bn_BD.UTF-8"}
#: not inherited from the caller's environment (so the command speaks English unless told)
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def quizbot_env(tg: FakeTelegram | None, db: Path | None, **extra: str) -> dict[str, str]:
    """The environment of a test bot: the caller's, minus its bot settings, plus ours."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("QUIZBOT_", "TELEGRAM_")) and k not in LOCALE_VARIABLES
    }
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    env["PTB_TIMEDELTA"] = "1"
    env["QUIZBOT_QUESTIONS"] = str(ROOT / "questions")
    if tg is not None:
        env.update(
            TELEGRAM_BOT_TOKEN=TOKEN,
            QUIZBOT_API_URL=tg.base_url,
            QUIZBOT_GROUP_WINDOW=str(BotHarness.WINDOW),
            QUIZBOT_COUNT_INTERVAL="0.3",
            QUIZBOT_LANGUAGE="en",
        )
    if db is not None:
        env["QUIZBOT_DB"] = str(db)
    env.update(extra)
    return env


async def healthcheck(env: Mapping[str, str], cwd: Path) -> tuple[int, str]:
    """Run the container health check (deploy/healthcheck.py): exit code and standard error."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "deploy" / "healthcheck.py"),
        cwd=cwd,
        env=dict(env),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode is not None
    return proc.returncode, err.decode(errors="replace")


class QuizbotProcess:
    """``python -m bot.cli ARGS...`` (or ``command ARGS...``) in ``cwd`` with ``env``; output
    collected as it comes."""

    def __init__(
        self,
        env: Mapping[str, str],
        cwd: Path,
        *args: str,
        command: Sequence[str] = (sys.executable, "-m", "bot.cli"),
    ) -> None:
        self.env, self.cwd = dict(env), cwd
        self.args = args or ("run",)
        self.command = tuple(command)
        self.proc: asyncio.subprocess.Process | None = None
        self._out: list[str] = []
        self._err: list[str] = []
        self._pumps: list[asyncio.Task[None]] = []

    async def start(self) -> QuizbotProcess:
        self.proc = await asyncio.create_subprocess_exec(
            *self.command,
            *self.args,
            cwd=self.cwd,
            env=self.env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._pumps = [
            asyncio.create_task(self._pump(self.proc.stdout, self._out)),
            asyncio.create_task(self._pump(self.proc.stderr, self._err)),
        ]
        return self

    @staticmethod
    async def _pump(stream: asyncio.StreamReader, sink: list[str]) -> None:
        while line := await stream.readline():
            sink.append(line.decode("utf-8", errors="replace"))

    @property
    def stdout(self) -> str:
        return "".join(self._out)

    @property
    def stderr(self) -> str:
        return "".join(self._err)

    async def wait(self, timeout: float = 10.0) -> int:  # noqa: ASYNC109
        """Wait for the process to exit (and its output to be read); its exit code."""
        assert self.proc is not None
        code = await asyncio.wait_for(self.proc.wait(), timeout)
        await asyncio.wait_for(asyncio.gather(*self._pumps), timeout)
        return code

    async def stop(self, sig: int = signal.SIGTERM, timeout: float = 10.0) -> int:  # noqa: ASYNC109
        """Send ``sig`` and wait at most ``timeout`` seconds for the exit; its exit code."""
        assert self.proc is not None
        self.proc.send_signal(sig)
        return await self.wait(timeout)

    async def close(self) -> None:
        """Kill the process if it still runs (for ``finally``)."""
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            await self.proc.wait()
        for pump in self._pumps:
            pump.cancel()
        for pump in self._pumps:
            with contextlib.suppress(asyncio.CancelledError):
                await pump
