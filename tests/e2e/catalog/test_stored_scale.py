"""Many stored quizzes: ``/myquizzes`` does the same work whether 20 or 2,000 other
quizzes are stored (SQLite instructions run, lines of the bot's code run: no scan, in the
database or in memory), and the rows saved before the JSON form are converted by a worker
process, published ones first, the event loop's process never parsing them; stopping does not
wait for a batch being parsed."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from authorkit import say
from fakebot import FakeTelegram
from harness import BotHarness
from quizkit import ROOT, until
from storedkit import ZERO_YAML, old_file

import bot.banks.yaml_reader
from bot.app.store import Store
from bot.banks import authored_convert, convert_worker
from bot.banks.authored import AuthoredCatalog
from bot.banks.authored_convert import BATCH, Converter
from bot.banks.catalog import Catalog
from bot.banks.importers.sandbox import ParsePool
from bot.core.bank import Quiz
from bot.core.limits import bank_limits
from bot.storage.schema import migrate

BOT_CODE = str(ROOT / "bot") + os.sep
AUTHOR = 61
LIVE = next(n for n in range(BATCH + 1, BATCH + 4) if n % 3)  # past the first batch, not deleted


def new_file(path: Path, others: int) -> None:
    """A file as this version writes it: ``others`` quizzes of 400 other authors, and one quiz
    of ``AUTHOR``."""
    body = bot.banks.yaml_reader.parse_quiz(ZERO_YAML, "zero", "zero").to_json()
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn)
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO authored_quizzes (author_id, name, title, language, bank_yaml,"
        " question_count, origin, published, created_at) VALUES (?, ?, ?, 'bn', ?, 8, 'yaml',"
        " ?, 1.0)",
        [(5000 + n % 400, f"other-{n}", f"Other {n}", ZERO_YAML, int(n < 3)) for n in range(others)]
        + [(AUTHOR, "mine", "Mine", ZERO_YAML, 0)],
    )
    conn.execute(
        "INSERT INTO authored_bodies (quiz_no, bank_json) SELECT quiz_no, ? FROM authored_quizzes",
        (body,),
    )
    conn.commit()
    conn.close()


class Work:
    """SQLite virtual-machine instructions run on the store's connections, and lines of the
    bot's own code run on this thread, while counting."""

    def __init__(self) -> None:
        self.sqlite = 0
        self.lines = 0
        self.on = False

    def step(self) -> int:
        if self.on:
            self.sqlite += 1
        return 0

    def trace(self, frame: FrameType, event: str, arg: Any) -> Any:
        if not frame.f_code.co_filename.startswith(BOT_CODE):
            return None
        if event == "line":
            self.lines += 1
        return self.trace

    @contextmanager
    def counting(self) -> Iterator[None]:
        self.on = True
        sys.settrace(self.trace)
        try:
            yield
        finally:
            sys.settrace(None)
            self.on = False


async def myquizzes_work(tmp_path: Path, tg: FakeTelegram, others: int) -> Work:
    path = tmp_path / f"{others}.db"
    new_file(path, others)
    teacher = tg.add_user(AUTHOR, "Farhana")
    work = Work()
    async with BotHarness(tg, path) as harness:
        svc = harness.services
        await tg.wait_for(lambda: not svc.authored.converting())
        assert len(svc.authored.live()) == others + 1
        store = svc.store
        await store._rconn.set_progress_handler(work.step, 1)
        await store._wconn.set_progress_handler(work.step, 1)
        store._now_reader().set_progress_handler(work.step, 1)
        await say(tg, teacher, "/myquizzes", "mine")  # warm: the user's language, caches
        with work.counting():
            reply = await say(tg, teacher, "/myquizzes", "mine")
        assert "other-" not in reply.text
    return work


async def test_myquizzes_work_does_not_grow_with_other_stored_quizzes(
    tmp_path: Path, tg: FakeTelegram
) -> None:
    few = await myquizzes_work(tmp_path, tg, 20)
    many = await myquizzes_work(tmp_path, tg, 2_000)
    assert few.sqlite > 0 and few.lines > 0  # the counters saw the command
    # a scan of the other 1,980 quizzes would cost at least one instruction or line each
    assert many.sqlite - few.sqlite < 200, (few.sqlite, many.sqlite)
    assert many.lines - few.lines < 200, (few.lines, many.lines)


