"""The teacher's view of a quiz: its answers for question analysis, students' reports of
problems, and re-grading stored answers after a key was wrong.

A re-grading updates answers in place (their ``correct`` flag, ``points`` and ``credit``), all in
one transaction; the trigger ``answers_group_totals_regrade`` (schema version 5) carries the
difference into ``group_totals``, so ``/leaderboard`` and ``/me`` follow at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import aiosqlite

from bot.core.regrade import Graded

from .core import StoreCore
from .models import plan_from_json
from .schema import COUNTED_MODES_SQL

REASONS = ("key", "unclear", "typo")

_SEASON_QUIZ = f"r.chat_id = ? AND r.season = ? AND r.quiz_id = ? AND r.mode IN {COUNTED_MODES_SQL}"


@dataclass(frozen=True, slots=True)
class Rescored:
    run_id: int
    q_index: int
    user_id: int
    correct: bool
    points: int
    credit: float | None = None  # 0..1; None: 1 if correct, else 0


async def write_rescored(conn: aiosqlite.Connection, changes: Sequence[Rescored]) -> int:
    """Re-scored answers written in an open transaction; the number of answers that changed."""
    changed = 0
    for c in changes:
        cursor = await conn.execute(
            "UPDATE answers SET correct = ?, points = ?, credit = ?"
            " WHERE run_id = ? AND q_index = ? AND user_id = ?"
            " AND (correct IS NOT ? OR points IS NOT ? OR credit IS NOT ?)",
            (
                int(c.correct),
                c.points,
                c.credit,
                c.run_id,
                c.q_index,
                c.user_id,
                int(c.correct),
                c.points,
                c.credit,
            ),
        )
        changed += cursor.rowcount
    return changed


class AnalysisMixin(StoreCore):
    async def season_answers(self, chat_id: int, season: int, quiz_id: str) -> list[Graded]:
        """Every answer to ``quiz_id`` in the chat's season (live quizzes and homework)."""
        rows = await self._fetchall(
            "SELECT a.run_id, a.q_index, a.question_id, a.user_id, a.option, a.correct,"
            " a.points, a.answered_at, q.posted_at, r.seconds, a.given, a.credit"
            " FROM runs AS r CROSS JOIN answers AS a ON a.run_id = r.run_id"
            " LEFT JOIN run_questions AS q ON q.run_id = a.run_id AND q.q_index = a.q_index"
            f" WHERE {_SEASON_QUIZ} ORDER BY a.run_id, a.user_id, a.q_index",
            (chat_id, season, quiz_id),
        )
        return [
            Graded(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6], r[7], r[8], r[9], r[10], r[11])
            for r in rows
        ]

    async def chat_title(self, chat_id: int) -> str | None:
        row = await self._fetchone("SELECT title FROM chats WHERE chat_id = ?", (chat_id,))
        return None if row is None or row[0] is None else str(row[0])

    async def quizzes_played(self, chat_id: int, season: int) -> list[str]:
        """The quizzes run in a chat's season (live or homework), most recent first."""
        rows = await self._fetchall(
            "SELECT r.quiz_id FROM runs AS r"
            f" WHERE r.chat_id = ? AND r.season = ? AND r.mode IN {COUNTED_MODES_SQL}"
            " GROUP BY r.quiz_id ORDER BY MAX(r.started_at) DESC, r.quiz_id",
            (chat_id, season),
        )
        return [str(r[0]) for r in rows]

    async def apply_regrade(self, changes: Sequence[Rescored]) -> int:
        """Write re-scored answers in one transaction; the number of answers that changed."""

        async def tx(conn: aiosqlite.Connection) -> int:
            return await write_rescored(conn, changes)

        return await self._write(tx)

    # -- reports -------------------------------------------------------------------------------

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

    async def report_counts(self, chat_id: int, quiz_id: str) -> dict[str, dict[str, int]]:
        """question id → reason → how many students reported it, in this chat (reports a key
        fix resolved left out: ``resolved_reports``)."""
        rows = await self._fetchall(
            "SELECT question_id, reason, COUNT(DISTINCT user_id) FROM reports"
            " WHERE chat_id = ? AND quiz_id = ? AND resolved_by IS NULL"
            " GROUP BY question_id, reason",
            (chat_id, quiz_id),
        )
        out: dict[str, dict[str, int]] = {}
        for qid, reason, count in rows:
            out.setdefault(str(qid), {})[str(reason)] = int(count)
        return out

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
