"""Connections, serialized write transactions with lock retry, and the group-commit writer.

Connections to one WAL file: ``_wconn`` (aiosqlite) does the writes of the store's methods, one
transaction at a time under an :class:`asyncio.Lock`; ``_rconn`` (``query_only``) serves reads,
which under WAL never wait for writers and only ever see committed data.

Small idempotent writes that arrive in bursts (answers, user names) are not written one by one:
callers enqueue a job and await its future; a single writer task takes everything queued, writes it
in ONE transaction, and resolves the futures only after ``COMMIT`` returned, i.e. once the rows are
durable (``synchronous=FULL``). That transaction runs whole in one call to a thread of its own, on
a plain sqlite3 connection (``_cconn``), under the same lock: through aiosqlite, its BEGIN, inserts
and COMMIT were each a round trip to a thread and back through an event loop busy with a class's
taps, which in a burst made a commit take four times as long (bench/README.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.i18n.lang import Lang

from .models import Answer, StoreClosed

T = TypeVar("T")
Clock = Callable[[], float]
WriteFn = Callable[[aiosqlite.Connection], Awaitable[T]]

log = logging.getLogger(__name__)

SQLITE_BUSY, SQLITE_LOCKED = 5, 6
MAX_BATCH = 5_000  # jobs per group-commit transaction
ROWS_PER_INSERT = 500  # rows per multi-row INSERT (10 parameters each, far below the 32766 limit)
USER_CACHE_MAX = 100_000

_INSERT_ANSWERS_HEAD = (
    "INSERT INTO answers (run_id, q_index, question_id, user_id, option, correct, points,"
    " answered_at, given, credit) VALUES "
)
_INSERT_ANSWERS_TAIL = " ON CONFLICT DO NOTHING RETURNING run_id, q_index, user_id"
_ANSWER_VALUES = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
_UPSERT_SELECTION = (
    "INSERT INTO selections (run_id, q_index, user_id, picked) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (run_id, q_index, user_id) DO UPDATE SET picked = excluded.picked"
)
_UPSERT_USER = """
    INSERT INTO users (user_id, name, username, language, updated_at) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (user_id) DO UPDATE SET
        name = excluded.name, username = excluded.username,
        language = COALESCE(excluded.language, users.language),
        updated_at = excluded.updated_at
    WHERE users.name IS NOT excluded.name OR users.username IS NOT excluded.username
        OR users.language IS NOT COALESCE(excluded.language, users.language)
"""


def is_busy(exc: BaseException) -> bool:
    """Whether ``exc`` means another connection holds a lock (worth retrying later)."""
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in (SQLITE_BUSY, SQLITE_LOCKED)
    text = str(exc).lower()
    return "locked" in text or "busy" in text


@dataclass(slots=True)
class _AnswerJob:
    answer: Answer
    future: asyncio.Future[bool] = field(repr=False)


@dataclass(slots=True)
class _UserJob:
    user_id: int
    name: str
    username: str | None
    language: Lang | None  # the user's Telegram language; None: unknown, the stored one stays
    future: asyncio.Future[bool] = field(repr=False)


@dataclass(slots=True)
class _SelectionJob:
    """A group student's options ticked so far on a several-answers question (not submitted)."""

    row: tuple[int, int, int, str]  # run_id, q_index, user_id, picked (bank letters)
    future: asyncio.Future[bool] = field(repr=False)


_Job = _AnswerJob | _UserJob | _SelectionJob
_Outcome = bool | BaseException


def _answer_params(a: Answer) -> tuple[Any, ...]:
    return (
        a.run_id,
        a.q_index,
        a.question_id,
        a.user_id,
        a.option,
        int(a.correct),
        a.points,
        a.answered_at,
        a.given,
        a.credit,
    )


