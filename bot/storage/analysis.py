"""The teacher's view of a quiz: its answers for question analysis, students' reports of
problems, and re-grading stored answers after a key was wrong.

A re-grading updates answers in place (their ``correct`` flag, ``points`` and ``credit``), all in
one transaction; the trigger ``answers_group_totals_regrade`` (schema version 5) carries the
difference into ``group_totals``, so ``/leaderboard`` and ``/me`` follow at once.

Re-grades, reports and a chat's title, which only the teacher feature reads and writes, are its
queries (``bot/features/teacher/queries.py``); what the analysis and key fixes share stays here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import aiosqlite

from bot.core.regrade import Graded

from .core import StoreCore
from .schema import COUNTED_MODES_SQL

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

    async def quizzes_played(self, chat_id: int, season: int) -> list[str]:
        """The quizzes run in a chat's season (live or homework), most recent first."""
        rows = await self._fetchall(
            "SELECT r.quiz_id FROM runs AS r"
            f" WHERE r.chat_id = ? AND r.season = ? AND r.mode IN {COUNTED_MODES_SQL}"
            " GROUP BY r.quiz_id ORDER BY MAX(r.started_at) DESC, r.quiz_id",
            (chat_id, season),
        )
        return [str(r[0]) for r in rows]

    # -- reports -------------------------------------------------------------------------------

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
