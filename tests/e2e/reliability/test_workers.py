"""No parsing worker outlives the bot (bot.banks.importers.sandbox): not after a stop, not after
the bot was killed with SIGKILL (no shutdown code runs), not when a job was still running; and a
stop does not wait for a job (the deploy's stop timeout is 10 s, a job may take 20).

Workers are found as the bot's child processes started by ``multiprocessing``'s spawn (/proc);
"gone" means ended (a zombie not yet collected by init counts as ended). Waiting is on that
condition, re-checked every 50 ms up to a deadline, which only a worker left running misses.
"""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import time
from pathlib import Path

from authorkit import say
from botproc import ROOT, BotProcess
from fakebot import FakeTelegram, User
from harness import BotHarness
from parsekit import HeldJobs, spin
from uploadkit import say_slowly, upload, wait_file

from bot.banks.importers.sandbox import Failed, ParsePool

GIFT = b"Fine? {=yes ~no}\n"
GATED = (str(ROOT / "tests" / "support" / "gatedbot.py"),)  # ``quizbot run``, each parsing job held


def stop_timeout() -> float:
    """Seconds the deploy gives the bot from SIGTERM to SIGKILL: the shorter of systemd's
    ``TimeoutStopSec`` and docker compose's ``stop_grace_period``."""
    unit = (ROOT / "deploy" / "quizbot.service").read_text()
    compose = (ROOT / "deploy" / "docker-compose.yml").read_text()
    found = re.search(r"^TimeoutStopSec=(\d+)$", unit, re.MULTILINE)
    grace = re.search(r"^\s*stop_grace_period: (\d+)s$", compose, re.MULTILINE)
    assert found is not None and grace is not None
    return float(min(int(found.group(1)), int(grace.group(1))))


def saved_quizzes(db_path: Path) -> int:
    """The stored quizzes (an upload saved), read from the database file."""
    with sqlite3.connect(db_path) as conn:
        return int(conn.execute("SELECT count(*) FROM authored_quizzes").fetchone()[0])


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


async def read_in_a_worker(tg: FakeTelegram, bot: BotProcess, user: User) -> list[int]:
    """``user`` uploads a bank; the worker processes the bot read it in."""
    await say_slowly(tg, user, lambda: tg.user_sends_document(user, "a.gift", GIFT), "saved as")
    assert bot.proc is not None
    spawned = workers(bot.proc.pid)
    assert spawned, "the upload was read in a worker process"
    return spawned


async def test_a_bot_killed_with_sigkill_leaves_no_worker(tg: FakeTelegram, db_path: Path) -> None:
    """The real process reads an upload in a worker, then is killed (SIGKILL): the worker, idle
    and waiting for its next job on a pipe it holds both ends of, ends with it."""
    ann = tg.add_user(71, "Ann")
    bot = await BotProcess(tg, db_path).start()
    try:
        spawned = await read_in_a_worker(tg, bot, ann)
        await bot.kill()
        assert await gone(spawned) == []
    finally:
        await bot.close()


async def test_a_bot_stopped_with_sigterm_leaves_no_worker(tg: FakeTelegram, db_path: Path) -> None:
    ann = tg.add_user(71, "Ann")
    bot = await BotProcess(tg, db_path).start()
    try:
        spawned = await read_in_a_worker(tg, bot, ann)
        assert await bot.terminate(within=20) == 0
        assert await gone(spawned) == []
    finally:
        await bot.close()
    assert "Traceback" not in bot.stderr


async def test_a_stop_while_an_upload_is_read_does_not_wait_for_it(
    tg: FakeTelegram, db_path: Path
) -> None:
    """SIGTERM while a worker holds an upload's job (at a gate the test never opens; by itself
    it would go on after ``GATE_SECONDS``, 90 s): the bot ends the job and exits within the
    deploy's stop timeout, no worker left; nothing of the file is saved and nothing is said
    then, and after the restart its sender is asked to send it again."""
    ann = tg.add_user(71, "Ann")
    gate = db_path.parent / "gate"
    gate.mkdir()
    bot = BotProcess(tg, db_path, QUIZBOT_TEST_GATE=str(gate))
    bot.command = GATED
    await bot.start()
    try:
        tg.user_sends_document(ann, "a.gift", GIFT)
        await wait_file(gate / "started")  # the file is being read, in a worker
        assert bot.proc is not None
        spawned = workers(bot.proc.pid)
        assert spawned
        assert await bot.terminate(within=stop_timeout()) == 0
        assert await gone(spawned) == []
    finally:
        await bot.close()
    assert "Traceback" not in bot.stderr
    assert not (gate / "gave_up").exists()
    assert tg.messages(ann.id) == []  # no "busy", no "saved as"
    assert saved_quizzes(db_path) == 0
    again = await BotProcess(tg, db_path).start()
    try:
        resend = "I restarted while working on the file you sent"
        await tg.wait_for_message(ann.id, resend, timeout=60)
        assert await again.terminate(within=20) == 0
    finally:
        await again.close()
    assert [m.text for m in tg.messages(ann.id)] == [
        f"{resend}, so it was not finished. Please send it again."
    ]
    assert saved_quizzes(db_path) == 0


async def test_a_stop_while_typed_questions_are_read_asks_for_them_again(
    tg: FakeTelegram, db_path: Path
) -> None:
    """In process, the same for Aiken text typed into a draft: the Application's stop ends the
    held job at once, nothing joins the draft and nothing is said; the restarted bot asks for
    the message again."""
    ann = tg.add_user(71, "Ann")
    gate = db_path.parent / "gate"
    gate.mkdir()
    async with BotHarness(tg, db_path) as bot:
        await bot.services.parsing.close()
        bot.services.parsing = pool = HeldJobs()
        pool.gate = str(gate)
        await say(tg, ann, "/newquiz Networks", "Now send the questions")
        before = len(tg.messages(ann.id))
        tg.user_says(ann.id, ann, "Which?\nA. x\nB. y\nANSWER: B")
        await wait_file(gate / "started")
    assert not (gate / "gave_up").exists()
    assert len(tg.messages(ann.id)) == before
    async with BotHarness(tg, db_path) as bot:
        await tg.wait_for_message(ann.id, "I restarted while working on your last message")
        draft = await bot.services.store.draft(ann.id)
        assert draft is not None and draft.title == "Networks" and draft.questions == "[]"


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
    """``close()`` kills a worker in the middle of a job: the job ends ("stopping") instead of
    being retried on a new pool whose worker nobody would end; a job still waiting for a
    worker ends the same way, and so does every job asked for after."""
    pool = ParsePool(1, cpu_seconds=30)
    before = set(workers(os.getpid()))
    job = asyncio.ensure_future(pool.run(spin))
    waiting = [asyncio.ensure_future(pool.run(spin)) for _ in range(3)]
    mine = await asyncio.to_thread(_wait_started, before)
    await pool.close()
    assert await asyncio.gather(job, *waiting) == [Failed("stopping")] * 4
    assert await gone(mine) == []
    assert [p for p in workers(os.getpid()) if p not in before] == []
    assert await pool.run(spin) == Failed("stopping")  # and none after
