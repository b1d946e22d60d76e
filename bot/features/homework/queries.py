"""The homework feature's queries: homework set, posted and ended; attempts and results.

A mixin of the composed ``Store`` (``bot/app/store.py``); only this feature calls these.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.storage.homework import _HW, Homework, NewHomework, _homework
from bot.storage.models import HOMEWORK, NewRun, Standing, StoredRun, plan_to_json
from bot.storage.runs import RUN_COLUMNS, ensure_chat, run_from_row
from bot.storage.stats import _ALL, StatsMixin, _standing


@dataclass(frozen=True, slots=True)
class QuestionTally:
    """How one question of a homework went: answers and right answers."""

    q_index: int
    answered: int
    right: int


class AttemptRefused(Exception):
    """A homework attempt cannot start: ``reason`` is ``taken``, ``closed`` or ``missing``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


async def _insert_homework(conn: aiosqlite.Connection, hw: NewHomework) -> Homework:
    await ensure_chat(conn, hw.chat_id, hw.created_at)
    rows = list(
        await conn.execute_fetchall(
            "INSERT INTO homework (chat_id, thread_id, quiz_id, language, seconds, set_by,"
            f" created_at, deadline) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING {_HW}",
            (
                hw.chat_id,
                hw.thread_id,
                hw.quiz_id,
                hw.language,
                hw.seconds,
                hw.set_by,
                hw.created_at,
                hw.deadline,
            ),
        )
    )
    return _homework(rows[0])