class StoreCore:
    """Connection handling shared by every mixin of the store (the kernel's and the features')."""

    def __init__(
        self,
        path: Path,
        wconn: aiosqlite.Connection,
        rconn: aiosqlite.Connection,
        *,
        clock: Clock,
        lock_retry: float,
    ) -> None:
        self.path = path
        self._wconn = wconn
        self._rconn = rconn
        self._clock = clock
        self._lock_retry = lock_retry
        self._lock = asyncio.Lock()
        self._queue: asyncio.Queue[_Job | None] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._committer = ThreadPoolExecutor(1, thread_name_prefix="quizbot-commit")
        self._cconn: sqlite3.Connection | None = None  # the group commits', in that thread
        self._closing = False  # close() began: no new group-commit jobs
        self._closed = False  # connections are closed
        self._now_conn: sqlite3.Connection | None = None  # point reads on the loop's thread
        self._users: dict[int, tuple[str, str | None, Lang | None]] = {}
        self._chats: dict[int, tuple[str | None, str]] = {}
        #: committed write transactions (all kinds) since open; tests and metrics read these
        self.write_transactions = 0
        #: group-commit transactions written by the writer task
        self.group_commits = 0
        #: times a write transaction found the file locked by someone else and was retried
        self.busy_retries = 0

    # -- reads -----------------------------------------------------------------------------

    def _now_reader(self) -> sqlite3.Connection:
        """A read-only plain connection for primary-key reads that cannot wait for a thread
        (opened on first use, on the event loop's thread; a WAL reader never waits for writers,
        and a short busy timeout bounds the rare checkpoint wait)."""
        if self._closed:
            raise sqlite3.ProgrammingError("store is closed")
        if self._now_conn is None:
            conn = _connect(self.path, 250)
            conn.execute("PRAGMA query_only = ON")
            self._now_conn = conn
        return self._now_conn

    def _close_now_reader(self) -> None:
        conn, self._now_conn = self._now_conn, None
        if conn is not None:
            conn.close()

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return list(await self._rconn.execute_fetchall(sql, params))

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        rows = await self._fetchall(sql, params)
        return rows[0] if rows else None

    # -- writes ----------------------------------------------------------------------------

    async def _write(self, fn: WriteFn[T]) -> T:
        """Run ``fn`` in one write transaction and return its result once committed.

        The transaction finishes even if the caller is cancelled meanwhile (it is shielded), so a
        cancelled caller never leaves a half-done transaction behind.
        """
        if self._closed:
            raise StoreClosed("store is closed")
        return await asyncio.shield(self._transaction(fn))

    async def _transaction(self, fn: WriteFn[T]) -> T:
        """``BEGIN IMMEDIATE`` / ``fn`` / ``COMMIT`` on ``_wconn``, retried while locked
        (:meth:`_locked`)."""
        conn = self._wconn

        async def attempt() -> T:
            await conn.execute("BEGIN IMMEDIATE")
            try:
                result = await fn(conn)
                await conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error, ValueError):
                    await conn.execute("ROLLBACK")
                raise
            return result

        return await self._locked(attempt)

    async def _locked(self, attempt: Callable[[], Awaitable[T]]) -> T:
        """One write transaction (``attempt``) under the write lock, retried while locked.

        ``busy_timeout`` already makes SQLite wait for another connection's lock; if it is held
        longer than that (a backup, a stuck script), the whole transaction is retried with backoff
        for up to ``lock_retry`` seconds before the error is raised. ``attempt`` must therefore be
        safe to run again from the start (it only touches the database).
        """
        async with self._lock:
            if self._closed:
                raise StoreClosed("store is closed")
            deadline = time.monotonic() + self._lock_retry
            delay = 0.05
            while True:
                try:
                    result = await attempt()
                except sqlite3.OperationalError as exc:
                    if not is_busy(exc) or time.monotonic() + delay > deadline:
                        raise
                    self.busy_retries += 1
                    log.warning("database locked, retrying in %.2fs: %s", delay, exc)
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 1.0)
                    continue
                self.write_transactions += 1
                return result

    async def _in_committer(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the group commits' thread."""
        return await asyncio.get_running_loop().run_in_executor(self._committer, fn, *args)

    async def _open_committer(self, busy_timeout_ms: int) -> None:
        self._cconn = await self._in_committer(_connect, self.path, busy_timeout_ms)

    async def _close_committer(self) -> None:
        conn, self._cconn = self._cconn, None
        if conn is not None:
            await self._in_committer(conn.close)
        self._committer.shutdown(wait=False)

    async def set_busy_timeout(self, seconds: float) -> None:
        """How long SQLite waits for another process's lock before the store's own retry, on
        every write connection (tests shorten it)."""
        ms = round(seconds * 1000)
        await self._wconn.execute(f"PRAGMA busy_timeout = {ms:d}")
        if self._cconn is not None:
            await self._in_committer(self._cconn.execute, f"PRAGMA busy_timeout = {ms:d}")

    # -- group commit ----------------------------------------------------------------------

    async def _enqueue(self, job: _Job) -> bool:
        if self._closing:
            raise StoreClosed("store is closed")
        self._queue.put_nowait(job)
        return await job.future

    def _new_future(self) -> asyncio.Future[bool]:
        return asyncio.get_running_loop().create_future()

    def _start_writer(self) -> None:
        self._writer = asyncio.create_task(self._writer_loop(), name="quizbot-storage-writer")

    async def _stop_writer(self) -> None:
        self._closing = True
        if self._writer is None:
            return
        self._queue.put_nowait(None)
        try:
            await self._writer
        finally:
            self._writer = None

    async def _writer_loop(self) -> None:
        stop = False
        while not stop:
            first = await self._queue.get()
            if first is None:
                break
            batch: list[_Job] = [first]
            while len(batch) < MAX_BATCH:
                try:
                    job = self._queue.get_nowait()
                except asyncio.QueueEmpty:
                    break
                if job is None:
                    stop = True
                    break
                batch.append(job)
            try:
                await self._commit_batch(batch)
            except Exception as exc:  # a bug must not leave callers waiting forever
                log.exception("storage writer failed on a batch of %d jobs", len(batch))
                for job in batch:
                    if not job.future.done():
                        job.future.set_exception(exc)
        # nothing can be queued after close() began; fail anything that slipped in regardless
        while not self._queue.empty():
            job = self._queue.get_nowait()
            if job is not None and not job.future.done():
                job.future.set_exception(StoreClosed("store is closed"))

    async def _commit_batch(self, batch: list[_Job]) -> None:
        answers = [
            (i, _answer_params(j.answer)) for i, j in enumerate(batch) if isinstance(j, _AnswerJob)
        ]
        now = self._clock()
        # later jobs for the same user win, exactly as if written one after another
        users = [
            (i, (j.user_id, j.name, j.username, j.language, now))
            for i, j in enumerate(batch)
            if isinstance(j, _UserJob)
        ]
        # in the order they came: the last tick of a student wins
        selections = [(i, j.row) for i, j in enumerate(batch) if isinstance(j, _SelectionJob)]
        conn = self._cconn
        assert conn is not None, "the store is open"
        try:
            outcomes = await self._locked(
                lambda: self._in_committer(
                    _write_batch, conn, answers, users, len(batch), selections
                )
            )
        except Exception as exc:  # the whole transaction failed: every caller gets the error
            log.exception("group commit of %d jobs failed", len(batch))
            outcomes = [exc] * len(batch)
        else:
            self.group_commits += 1
        for job, outcome in zip(batch, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                if not job.future.done():
                    job.future.set_exception(outcome)
                continue
            if isinstance(job, _UserJob):
                self._cache_user(job)
            if not job.future.done():
                job.future.set_result(outcome)

    def _cache_user(self, job: _UserJob) -> None:
        cache = self._users
        known = cache.pop(job.user_id, None)
        if len(cache) >= USER_CACHE_MAX:
            cache.pop(next(iter(cache)))
        language = job.language or (known[2] if known is not None else None)
        cache[job.user_id] = (job.name, job.username, language)


def pragmas(busy_timeout_ms: int) -> tuple[str, ...]:
    """How every connection of the store is set up (each runs these once when opened)."""
    return (
        f"PRAGMA busy_timeout = {busy_timeout_ms:d}",
        "PRAGMA foreign_keys = ON",
        "PRAGMA synchronous = FULL",
    )


def _connect(path: Path, busy_timeout_ms: int) -> sqlite3.Connection:
    """The group commits' connection, set up as the store's others."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        for pragma in pragmas(busy_timeout_ms):
            conn.execute(pragma)
    except BaseException:
        conn.close()
        raise
    return conn


_Row = tuple[Any, ...]


def _write_batch(
    conn: sqlite3.Connection,
    answers: list[tuple[int, _Row]],
    users: list[tuple[int, _Row]],
    n: int,
    selections: list[tuple[int, _Row]],
) -> list[_Outcome]:
    """One group commit, whole, in the committer's thread: each job's outcome, in order."""
    outcomes: dict[int, _Outcome] = {}
    conn.execute("BEGIN IMMEDIATE")
    try:
        for start in range(0, len(answers), ROWS_PER_INSERT):
            outcomes.update(_insert_answers(conn, answers[start : start + ROWS_PER_INSERT]))
        if users:
            conn.executemany(_UPSERT_USER, [row for _, row in users])
            outcomes.update((i, True) for i, _ in users)
        if selections:
            conn.executemany(_UPSERT_SELECTION, [row for _, row in selections])
            outcomes.update((i, True) for i, _ in selections)
        conn.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise
    return [outcomes[i] for i in range(n)]


def _insert_answers(
    conn: sqlite3.Connection, chunk: list[tuple[int, _Row]]
) -> list[tuple[int, _Outcome]]:
    sql = _INSERT_ANSWERS_HEAD + ", ".join([_ANSWER_VALUES] * len(chunk)) + _INSERT_ANSWERS_TAIL
    try:
        rows = conn.execute(sql, [p for _, row in chunk for p in row]).fetchall()
    except sqlite3.IntegrityError:
        # some row is invalid (e.g. its run does not exist); the statement was undone, so
        # insert one by one to store the good rows and fail only the bad ones
        return [(i, _insert_one(conn, row)) for i, row in chunk]
    inserted = {(r[0], r[1], r[2]) for r in rows}
    result: list[tuple[int, _Outcome]] = []
    for i, row in chunk:
        key = (row[0], row[1], row[3])  # run_id, q_index, user_id
        # a key queued twice in one batch: the first one was inserted, the later one was not
        result.append((i, key in inserted))
        inserted.discard(key)
    return result


def _insert_one(conn: sqlite3.Connection, row: _Row) -> _Outcome:
    sql = _INSERT_ANSWERS_HEAD + _ANSWER_VALUES + _INSERT_ANSWERS_TAIL
    try:
        return bool(conn.execute(sql, row).fetchall())
    except sqlite3.IntegrityError as exc:
        return exc
