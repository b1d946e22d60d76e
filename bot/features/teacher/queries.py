"""The teacher feature's queries: re-grades, students' reports, a chat's title.

A mixin of the composed ``Store`` (``bot/app/store.py``); only this feature calls these.
"""

from __future__ import annotations

from collections.abc import Sequence

import aiosqlite

from bot.storage.analysis import Rescored, write_rescored
from bot.storage.core import StoreCore
from bot.storage.models import plan_from_json

REASONS = ("key", "unclear", "typo")


class TeacherQueries(StoreCore):
    """The queries only the teacher feature calls."""

    async def apply_regrade(self, changes: Sequence[Rescored]) -> int:
        """Write re-scored answers in one transaction; the number of answers that changed."""

        async def tx(conn: aiosqlite.Connection) -> int:
            return await write_rescored(conn, changes)

        return await self._write(tx)

    async def add_report(
        self, run_id: int, q_index: int, user_id: int, reason: str, now: float
    ) -> bool | None:
        """A student reports a problem with question ``q_index`` of a run they took part in.

        True if recorded, False if they had reported the same already, None if refused (no such
        run or question, or they did not answer in that run).
        """
        if reason not in REASONS:
            raise ValueError(f"unknown reason {reason!r}")

        async def tx(conn: aiosqlite.Connection) -> bool | None:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT r.chat_id, r.mode, r.quiz_id, r.plan FROM runs AS r WHERE r.run_id = ?"
                    " AND EXISTS (SELECT 1 FROM answers AS a WHERE a.run_id = r.run_id"
                    "             AND a.user_id = ?)",
                    (run_id, user_id),
                )
            )
            if not rows:
                return None
            chat_id, mode, quiz_id, plan = rows[0]
            ids = plan_from_json(plan).question_ids
            if not 0 <= q_index < len(ids):
                return None
            cursor = await conn.execute(
                "INSERT INTO reports (chat_id, run_id, quiz_id, question_id, user_id, reason,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (
                    chat_id if mode != "practice" else None,
                    run_id,
                    quiz_id,
                    ids[q_index],
                    user_id,
                    reason,
                    now,
                ),
            )
            return cursor.rowcount == 1

        return await self._write(tx)

    async def latest_answer_run(
        self, user_id: int, quiz_id: str, question_id: str
    ) -> tuple[int, int] | None:
        """(run id, question index) of the user's latest answer to a question, a group's run
        (live or homework) preferred over practice."""
        row = await self._fetchone(
            "SELECT a.run_id, a.q_index FROM answers AS a CROSS JOIN runs AS r"
            " ON r.run_id = a.run_id WHERE a.user_id = ? AND a.question_id = ?"
            " AND r.quiz_id = ? ORDER BY r.mode = 'practice', a.answered_at DESC LIMIT 1",
            (user_id, question_id, quiz_id),
        )
        return None if row is None else (int(row[0]), int(row[1]))

    async def chat_title(self, chat_id: int) -> str | None:
        row = await self._fetchone("SELECT title FROM chats WHERE chat_id = ?", (chat_id,))
        return None if row is None or row[0] is None else str(row[0])

    async def resolved_reports(self, chat_id: int, quiz_id: str) -> dict[str, int]:
        """question id → how many students' reports in this chat a key fix resolved."""
        rows = await self._fetchall(
            "SELECT question_id, COUNT(DISTINCT user_id) FROM reports"
            " WHERE chat_id = ? AND quiz_id = ? AND resolved_by IS NOT NULL GROUP BY question_id",
            (chat_id, quiz_id),
        )
        return {str(r[0]): int(r[1]) for r in rows}
