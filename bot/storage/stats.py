"""Leaderboards, personal statistics, per-run results and the answers ``/export`` writes.

Only group runs (live quizzes, ``mode = 'group'``, and homework attempts, ``'homework'``) count
for a chat's rankings; practice runs never do. Every status
counts (running, finished, stopped, aborted): answers given before a quiz was stopped are real.
Ranking order everywhere: points desc, correct desc, then whoever reached the total first
(earliest last counted answer), then user id; ranks are positions 1..N, never shared.

Season rankings without a quiz filter (``leaderboard``, ``group_stats``, ``user_overview``) read
``group_totals``, one row per player and group season kept current by a trigger on answers (see
:mod:`.schema`), so they cost in proportion to a group's players, not to its answers. Per-quiz
boards and run results aggregate the answers themselves.

``CROSS JOIN`` is SQLite's way to pin the join order: a chat's runs first (index on chat, season),
then their answers by primary key; or a user's answers first (index on user), then their runs.
Left to itself, the planner may prefer walking all answers in user order to save a sort.

The season rankings (``leaderboard``, ``group_stats``, ``user_overview``) and the export are the
stats feature's queries (``bot/features/stats/queries.py``); run results, which quiz and review
share, stay here.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from .core import StoreCore
from .models import (
    Standing,
)

_ORDER = "points DESC, correct DESC, last_at ASC, user_id ASC"

# {where} filters runs aliased r; the window numbers every player of the selection
_RANKED_SQL = f"""
WITH per_user AS (
    SELECT a.user_id AS user_id, SUM(a.points) AS points, SUM(a.correct) AS correct,
           COUNT(*) AS answered, COUNT(DISTINCT a.run_id) AS runs, MAX(a.answered_at) AS last_at
    FROM runs AS r CROSS JOIN answers AS a ON a.run_id = r.run_id
    WHERE {{where}}
    GROUP BY a.user_id
), ranked AS (
    SELECT user_id, points, correct, answered, runs,
           ROW_NUMBER() OVER (ORDER BY {_ORDER}) AS rank, COUNT(*) OVER () AS total
    FROM per_user
)
SELECT k.rank, k.user_id, COALESCE(u.name, ''), u.username, k.points, k.correct, k.answered,
       k.runs, k.total
FROM ranked AS k LEFT JOIN users AS u ON u.user_id = k.user_id
WHERE k.rank <= ? OR k.user_id = ?
ORDER BY k.rank
"""
_ALL = 1 << 62  # "no limit" for the rank filter


def _standing(row: sqlite3.Row | tuple[Any, ...]) -> Standing:
    return Standing(
        rank=row[0],
        user_id=row[1],
        name=row[2],
        username=row[3],
        points=row[4] or 0,
        correct=row[5] or 0,
        answered=row[6],
        runs=row[7],
    )


class StatsMixin(StoreCore):
    async def _season_or_current(self, chat_id: int, season: int | None) -> int:
        if season is not None:
            return season
        row = await self._fetchone("SELECT season FROM chats WHERE chat_id = ?", (chat_id,))
        return 1 if row is None else int(row[0])

    async def _ranked(
        self, where: str, params: Sequence[Any], *, limit: int, user_id: int | None
    ) -> list[sqlite3.Row]:
        sql = _RANKED_SQL.format(where=where)
        return await self._fetchall(sql, (*params, limit, user_id))

    async def run_results(self, run_id: int) -> list[Standing]:
        """Everyone who answered in one run, ranked (``runs`` is always 1)."""
        rows = await self._ranked("r.run_id = ?", (run_id,), limit=_ALL, user_id=None)
        return [_standing(r) for r in rows]
