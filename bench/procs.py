"""Starting, driving and stopping the benchmark's processes: fake server, bot, baseline."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import psutil  # type: ignore[import-untyped,unused-ignore]

ROOT = Path(__file__).absolute().parent.parent
TOKEN = "4242:bench-token"


class BenchError(RuntimeError):
    """A scenario could not run (a process died, a wait timed out)."""


async def _spawn(
    args: list[str],
    env: Mapping[str, str] | None = None,
    stdout: int | None = None,
    stderr: Any = None,
) -> asyncio.subprocess.Process:
    full = dict(os.environ)
    full.update(env or {})
    return await asyncio.create_subprocess_exec(
        sys.executable,
        *args,
        cwd=str(ROOT),
        env=full,
        stdout=stdout,
        stderr=stderr,
        start_new_session=True,
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


async def _stop(proc: asyncio.subprocess.Process, timeout: float = 20.0) -> int:  # noqa: ASYNC109
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
    return proc.returncode if proc.returncode is not None else -1


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time a process used so far."""
    try:
        times = psutil.Process(pid).cpu_times()
    except psutil.Error:
        return 0.0
    return float(times.user + times.system)


class Server:
    """The fake Bot API in its own process, with its control endpoint."""

    def __init__(self, proc: asyncio.subprocess.Process, api_port: int, ctl_port: int) -> None:
        self.proc = proc
        self.api_port, self.ctl_port = api_port, ctl_port
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=120))

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.api_port}/bot"

    @classmethod
    async def start(cls, window: float = 60.0, rtt: float = 0.0, overall: int = 0) -> Server:
        """``overall``: enforce Telegram's overall limit (sends+edits a second; 0: off)."""
        proc = await _spawn(
            ["-m", "bench.server_proc", str(window), str(rtt), str(overall)],
            stdout=asyncio.subprocess.PIPE,
        )
        assert proc.stdout is not None
        line = await asyncio.wait_for(proc.stdout.readline(), 30)
        parts = line.decode().split()
        if len(parts) != 3 or parts[0] != "READY":
            await _stop(proc)
            raise BenchError(f"fake server did not start: {line!r}")
        return cls(proc, int(parts[1]), int(parts[2]))

    async def call(self, op: str, body: Mapping[str, Any] | None = None) -> Any:
        url = f"http://127.0.0.1:{self.ctl_port}/ctl/{op}"
        async with self._session.post(url, json=dict(body or {})) as resp:
            resp.raise_for_status()
            return await resp.json()

    async def wait(
        self,
        predicate: Any,
        timeout: float,  # noqa: ASYNC109
        what: str,
        interval: float = 0.05,
    ) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            progress = await self.call("progress")
            if predicate(progress):
                return progress
            if time.monotonic() > deadline:
                raise BenchError(f"timed out waiting for {what}: {progress}")
            await asyncio.sleep(interval)

    def cpu_seconds(self) -> float:
        return cpu_seconds(self.proc.pid)

    async def stop(self) -> None:
        with contextlib.suppress(Exception):
            await self.call("quit")
            await asyncio.wait_for(self.proc.wait(), 10)  # no SIGTERM into a closing loop
        await self._session.close()
        await _stop(self.proc)


@dataclass
class RssSampler:
    """Samples a process's resident set size in the background; keeps the peak."""

    pid: int
    interval: float = 0.05
    peak: int = 0
    samples: list[int] = field(default_factory=list)
    _task: asyncio.Task[None] | None = None

    def current(self) -> int:
        try:
            return int(psutil.Process(self.pid).memory_info().rss)
        except psutil.Error:
            return 0

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop())

    async def _loop(self) -> None:
        proc = psutil.Process(self.pid)
        while True:
            try:
                rss = int(proc.memory_info().rss)
            except psutil.Error:
                return
            self.samples.append(rss)
            self.peak = max(self.peak, rss)
            await asyncio.sleep(self.interval)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


class Bot:
    """quizbot (``python -m bot.cli run``, kind "bot") or a bare PTB bot (kind: a variant of
    bench/baseline_bot.py), as a child process, polling or (``webhook``) serving a webhook.
    Its standard error goes to ``log``."""

    def __init__(self, proc: asyncio.subprocess.Process, kind: str, log: Path) -> None:
        self.proc, self.kind, self.log = proc, kind, log
        self.profiler: asyncio.subprocess.Process | None = None

    @classmethod
    async def start(
        cls,
        server: Server,
        kind: str,
        *,
        db: Path | None = None,
        env: Mapping[str, str] | None = None,
        webhook: bool = False,
        log: Path | None = None,
    ) -> Bot:
        values = {
            "TELEGRAM_BOT_TOKEN": TOKEN,
            "QUIZBOT_API_URL": server.api_url,
            "QUIZBOT_LOG_LEVEL": "WARNING",
            "QUIZBOT_LANGUAGE": "en",
            "PTB_TIMEDELTA": "1",
        }
        if db is not None:
            values["QUIZBOT_DB"] = str(db)
        if kind != "bot":
            values["BENCH_VARIANT"] = kind
        if webhook:
            port = free_port()
            values["QUIZBOT_WEBHOOK_URL"] = f"http://127.0.0.1:{port}/telegram"
            values["QUIZBOT_LISTEN"] = f"127.0.0.1:{port}"
        values.update(env or {})
        module = ["-m", "bot.cli", "run"] if kind == "bot" else ["-m", "bench.baseline_bot"]
        if log is None:
            log = Path(tempfile.mkdtemp(prefix="quizbot-bench-log-")) / f"{kind}.log"
        with log.open("wb") as sink:
            proc = await _spawn(module, values, stderr=sink)
        bot = cls(proc, kind, log)
        profile_dir = os.environ.get("QUIZBOT_BENCH_PYSPY")
        if profile_dir:  # sample the process with py-spy, written when it exits
            out = Path(profile_dir) / f"{kind}-{proc.pid}.txt"
            os.makedirs(profile_dir, exist_ok=True)
            bot.profiler = await asyncio.create_subprocess_exec(
                str(Path(sys.executable).parent / "py-spy"),
                "record",
                "--pid",
                str(proc.pid),
                "--format",
                "raw",
                "--rate",
                os.environ.get("QUIZBOT_BENCH_PYSPY_RATE", "200"),
                "-o",
                str(out),
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL,
            )
        # ready once it long-polls (initialize, post_init and the first getUpdates are done),
        # or once its webhook is set
        try:
            await server.wait(
                lambda p: (
                    (p["webhook"] if webhook else p["pollers"] > 0) or proc.returncode is not None
                ),
                60,
                f"{kind} to start",
            )
        except BaseException:
            await bot.stop()
            raise
        if proc.returncode is not None:
            raise BenchError(
                f"{kind} exited with {proc.returncode} at start-up: "
                f"{log.read_text(errors='replace')[-2000:]}"
            )
        return bot

    @property
    def pid(self) -> int:
        return int(self.proc.pid)

    def cpu_seconds(self) -> float:
        return cpu_seconds(self.proc.pid)

    async def stop(self, timeout: float = 30.0) -> int:  # noqa: ASYNC109
        """SIGTERM, then SIGKILL after ``timeout`` s; raise if it failed on its own."""
        code = await _stop(self.proc, timeout)
        if self.profiler is not None:
            await asyncio.wait_for(self.profiler.wait(), 30)
        if code not in (0, -signal.SIGTERM, -signal.SIGKILL):
            raise BenchError(f"{self.kind} exited with {code}")
        return code
