"""Connections, serialized write transactions with lock retry, and the group-commit writer.

Two aiosqlite connections share one WAL file: ``_wconn`` does every write, one transaction at a
time under an :class:`asyncio.Lock`; ``_rconn`` (``query_only``) serves reads, which under WAL
never wait for writers and only ever see committed data.

Small idempotent writes that arrive in bursts (answers, user names) are not written one by one:
callers enqueue a job and await its future; a single writer task takes everything queued, writes it
in ONE transaction, and resolves the futures only after ``COMMIT`` returned, i.e. once the rows are
durable (``synchronous=FULL``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.bank import Lang

from .models import Answer, StoreClosed

T = TypeVar("T")
Clock = Callable[[], float]
WriteFn = Callable[[aiosqlite.Connection], Awaitable[T]]

log = logging.getLogger(__name__)

SQLITE_BUSY, SQLITE_LOCKED = 5, 6
MAX_BATCH = 5_000  # jobs per group-commit transaction
ROWS_PER_INSERT = 500  # rows per multi-row INSERT (8 parameters each, far below the 32766 limit)
USER_CACHE_MAX = 100_000

_INSERT_ANSWERS_HEAD = (
    "INSERT INTO answers (run_id, q_index, question_id, user_id, option, correct, points,"
    " answered_at) VALUES "
)
_INSERT_ANSWERS_TAIL = " ON CONFLICT DO NOTHING RETURNING run_id, q_index, user_id"
_ANSWER_VALUES = "(?, ?, ?, ?, ?, ?, ?, ?)"
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


_Job = _AnswerJob | _UserJob
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
    )


class StoreCore:
    """Connection handling shared by the public :class:`~bot.storage.Store` mixins."""

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
        self._closing = False  # close() began: no new group-commit jobs
        self._closed = False  # connections are closed
        self._users: dict[int, tuple[str, str | None, Lang | None]] = {}
        self._chats: dict[int, tuple[str | None, str]] = {}
        #: committed write transactions (all kinds) since open; tests and metrics read these
        self.write_transactions = 0
        #: group-commit transactions written by the writer task
        self.group_commits = 0
        #: times a write transaction found the file locked by someone else and was retried
        self.busy_retries = 0

    # -- reads -----------------------------------------------------------------------------

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
        """``BEGIN IMMEDIATE`` / ``fn`` / ``COMMIT`` under the write lock, retried while locked.

        ``busy_timeout`` already makes SQLite wait for another connection's lock; if it is held
        longer than that (a backup, a stuck script), the whole transaction is retried with backoff
        for up to ``lock_retry`` seconds before the error is raised. ``fn`` must therefore be safe
        to run again from the start (it only touches the database).
        """
        conn = self._wconn
        async with self._lock:
            if self._closed:
                raise StoreClosed("store is closed")
            deadline = time.monotonic() + self._lock_retry
            delay = 0.05
            while True:
                try:
                    await conn.execute("BEGIN IMMEDIATE")
                    try:
                        result = await fn(conn)
                        await conn.execute("COMMIT")
                    except BaseException:
                        with contextlib.suppress(sqlite3.Error, ValueError):
                            await conn.execute("ROLLBACK")
                        raise
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
        try:
            outcomes = await self._transaction(lambda conn: self._apply_batch(conn, batch))
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

    async def _apply_batch(self, conn: aiosqlite.Connection, batch: list[_Job]) -> list[_Outcome]:
        outcomes: dict[int, _Outcome] = {}
        answers = [(i, j.answer) for i, j in enumerate(batch) if isinstance(j, _AnswerJob)]
        for start in range(0, len(answers), ROWS_PER_INSERT):
            chunk = answers[start : start + ROWS_PER_INSERT]
            outcomes.update(await self._insert_answers(conn, chunk))
        users = [(i, j) for i, j in enumerate(batch) if isinstance(j, _UserJob)]
        if users:
            now = self._clock()
            # later jobs for the same user win, exactly as if written one after another
            await conn.executemany(
                _UPSERT_USER,
                [(j.user_id, j.name, j.username, j.language, now) for _, j in users],
            )
            outcomes.update((i, True) for i, _ in users)
        return [outcomes[i] for i in range(len(batch))]

    async def _insert_answers(
        self, conn: aiosqlite.Connection, chunk: list[tuple[int, Answer]]
    ) -> Iterable[tuple[int, _Outcome]]:
        sql = _INSERT_ANSWERS_HEAD + ", ".join([_ANSWER_VALUES] * len(chunk)) + _INSERT_ANSWERS_TAIL
        params = [p for _, a in chunk for p in _answer_params(a)]
        try:
            rows = await conn.execute_fetchall(sql, params)
        except sqlite3.IntegrityError:
            # some row is invalid (e.g. its run does not exist); the statement was undone, so
            # insert one by one to store the good rows and fail only the bad ones
            return [(i, await self._insert_one(conn, a)) for i, a in chunk]
        inserted = {(r[0], r[1], r[2]) for r in rows}
        result: list[tuple[int, _Outcome]] = []
        for i, a in chunk:
            key = (a.run_id, a.q_index, a.user_id)
            # a key queued twice in one batch: the first one was inserted, the later one was not
            result.append((i, key in inserted))
            inserted.discard(key)
        return result

    async def _insert_one(self, conn: aiosqlite.Connection, answer: Answer) -> _Outcome:
        sql = _INSERT_ANSWERS_HEAD + _ANSWER_VALUES + _INSERT_ANSWERS_TAIL
        try:
            rows = list(await conn.execute_fetchall(sql, _answer_params(answer)))
        except sqlite3.IntegrityError as exc:
            return exc
        return bool(rows)

    def _cache_user(self, job: _UserJob) -> None:
        cache = self._users
        known = cache.pop(job.user_id, None)
        if len(cache) >= USER_CACHE_MAX:
            cache.pop(next(iter(cache)))
        language = job.language or (known[2] if known is not None else None)
        cache[job.user_id] = (job.name, job.username, language)
