"""No parsing worker outlives the bot (bot.banks.importers.sandbox): not after a stop, not after
the bot was killed with SIGKILL (no shutdown code runs), not when a job was still running.

Workers are found as the bot's child processes started by ``multiprocessing``'s spawn (/proc);
"gone" means ended (a zombie not yet collected by init counts as ended). Waiting is on that
condition, re-checked every 50 ms up to a deadline, which only a worker left running misses.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from botproc import BotProcess
from fakebot import FakeTelegram
from harness import BotHarness
from parsekit import spin
from test_authoring_upload import upload
from test_upload_hostile import say_slowly

from bot.banks.importers.sandbox import Failed, ParsePool

GIFT = b"Fine? {=yes ~no}\n"


def workers(pid: int) -> list[int]:
    """The running spawned workers of process ``pid`` (its pools' workers), from /proc."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _parent(int(entry.name)) == pid and _alive(int(entry.name)):
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if b"spawn_main" in command:
                out.append(int(entry.name))
    return out


def _stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command name (state first); [] if gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def _parent(pid: int) -> int:
    fields = _stat(pid)
    return int(fields[1]) if fields else 0


def _alive(pid: int) -> bool:
    """Running: not ended, not a zombie waiting to be collected."""
    fields = _stat(pid)
    return bool(fields) and fields[0] not in ("Z", "X")


async def gone(processes: list[int], timeout: float = 10.0) -> list[int]:  # noqa: ASYNC109
    """Wait until every one of ``processes`` ended; those still running at the deadline."""
    return await asyncio.to_thread(_wait_gone, processes, timeout)


def _wait_gone(processes: list[int], timeout: float) -> list[int]:
    deadline = time.monotonic() + timeout
    while (left := [p for p in processes if _alive(p)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


async def test_a_bot_killed_with_sigkill_leaves_no_worker(tg: FakeTelegram, db_path: Path) -> None:
    """The real process reads an upload in a worker, then is killed (SIGKILL): the worker, idle
    and waiting for its next job on a pipe it holds both ends of, ends with it."""
    ann = tg.add_user(71, "Ann")
    bot = await BotProcess(tg, db_path).start()
    try:
        await say_slowly(tg, ann, lambda: tg.user_sends_document(ann, "a.gift", GIFT), "saved as")
        assert bot.proc is not None
        spawned = workers(bot.proc.pid)
        assert spawned, "the upload was read in a worker process"
        await bot.kill()
        assert await gone(spawned) == []
    finally:
        await bot.close()


async def test_a_bot_stopped_with_sigterm_leaves_no_worker(tg: FakeTelegram, db_path: Path) -> None:
    ann = tg.add_user(71, "Ann")
    bot = await BotProcess(tg, db_path).start()
    try:
        await say_slowly(tg, ann, lambda: tg.user_sends_document(ann, "a.gift", GIFT), "saved as")
        assert bot.proc is not None
        spawned = workers(bot.proc.pid)
        assert spawned
        assert await bot.terminate(within=20) == 0
        assert await gone(spawned) == []
    finally:
        await bot.close()
    assert "Traceback" not in bot.stderr


async def test_the_application_shutdown_ends_its_workers(tg: FakeTelegram, db_path: Path) -> None:
    """In process: after the Application's stop and shutdown, none of the workers it spawned
    runs (the upload pool's; the test process's other children are left out)."""
    ann = tg.add_user(71, "Ann")
    before = set(workers(os.getpid()))
    async with BotHarness(tg, db_path):
        await upload(tg, ann, "a.gift", GIFT, "saved as")
        spawned = [p for p in workers(os.getpid()) if p not in before]
        assert spawned
    assert [p for p in spawned if _alive(p)] == []  # joined by the shutdown itself


def _wait_started(before: set[int]) -> list[int]:
    """The workers this process started besides ``before``, once there is one."""
    deadline = time.monotonic() + 30
    while not (mine := [p for p in workers(os.getpid()) if p not in before]):
        assert time.monotonic() < deadline, "no worker started"
        time.sleep(0.05)
    return mine


async def test_closing_the_pool_while_a_job_runs_starts_no_new_worker() -> None:
    """``close()`` kills a worker in the middle of a job: the job ends ("busy": the bot is
    stopping) instead of being retried on a new pool whose worker nobody would end."""
    pool = ParsePool(1, cpu_seconds=30)
    before = set(workers(os.getpid()))
    job = asyncio.ensure_future(pool.run(spin))
    mine = await asyncio.to_thread(_wait_started, before)
    await pool.close()
    assert await job == Failed("busy")
    assert await gone(mine) == []
    assert [p for p in workers(os.getpid()) if p not in before] == []
    assert await pool.run(spin) == Failed("busy")  # and none after
