"""The kernel's :class:`StoreBase`: opening and closing, backups, chats, users and seasons.

Runs and answers live in :mod:`.runs`, run results in :mod:`.stats`; the connection and
transaction machinery in :mod:`.core`. The queries only one feature calls live in that feature's
``queries.py``; the whole ``Store`` is composed in ``bot/app/store.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import time
from pathlib import Path
from types import TracebackType
from typing import Self

import aiosqlite

from bot.i18n.lang import Lang

from .analysis import AnalysisMixin
from .authored import AuthoredMixin
from .core import Clock, _UserJob, pragmas
from .deliveries import DeliveriesMixin
from .explained import ExplainedMixin
from .homework import HomeworkMixin
from .images import ImagesMixin
from .keyfixes import KeyFixesMixin
from .models import LANGUAGES
from .review import ReviewMixin
from .runs import RunsMixin, ensure_chat
from .schema import prepare_file
from .stats import StatsMixin
from .versions import VersionsMixin

CHAT_CACHE_MAX = 50_000


async def _configure(conn: aiosqlite.Connection, busy_timeout_ms: int) -> None:
    for pragma in pragmas(busy_timeout_ms):
        await conn.execute(pragma)


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _backup_file(source: Path, dest: Path, busy_timeout_ms: int) -> None:
    """Copy ``source`` to ``dest`` with SQLite's online backup API, atomically, mode 0600."""
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    for leftover in (tmp, Path(f"{tmp}-journal"), Path(f"{tmp}-wal")):
        leftover.unlink(missing_ok=True)
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    try:
        src = sqlite3.connect(source, isolation_level=None)
        try:
            src.execute(f"PRAGMA busy_timeout = {busy_timeout_ms:d}")
            dst = sqlite3.connect(tmp, isolation_level=None)
            try:
                # pages=-1: the whole database in one step, i.e. from one consistent snapshot
                src.backup(dst, pages=-1)
                dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
                check = dst.execute("PRAGMA quick_check").fetchone()[0]
                if check != "ok":
                    raise sqlite3.DatabaseError(f"backup failed its check: {check}")
            finally:
                dst.close()
        finally:
            src.close()
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, dest)
        _fsync_dir(dest.parent)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


