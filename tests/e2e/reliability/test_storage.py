"""Storage core: files, migrations, runs, durable group-committed answers, locks and backups."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import cast

import pytest
from clockkit import ManualClock
from quizkit import until

from bot.app.store import Store
from bot.storage import (
    SCHEMA_VERSION,
    Answer,
    EndStatus,
    Mode,
    NewRun,
    Plan,
    RunConflict,
    StoreClosed,
    create_schema,
    plan_to_json,
)
from bot.storage.schema import V1_STATEMENTS, migrate

PLAN = Plan(("q1", "q2", "q3"), ((0, 1, 2), (2, 0, 1), (1, 2, 0)))


def new_run(chat_id: int = -100, thread_id: int = 0, mode: Mode = "group", **kw: object) -> NewRun:
    fields: dict[str, object] = {
        "chat_id": chat_id,
        "thread_id": thread_id,
        "mode": mode,
        "quiz_id": "physics",
        "language": "bn",
        "seconds": 30,
        "plan": PLAN,
        "started_by": 7,
        "started_at": 1_700_000_000.0,
    }
    fields.update(kw)
    return NewRun(**fields)  # type: ignore[arg-type]


def ans(run_id: int, q: int, user: int, option: int = 0, *, correct: bool = True,
        points: int = 10, at: float = 1_700_000_010.0) -> Answer:  # fmt: skip
    return Answer(run_id, q, f"q{q + 1}", user, option, correct, points, at)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "quiz.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(db_path, clock=ManualClock())
    try:
        yield s
    finally:
        await s.close()


def raw(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA busy_timeout = 5000")
    return conn


def names(conn: sqlite3.Connection, kind: str) -> set[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = ?", (kind,)).fetchall()
    return {r[0] for r in rows}


@contextmanager
def write_lock_held(path: Path, seconds: float | None) -> Iterator[threading.Event]:
    """Hold a write lock on ``path`` from another connection (in a thread) for ``seconds``.

    Yields an event the test can set to release the lock earlier (or, if seconds is None, at all).
    """
    locked, release = threading.Event(), threading.Event()

    def holder() -> None:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("BEGIN IMMEDIATE")
            locked.set()
            release.wait(seconds)
            conn.execute("COMMIT")
        finally:
            conn.close()

    thread = threading.Thread(target=holder)
    thread.start()
    try:
        assert locked.wait(5)
        yield release
    finally:
        release.set()
        thread.join()


# -- files and migrations ----------------------------------------------------------------------


async def test_new_file_is_private_wal_and_current(db_path: Path) -> None:
    store = await Store.open(db_path)
    await store.remember_chat(-1, "x", "group")
    for suffix in ("", "-wal", "-shm"):  # SQLite gives its side files the database's mode
        assert stat.S_IMODE(os.stat(f"{db_path}{suffix}").st_mode) == 0o600
    await store.close()
    assert stat.S_IMODE(os.stat(db_path).st_mode) == 0o600
    conn = raw(db_path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 18
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert {"chats", "seasons", "users", "runs", "answers"} <= names(conn, "table")
        assert {"answers_user", "runs_chat_season", "runs_one_running_group"} <= names(
            conn, "index"
        )
    finally:
        conn.close()


async def test_pragmas_on_open_connections(store: Store) -> None:
    conn = store._wconn
    assert (await (await conn.execute("PRAGMA foreign_keys")).fetchone()) == (1,)
    assert (await (await conn.execute("PRAGMA synchronous")).fetchone()) == (2,)  # FULL
    assert (await (await conn.execute("PRAGMA busy_timeout")).fetchone()) == (5000,)
    assert (await (await conn.execute("PRAGMA journal_mode")).fetchone()) == ("wal",)


async def test_upgrade_real_version_1_file_in_place(db_path: Path) -> None:
    # a file exactly as version 1 of the code left it, with data in it
    conn = raw(db_path)
    conn.execute("BEGIN")
    for sql in V1_STATEMENTS:
        conn.execute(sql)
    conn.execute("PRAGMA user_version = 1")
    conn.execute("COMMIT")
    conn.execute(
        "INSERT INTO chats (chat_id, title, kind, language) VALUES (-5, 'G', 'group', 'en')"
    )
    conn.execute("INSERT INTO users (user_id, name, username) VALUES (1, 'Rahim', 'rahim')")
    conn.execute(
        "INSERT INTO runs (run_id, chat_id, mode, quiz_id, language, seconds, season, plan,"
        " question_count, status, started_at) VALUES (9, -5, 'group', 'chem', 'en', 20, 1, ?, 3,"
        " 'finished', 1.0)",
        (plan_to_json(PLAN),),
    )
    conn.execute("INSERT INTO answers VALUES (9, 0, 'q1', 1, 2, 1, 15, 2.0)")
    assert "answers_user" not in names(conn, "index")
    inode = os.stat(db_path).st_ino
    conn.close()

    store = await Store.open(db_path)
    try:
        run = await store.get_run(9)
        assert run is not None
        assert (run.plan, run.status) == (PLAN, "finished")
        assert await store.answers(9) == [Answer(9, 0, "q1", 1, 2, True, 15, 2.0)]
        assert await store.chat_language(-5) == "en"
        board = await store.leaderboard(-5)
        assert [(r.name, r.points) for r in board.rows] == [("Rahim", 15)]
        assert await store.user_language(1) is None  # the column version 2 added
        await store.remember_user(1, "Rahim", None, "bn")
        assert await store.user_language(1) == "bn"
    finally:
        await store.close()
    assert os.stat(db_path).st_ino == inode  # upgraded in place, not recreated
    conn = raw(db_path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert "answers_user" in names(conn, "index")
        assert conn.execute("SELECT name FROM users").fetchall() == [("Rahim",)]
    finally:
        conn.close()


async def test_reopen_changes_nothing(db_path: Path) -> None:
    await (await Store.open(db_path)).close()
    conn = raw(db_path)
    cookie = conn.execute("PRAGMA schema_version").fetchone()[0]
    conn.close()
    await (await Store.open(db_path)).close()
    conn = raw(db_path)
    try:
        assert conn.execute("PRAGMA schema_version").fetchone()[0] == cookie
    finally:
        conn.close()


def test_migrate_stepwise_and_refuses_newer(db_path: Path) -> None:
    conn = raw(db_path)
    try:
        assert migrate(conn, target=1) == 1
        assert "answers_user" not in names(conn, "index")
        assert migrate(conn) == SCHEMA_VERSION
        assert migrate(conn) == SCHEMA_VERSION
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        with pytest.raises(Exception, match="newer than this code"):
            migrate(conn)
    finally:
        conn.close()


async def test_create_schema_for_bulk_loading(db_path: Path) -> None:
    conn = sqlite3.connect(db_path)  # default (implicit transaction) mode, as a script would
    create_schema(conn)
    conn.execute(
        "INSERT INTO runs (chat_id, mode, quiz_id, language, seconds, season, plan,"
        " question_count, started_at) VALUES (-1, 'group', 'x', 'en', 10, 1, ?, 3, 0)",
        (plan_to_json(PLAN),),
    )
    conn.executemany(
        "INSERT INTO answers VALUES (1, ?, 'q', ?, 0, 1, 5, 1.0, NULL, NULL)",
        [(q, u) for q in range(3) for u in range(100)],
    )
    conn.commit()
    conn.close()
    store = await Store.open(db_path)
    try:
        assert (await store.leaderboard(-1)).total_players == 100
    finally:
        await store.close()


# -- runs ----------------------------------------------------------------------------------------


async def test_run_lifecycle(store: Store) -> None:
    run = await store.create_run(new_run(thread_id=3))
    assert (run.season, run.current, run.phase, run.status) == (1, 0, "posting", "running")
    assert (run.plan, run.question_count, run.finished_at) == (PLAN, 3, None)
    await store.save_progress(
        run.run_id, current=1, phase="open", message_id=55, posted_at=5.0, deadline=35.0
    )
    got = await store.get_run(run.run_id)
    assert got is not None
    assert (got.current, got.phase, got.message_id, got.posted_at, got.deadline) == (
        1,
        "open",
        55,
        5.0,
        35.0,
    )
    assert await store.running_run(-100, 3, "group") == got
    assert await store.running_runs() == [got]
    assert await store.running_runs("practice") == []

    store._clock.now = 1_700_000_999.0  # type: ignore[attr-defined]
    await store.finish_run(run.run_id, "stopped")
    await store.finish_run(run.run_id, "finished")  # already ended: first end wins
    await store.save_progress(
        run.run_id, current=2, phase="open", message_id=1, posted_at=1.0, deadline=2.0
    )
    done = await store.get_run(run.run_id)
    assert done is not None
    assert (done.status, done.finished_at, done.current, done.phase) == (
        "stopped",
        1_700_000_999.0,
        1,
        "closed",
    )
    assert await store.running_runs() == []
    assert await store.running_run(-100, 3, "group") is None
    assert await store.get_run(12345) is None
    with pytest.raises(ValueError, match="status"):
        await store.finish_run(run.run_id, cast(EndStatus, "paused"))


async def test_one_running_group_run_per_thread(store: Store) -> None:
    first = await store.create_run(new_run())
    with pytest.raises(RunConflict) as err:
        await store.create_run(new_run())
    assert err.value.run_id == first.run_id
    await store.create_run(new_run(thread_id=2))  # another forum topic
    await store.create_run(new_run(chat_id=-200))  # another chat
    await store.create_run(new_run(mode="practice"))  # practice never conflicts
    await store.create_run(new_run(mode="practice"))
    await store.finish_run(first.run_id, "finished")
    await store.create_run(new_run())
    assert len(await store.running_runs("group")) == 3
    assert len(await store.running_runs("practice")) == 2


async def test_concurrent_create_run_only_one_wins(store: Store) -> None:
    results = await asyncio.gather(
        *(store.create_run(new_run()) for _ in range(20)), return_exceptions=True
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert sum(isinstance(r, RunConflict) for r in results) == 19


# -- answers -------------------------------------------------------------------------------------


async def test_record_answer_is_idempotent(store: Store) -> None:
    run = await store.create_run(new_run())
    assert await store.record_answer(ans(run.run_id, 0, 1, option=2)) is True
    # the same tap again, or a later tap with another option: the first one stands
    assert await store.record_answer(ans(run.run_id, 0, 1, option=2)) is False
    assert await store.record_answer(ans(run.run_id, 0, 1, option=1, correct=False)) is False
    assert await store.answers(run.run_id) == [ans(run.run_id, 0, 1, option=2)]


async def test_thousand_concurrent_answers_few_transactions(store: Store) -> None:
    run = await store.create_run(new_run())
    before_tx, before_batches = store.write_transactions, store.group_commits
    answers = [ans(run.run_id, u % 3, u, at=float(u)) for u in range(1000)]
    results = await asyncio.gather(*(store.record_answer(a) for a in answers))
    assert results == [True] * 1000
    assert store.group_commits - before_batches <= 5
    assert store.write_transactions - before_tx <= 5
    assert len(await store.answers(run.run_id)) == 1000
    # replaying the same 1,000 taps (plus duplicates inside one batch) stores nothing new
    results = await asyncio.gather(*(store.record_answer(a) for a in answers + answers))
    assert results == [False] * 2000
    assert len(await store.answers(run.run_id)) == 1000


async def test_duplicate_in_one_batch_first_wins(store: Store) -> None:
    run = await store.create_run(new_run())
    first, second = ans(run.run_id, 1, 5, option=0), ans(run.run_id, 1, 5, option=2)
    results = await asyncio.gather(store.record_answer(first), store.record_answer(second))
    assert list(results) == [True, False]
    assert await store.answers(run.run_id) == [first]


async def test_bad_answer_fails_alone(store: Store) -> None:
    run = await store.create_run(new_run())
    good = [ans(run.run_id, 0, u) for u in range(3)]
    bad = ans(999_999, 0, 1)  # no such run
    results = await asyncio.gather(
        *(store.record_answer(a) for a in [good[0], bad, good[1], good[2]]),
        return_exceptions=True,
    )
    assert [results[0], results[2], results[3]] == [True, True, True]
    assert isinstance(results[1], sqlite3.IntegrityError)
    assert len(await store.answers(run.run_id)) == 3


async def test_close_flushes_queued_answers(db_path: Path) -> None:
    store = await Store.open(db_path)
    run = await store.create_run(new_run())
    tasks = [asyncio.create_task(store.record_answer(ans(run.run_id, 0, u))) for u in range(200)]
    await asyncio.sleep(0)  # every task has enqueued its answer
    await store.close()
    assert all(t.result() is True for t in tasks)
    with pytest.raises(StoreClosed):
        await store.record_answer(ans(run.run_id, 1, 1))
    with pytest.raises(StoreClosed):
        await store.finish_run(run.run_id, "finished")
    await store.close()  # twice is fine
    conn = raw(db_path)
    try:
        assert conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 200
    finally:
        conn.close()


async def test_answers_survive_reopen(db_path: Path) -> None:
    async with await Store.open(db_path) as store:
        run = await store.create_run(new_run())
        assert await store.record_answer(ans(run.run_id, 2, 42, option=1))
    async with await Store.open(db_path) as store:
        assert await store.answers(run.run_id) == [ans(run.run_id, 2, 42, option=1)]
        assert await store.record_answer(ans(run.run_id, 2, 42, option=1)) is False


# -- users and chats -----------------------------------------------------------------------------


async def test_remember_user_writes_only_changes(store: Store) -> None:
    await store.remember_user(1, "Rahim", "rahim")
    tx = store.write_transactions
    await store.remember_user(1, "Rahim", "rahim")
    assert store.write_transactions == tx  # cached: no write
    await store.remember_user(1, "Rahim Uddin", None)
    assert store.write_transactions == tx + 1
    run = await store.create_run(new_run())
    await store.record_answer(ans(run.run_id, 0, 1))
    row = (await store.leaderboard(-100)).rows[0]
    assert (row.name, row.username) == ("Rahim Uddin", None)
    # a burst of first-time users shares transactions with answers
    tx = store.write_transactions
    await asyncio.gather(*(store.remember_user(u, f"U{u}", None) for u in range(100, 600)))
    assert store.write_transactions - tx <= 3


async def test_languages(store: Store, db_path: Path) -> None:
    assert await store.chat_language(-1) is None
    assert await store.user_language(1) is None
    await store.set_chat_language(-1, "bn")
    await store.remember_user(1, "Karim", None, "en")
    assert await store.chat_language(-1) == "bn"
    assert await store.user_language(1) == "en"
    tx = store.write_transactions
    await store.remember_user(1, "Karim", None)  # language unknown in this update: kept, no write
    await store.remember_user(1, "Karim", None, "en")
    assert store.write_transactions == tx
    await store.remember_chat(-1, "Class 9", "supergroup")
    assert await store.user_language(1) == "en"
    assert await store.chat_language(-1) == "bn"
    await store.remember_user(1, "Karim", None, "bn")  # switched Telegram to Bengali
    assert await store.user_language(1) == "bn"
    await store.remember_user(1, "Karim Uddin", None)  # a new name keeps the language
    assert await store.user_language(1) == "bn"
    await store.close()
    again = await Store.open(db_path)  # kept across a restart
    try:
        assert await again.user_language(1) == "bn"
    finally:
        await again.close()


async def test_remember_chat_caches(store: Store) -> None:
    await store.remember_chat(-1, "Physics", "group")
    tx = store.write_transactions
    await store.remember_chat(-1, "Physics", "group")
    assert store.write_transactions == tx
    await store.remember_chat(-1, "Physics 2025", "group")
    assert store.write_transactions == tx + 1
    assert await store.current_season(-1) == 1


# -- locks and backups ---------------------------------------------------------------------------


async def test_answer_waits_for_another_connections_write_lock(store: Store, db_path: Path) -> None:
    run = await store.create_run(new_run())
    with write_lock_held(db_path, 1.0):  # released by the holder thread after ~1 s
        locked_at = time.monotonic()
        task = asyncio.create_task(store.record_answer(ans(run.run_id, 0, 1)))
        await until(store._lock.locked)  # the writer is inside its transaction attempt
        assert not task.done()
        # reads are not blocked by the other writer (WAL)
        assert await store.get_run(run.run_id) is not None
        assert await task is True
    assert time.monotonic() - locked_at >= 0.5
    assert store.busy_retries == 0  # busy_timeout alone covered a 1 s lock
    assert len(await store.answers(run.run_id)) == 1


async def test_lock_held_longer_than_busy_timeout_is_retried(db_path: Path) -> None:
    store = await Store.open(db_path, busy_timeout=0.05, lock_retry=30.0)
    try:
        run = await store.create_run(new_run())
        with write_lock_held(db_path, None) as release:
            task = asyncio.create_task(store.record_answer(ans(run.run_id, 0, 1)))
            await until(lambda: store.busy_retries >= 2)  # hit the lock, retrying
            assert not task.done()
            release.set()
        assert await task is True
        assert len(await store.answers(run.run_id)) == 1
    finally:
        await store.close()


async def test_lock_retry_gives_up_eventually_and_store_recovers(db_path: Path) -> None:
    store = await Store.open(db_path, busy_timeout=0.02, lock_retry=0.2)
    try:
        run = await store.create_run(new_run())
        with (
            write_lock_held(db_path, None),
            pytest.raises(sqlite3.OperationalError, match="locked"),
        ):
            await store.record_answer(ans(run.run_id, 0, 1))
        assert await store.record_answer(ans(run.run_id, 0, 1)) is True
    finally:
        await store.close()


async def test_backup_while_writing(store: Store, db_path: Path, tmp_path: Path) -> None:
    run = await store.create_run(new_run())
    await store.remember_user(1, "Rahim", None)
    stored_before = 0
    for u in range(50):
        stored_before += await store.record_answer(ans(run.run_id, 0, u))
    stop = asyncio.Event()

    async def keep_writing() -> int:
        u = 1000
        while not stop.is_set():
            await asyncio.gather(
                *(store.record_answer(ans(run.run_id, 1, u + i)) for i in range(20))
            )
            u += 20
        return u

    writer = asyncio.create_task(keep_writing())
    dest = tmp_path / "backups" / "quiz-backup.db"
    dest.parent.mkdir()
    dest.write_bytes(b"old junk")
    dest.chmod(0o644)
    await store.backup(dest)
    stop.set()
    await writer

    assert stat.S_IMODE(dest.stat().st_mode) == 0o600
    assert [p.name for p in dest.parent.iterdir()] == ["quiz-backup.db"]
    conn = sqlite3.connect(dest)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        count = conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
        assert count >= stored_before
        assert conn.execute("SELECT name FROM users").fetchall() == [("Rahim",)]
    finally:
        conn.close()
    async with await Store.open(dest) as copy:
        assert len(await copy.answers(run.run_id)) == count