class HomeworkQueries(StatsMixin):
    """The queries only the homework feature calls."""

    async def set_chat_timezone(self, chat_id: int, tz_minutes: int) -> None:
        now = self._clock()

        async def tx(conn: aiosqlite.Connection) -> None:
            await ensure_chat(conn, chat_id, now)
            await conn.execute(
                "UPDATE chats SET tz_minutes = ? WHERE chat_id = ?", (tz_minutes, chat_id)
            )

        await self._write(tx)

    async def create_homework(self, hw: NewHomework) -> Homework:
        async def tx(conn: aiosqlite.Connection) -> Homework:
            return await _insert_homework(conn, hw)

        return await self._write(tx)

    async def create_homework_once(self, hw: NewHomework, key: str) -> tuple[Homework, bool]:
        """The homework set by the action ``key`` (a button's), created now with the key in
        the same transaction, or the one it created before: (homework, created now)."""

        async def tx(conn: aiosqlite.Connection) -> tuple[Homework, bool]:
            done = list(
                await conn.execute_fetchall(
                    f"SELECT {_HW} FROM homework WHERE homework_id ="
                    " (SELECT result FROM actions_done WHERE key = ?)",
                    (key,),
                )
            )
            if done:
                return _homework(done[0]), False
            made = await _insert_homework(conn, hw)
            await conn.execute(
                "INSERT INTO actions_done (key, done_at, result) VALUES (?, ?, ?)"
                " ON CONFLICT (key) DO UPDATE SET result = excluded.result",
                (key, hw.created_at, made.homework_id),
            )
            return made, True

        return await self._write(tx)

    async def unposted_homework(self) -> list[Homework]:
        """Ended homework whose results have not reached the group yet."""
        rows = await self._fetchall(
            f"SELECT {_HW} FROM homework WHERE results_posted = 0 AND status = 'ended'"
            " ORDER BY homework_id"
        )
        return [_homework(r) for r in rows]

    async def set_homework_card(self, homework_id: int, message_id: int | None) -> None:
        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "UPDATE homework SET card_message_id = ? WHERE homework_id = ?",
                (message_id, homework_id),
            )

        await self._write(tx)

    async def end_homework(self, homework_id: int, now: float) -> bool:
        """Close an open homework and every attempt still running; False if it was not open."""

        async def tx(conn: aiosqlite.Connection) -> bool:
            cursor = await conn.execute(
                "UPDATE homework SET status = 'ended', ended_at = ?"
                " WHERE homework_id = ? AND status = 'open'",
                (now, homework_id),
            )
            if cursor.rowcount != 1:
                return False
            await conn.execute(
                "UPDATE runs SET status = 'stopped', phase = 'closed', finished_at = ?"
                " WHERE status = 'running' AND run_id IN ("
                "  SELECT run_id FROM homework_attempts WHERE homework_id = ?)",
                (now, homework_id),
            )
            return True

        return await self._write(tx)

    async def homework_results_posted(self, homework_id: int) -> None:
        async def tx(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "UPDATE homework SET results_posted = 1 WHERE homework_id = ?", (homework_id,)
            )

        await self._write(tx)

    async def start_attempt(self, homework_id: int, user_id: int, run: NewRun) -> StoredRun:
        """Create a student's one attempt (a ``homework`` run under the group's chat id).

        Raises :class:`AttemptRefused`: ``missing`` (no such homework), ``closed`` (ended, or
        its deadline passed by ``run.started_at``) or ``taken`` (this student started it before).
        """

        async def tx(conn: aiosqlite.Connection) -> StoredRun:
            found = list(
                await conn.execute_fetchall(
                    "SELECT chat_id, status, deadline FROM homework WHERE homework_id = ?",
                    (homework_id,),
                )
            )
            if not found:
                raise AttemptRefused("missing")
            chat_id, status, deadline = found[0]
            taken = list(
                await conn.execute_fetchall(
                    "SELECT 1 FROM homework_attempts WHERE homework_id = ? AND user_id = ?",
                    (homework_id, user_id),
                )
            )
            if taken:
                raise AttemptRefused("taken")
            if status != "open" or run.started_at >= deadline:
                raise AttemptRefused("closed")
            season = await ensure_chat(conn, chat_id, run.started_at)
            rows = list(
                await conn.execute_fetchall(
                    "INSERT INTO runs (chat_id, thread_id, mode, quiz_id, language, seconds,"
                    " season, plan, question_count, started_by, started_at)"
                    f" VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {RUN_COLUMNS}",
                    (
                        chat_id,
                        HOMEWORK,
                        run.quiz_id,
                        run.language,
                        run.seconds,
                        season,
                        plan_to_json(run.plan),
                        len(run.plan.question_ids),
                        user_id,
                        run.started_at,
                    ),
                )
            )
            stored = run_from_row(rows[0])
            await conn.execute(
                "INSERT INTO homework_attempts (homework_id, user_id, run_id) VALUES (?, ?, ?)",
                (homework_id, user_id, stored.run_id),
            )
            return stored

        return await self._write(tx)

    async def attempt_counts(self, homework_id: int) -> tuple[int, int]:
        """(students who finished, students who started) a homework."""
        row = await self._fetchone(
            "SELECT COALESCE(SUM(r.status = 'finished'), 0), COUNT(*)"
            " FROM homework_attempts AS h CROSS JOIN runs AS r ON r.run_id = h.run_id"
            " WHERE h.homework_id = ?",
            (homework_id,),
        )
        return (int(row[0]), int(row[1])) if row else (0, 0)

    async def homework_results(self, homework_id: int) -> list[Standing]:
        """Everyone who answered in a homework, ranked like a run's results."""
        rows = await self._ranked(
            "r.run_id IN (SELECT run_id FROM homework_attempts WHERE homework_id = ?)",
            (homework_id,),
            limit=_ALL,
            user_id=None,
        )
        return [_standing(r) for r in rows]

    async def homework_tallies(self, homework_id: int) -> list[QuestionTally]:
        """Per question (bank order, as homework plans keep it): answers and right answers."""
        rows = await self._fetchall(
            "SELECT a.q_index, COUNT(*), SUM(a.correct)"
            " FROM homework_attempts AS h CROSS JOIN answers AS a ON a.run_id = h.run_id"
            " WHERE h.homework_id = ? GROUP BY a.q_index ORDER BY a.q_index",
            (homework_id,),
        )
        return [QuestionTally(int(q), int(n), int(r)) for q, n, r in rows]