class StoreBase(
    RunsMixin,
    HomeworkMixin,
    StatsMixin,
    ReviewMixin,
    AnalysisMixin,
    AuthoredMixin,
    DeliveriesMixin,
    ImagesMixin,
    KeyFixesMixin,
    VersionsMixin,
    ExplainedMixin,
):
    """The kernel's part of the store: the queries the kernel or several features call."""

    _busy_timeout_ms = 5000

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        clock: Clock = time.time,
        busy_timeout: float = 5.0,
        lock_retry: float = 30.0,
    ) -> Self:
        """Open (creating with mode 0600 and migrating as needed) the database at ``path``.

        ``busy_timeout`` is how long SQLite itself waits for another connection's lock;
        ``lock_retry`` is how long a write transaction keeps retrying after that.
        """
        p = Path(path)
        busy_ms = round(busy_timeout * 1000)
        await asyncio.to_thread(prepare_file, p, busy_timeout_ms=max(busy_ms, 30_000))
        wconn = await aiosqlite.connect(p, isolation_level=None)
        rconn: aiosqlite.Connection | None = None
        try:
            await _configure(wconn, busy_ms)
            rconn = await aiosqlite.connect(p, isolation_level=None)
            await _configure(rconn, busy_ms)
            await rconn.execute("PRAGMA query_only = ON")
        except BaseException:
            await wconn.close()
            if rconn is not None:
                await rconn.close()
            raise
        store = cls(p, wconn, rconn, clock=clock, lock_retry=lock_retry)
        store._busy_timeout_ms = busy_ms
        try:
            await store._open_committer(busy_ms)
        except BaseException:
            await store._close_committer()
            await wconn.close()
            await rconn.close()
            raise
        store._start_writer()
        return store

    async def close(self) -> None:
        """Write everything still queued, then close the file. Safe to call twice."""
        if self._closed:
            return
        await self._stop_writer()
        async with self._lock:  # let a transaction still in flight finish
            self._closed = True
        await self._close_committer()
        self._close_now_reader()
        with contextlib.suppress(sqlite3.Error, ValueError):
            await self._wconn.execute("PRAGMA optimize")
        await self._rconn.close()
        await self._wconn.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def backup(self, dest: Path) -> None:
        """Write a consistent copy of the database to ``dest`` (mode 0600), while the bot runs.

        Uses SQLite's online backup API from a separate connection, into a temporary file that
        is checked, fsynced and then renamed over ``dest``.
        """
        if self._closed:
            raise sqlite3.ProgrammingError("store is closed")
        await asyncio.to_thread(_backup_file, self.path, Path(dest), self._busy_timeout_ms)

    # -- chats -----------------------------------------------------------------------------

    def knows_chat(self, chat_id: int, title: str | None, kind: str) -> bool:
        """True if ``remember_chat`` with these values would change nothing (cached)."""
        return self._chats.get(chat_id) == (title, kind)

    def knows_user(
        self, user_id: int, name: str, username: str | None, language: Lang | None = None
    ) -> bool:
        """True if ``remember_user`` with these values would change nothing (cached)."""
        known = self._users.get(user_id)
        return known is not None and known[:2] == (name, username) and language in (None, known[2])

    async def remember_chat(self, chat_id: int, title: str | None, kind: str) -> None:
        """Record a chat's title and kind (private, group, supergroup, channel)."""
        if self._chats.get(chat_id) == (title, kind):
            return
        now = self._clock()

        async def tx(conn: aiosqlite.Connection) -> None:
            await ensure_chat(conn, chat_id, now)
            await conn.execute(
                "UPDATE chats SET title = ?, kind = ? WHERE chat_id = ?"
                " AND (title IS NOT ? OR kind IS NOT ?)",
                (title, kind, chat_id, title, kind),
            )

        await self._write(tx)
        if len(self._chats) >= CHAT_CACHE_MAX:
            self._chats.pop(next(iter(self._chats)))
        self._chats[chat_id] = (title, kind)

    async def chat_language(self, chat_id: int) -> str | None:
        row = await self._fetchone("SELECT language FROM chats WHERE chat_id = ?", (chat_id,))
        return None if row is None else row[0]

    async def set_chat_language(self, chat_id: int, lang: str) -> None:
        now = self._clock()

        async def tx(conn: aiosqlite.Connection) -> None:
            await ensure_chat(conn, chat_id, now)
            await conn.execute("UPDATE chats SET language = ? WHERE chat_id = ?", (lang, chat_id))

        await self._write(tx)

    async def migrate_chat(self, old_id: int, new_id: int) -> None:
        """Move a group that became a supergroup (new id) with all its history; idempotent.

        The chats row, its seasons, every run (finished and running) and the players' season
        totals move to ``new_id`` (totals of a season both chats have are added up). If
        ``new_id`` already has a chats row, it keeps its own title/kind/language where set, takes
        the old ones otherwise, and continues the higher season of the two. Should both chats have
        a group run running in the same thread, the old chat's one is marked ``aborted``.
        """
        if old_id == new_id:
            return
        now = self._clock()

        async def tx(conn: aiosqlite.Connection) -> None:
            cols = "title, kind, language, season, season_started_at"
            sql = f"SELECT {cols} FROM chats WHERE chat_id = ?"
            old = list(await conn.execute_fetchall(sql, (old_id,)))
            new = list(await conn.execute_fetchall(sql, (new_id,)))
            if old and not new:
                await conn.execute(
                    "UPDATE chats SET chat_id = ? WHERE chat_id = ?", (new_id, old_id)
                )
            elif old and new:
                o, n = old[0], new[0]
                season, started = (o[3], o[4]) if o[3] > n[3] else (n[3], n[4])
                await conn.execute(
                    "UPDATE chats SET title = ?, kind = ?, language = ?, season = ?,"
                    " season_started_at = ? WHERE chat_id = ?",
                    (
                        n[0] if n[0] is not None else o[0],
                        n[1] if n[1] is not None else o[1],
                        n[2] if n[2] is not None else o[2],
                        season,
                        started,
                        new_id,
                    ),
                )
                await conn.execute("DELETE FROM chats WHERE chat_id = ?", (old_id,))
            await conn.execute(
                "INSERT INTO seasons (chat_id, season, started_at)"
                " SELECT ?, season, started_at FROM seasons WHERE chat_id = ?"
                " ON CONFLICT DO NOTHING",
                (new_id, old_id),
            )
            await conn.execute("DELETE FROM seasons WHERE chat_id = ?", (old_id,))
            await conn.execute(
                "UPDATE runs SET status = 'aborted', phase = 'closed', finished_at = ?"
                " WHERE chat_id = ? AND mode = 'group' AND status = 'running' AND EXISTS ("
                "  SELECT 1 FROM runs AS n WHERE n.chat_id = ? AND n.thread_id = runs.thread_id"
                "  AND n.mode = 'group' AND n.status = 'running')",
                (now, old_id, new_id),
            )
            await conn.execute("UPDATE runs SET chat_id = ? WHERE chat_id = ?", (new_id, old_id))
            # the group totals follow their runs; a season both chats played is the union of
            # their answers (runs are disjoint, so counts add up and the later last answer wins)
            await conn.execute(
                "INSERT INTO group_totals (chat_id, season, user_id, points, correct, answered,"
                " runs, last_at)"
                " SELECT ?, season, user_id, points, correct, answered, runs, last_at"
                " FROM group_totals WHERE chat_id = ?"
                " ON CONFLICT (chat_id, season, user_id) DO UPDATE SET"
                " points = points + excluded.points, correct = correct + excluded.correct,"
                " answered = answered + excluded.answered, runs = runs + excluded.runs,"
                " last_at = MAX(last_at, excluded.last_at)",
                (new_id, old_id),
            )
            await conn.execute("DELETE FROM group_totals WHERE chat_id = ?", (old_id,))
            for table in ("homework", "reports"):  # homework and question reports follow too
                await conn.execute(
                    f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (new_id, old_id)
                )

        await self._write(tx)
        self._chats.pop(old_id, None)
        self._chats.pop(new_id, None)

    # -- users -----------------------------------------------------------------------------

    async def remember_user(
        self, user_id: int, name: str, username: str | None, language: Lang | None = None
    ) -> None:
        """Keep a user's display name, @username and Telegram language current (a ``language``
        of None keeps the stored one); unchanged, they cost no write.

        Group-committed together with answers, so a burst of first-time users is cheap.
        """
        if self.knows_user(user_id, name, username, language):
            return
        await self._enqueue(_UserJob(user_id, name, username, language, self._new_future()))

    async def user_language(self, user_id: int) -> Lang | None:
        """The user's Telegram language, as last seen (kept across restarts)."""
        row = await self._fetchone("SELECT language FROM users WHERE user_id = ?", (user_id,))
        return LANGUAGES.get(row[0]) if row is not None and row[0] is not None else None

    async def user_name(self, user_id: int) -> str | None:
        """The user's display name, as last seen."""
        row = await self._fetchone("SELECT name FROM users WHERE user_id = ?", (user_id,))
        return str(row[0]) if row is not None and row[0] else None

    # -- seasons ---------------------------------------------------------------------------

    async def current_season(self, chat_id: int) -> int:
        row = await self._fetchone("SELECT season FROM chats WHERE chat_id = ?", (chat_id,))
        return 1 if row is None else int(row[0])

    async def new_season(self, chat_id: int, after: int | None = None) -> int | None:
        """Start the chat's next season (its leaderboard starts empty); return its number.
        With ``after``, only if the current season is still that one (a reset confirmed once,
        however often its button is delivered or tapped), else None.

        Earlier seasons stay stored and readable with ``leaderboard(season=...)``.
        """
        now = self._clock()

        async def tx(conn: aiosqlite.Connection) -> int | None:
            current = await ensure_chat(conn, chat_id, now)
            if after is not None and current != after:
                return None
            season = current + 1
            await conn.execute(
                "UPDATE chats SET season = ?, season_started_at = ? WHERE chat_id = ?",
                (season, now, chat_id),
            )
            await conn.execute(
                "INSERT INTO seasons (chat_id, season, started_at) VALUES (?, ?, ?)"
                " ON CONFLICT DO UPDATE SET started_at = excluded.started_at",
                (chat_id, season, now),
            )
            return season

        return await self._write(tx)