def _no_parsing_here(*args: object, **kwargs: object) -> Quiz:
    raise AssertionError("a stored quiz was parsed in the event loop's process")


async def test_old_rows_are_converted_in_a_worker_process_published_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.db"
    old_file(path, 2 * BATCH + 5)  # every third deleted, u.1 published
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE authored_quizzes SET published = 1 WHERE quiz_no = ?", (LIVE,))
    # the worker is a fresh interpreter: patched here, parsing fails only in this process
    monkeypatch.setattr(bot.banks.yaml_reader, "parse_quiz", _no_parsing_here)
    monkeypatch.setattr(convert_worker, "parse_quiz", _no_parsing_here)
    async with await Store.open(path) as store:
        saved: list[list[int]] = []
        save = store.save_authored_json

        async def record(bodies: list[tuple[int, str]]) -> None:
            saved.append([n for n, _ in bodies])
            await save(bodies)

        monkeypatch.setattr(store, "save_authored_json", record)
        authored = AuthoredCatalog(Catalog(), bank_limits())
        await authored.load(store)
        assert await authored.convert_old() == 2 * BATCH + 5
        assert saved[0] == [1, LIVE]  # the published ones, first
        assert await store.authored_unconverted(0, 100) == []
        assert await store.authored_all_converted()
        quiz = authored.quiz("u.7")  # from JSON now: no parsing
        assert quiz is not None and quiz.id == "u.7" and len(quiz.questions) == 8
        # nothing left to convert: no worker is started at all
        assert await Converter(store, bank_limits()).run() == 0


class NeverDone(ParsePool):
    """A pool whose job never finishes (a long batch), to stop in the middle of."""

    def __init__(self) -> None:
        super().__init__(1)
        self.started = False

    async def run(self, fn: Any, *args: object) -> Any:
        self.started = True
        await asyncio.Event().wait()


async def test_stop_does_not_wait_for_a_batch_being_parsed(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old_file(path, 5)
    async with await Store.open(path) as store:
        pool = NeverDone()
        converter = Converter(store, bank_limits(), pool)
        converter.start(delay=0)
        await until(lambda: pool.started)
        await converter.stop()  # returns although the batch never finishes
        assert not converter.running() and converter.converted == 0
        assert len(await store.authored_unconverted(0, 100)) == 5  # converted at next start


async def test_stop_kills_the_worker_and_keeps_what_was_written(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old_file(path, 6 * BATCH)
    async with await Store.open(path) as store:
        converter = Converter(store, bank_limits())
        converter.start(delay=0)
        await until(lambda: converter.converted >= BATCH)  # a real worker, running
        pool = converter._pool
        assert pool is not None and pool._executor is not None
        workers = list((pool._executor._processes or {}).values())
        await converter.stop()
        assert workers and not any(w.is_alive() for w in workers)
        left = await store.authored_unconverted(0, 1000)
        assert 0 < converter.converted < 6 * BATCH  # stopped in the middle
        assert converter.converted + len(left) == 6 * BATCH  # what was written stays


async def test_conversion_waits_for_a_quiet_moment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.db"
    old_file(path, BATCH + 5)  # u.1 published: a batch of its own, first
    monkeypatch.setattr(authored_convert, "MAX_PAUSE", 3600.0)  # only quiet moments here
    asked: list[bool] = []
    busy = [True]

    def quiet_for() -> float:
        asked.append(busy[0])
        return authored_convert.QUIET - 0.05 if busy[0] else 60.0  # an update came just now

    async with await Store.open(path) as store:
        converter = Converter(store, bank_limits(), quiet_for=quiet_for)
        converter.start(delay=0)
        await until(lambda: len(asked) >= 5)  # after its first batch, it waits while busy
        assert converter.converted == 1 and converter.running()
        busy[0] = False
        await until(lambda: not converter.running())
        assert converter.converted == BATCH + 5
        await converter.stop()
