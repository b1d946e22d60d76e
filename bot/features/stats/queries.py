"""The stats feature's queries: leaderboards, a group's and a user's figures, exports.

A mixin of the composed ``Store`` (``bot/app/store.py``); only this feature calls these.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.models import Export, ExportAnswer, ExportRun, Standing, plan_from_json
from bot.storage.schema import COUNTED_MODES_SQL
from bot.storage.stats import _ORDER, StatsMixin, _standing


@dataclass(frozen=True, slots=True)
class Leaderboard:
    season: int
    rows: tuple[Standing, ...]
    caller: Standing | None  # the caller's own line, only when it is not among rows
    total_players: int


@dataclass(frozen=True, slots=True)
class GroupLine:
    chat_id: int
    title: str | None
    points: int
    correct: int
    answered: int
    runs: int
    rank: int


@dataclass(frozen=True, slots=True)
class Weak:
    quiz_id: str
    question_id: str
    wrong: int
    tries: int


@dataclass(frozen=True, slots=True)
class Overview:
    groups: tuple[GroupLine, ...]
    practice_answered: int
    practice_correct: int
    weakest: tuple[Weak, ...]


# the same ranking, from the totals of one chat's season
_TOTALS_RANKED_SQL = f"""
WITH ranked AS (
    SELECT user_id, points, correct, answered, runs,
           ROW_NUMBER() OVER (ORDER BY {_ORDER}) AS rank, COUNT(*) OVER () AS total
    FROM group_totals
    WHERE chat_id = ? AND season = ?
)
SELECT k.rank, k.user_id, COALESCE(u.name, ''), u.username, k.points, k.correct, k.answered,
       k.runs, k.total
FROM ranked AS k LEFT JOIN users AS u ON u.user_id = k.user_id
WHERE k.rank <= ? OR k.user_id = ?
ORDER BY k.rank
"""


# the rank of totals row t among its chat's season: 1 + the players ordered before it (the row
# value spells _ORDER: points desc, correct desc, last_at asc, user_id asc)
_RANK_OF_T = """
    1 + (SELECT COUNT(*) FROM group_totals AS o
         WHERE o.chat_id = t.chat_id AND o.season = t.season
           AND (-o.points, -o.correct, o.last_at, o.user_id)
             < (-t.points, -t.correct, t.last_at, t.user_id))
"""


_TOTALS_ONE_SQL = f"""
SELECT {_RANK_OF_T}, t.user_id, COALESCE(u.name, ''), u.username, t.points, t.correct,
       t.answered, t.runs
FROM group_totals AS t LEFT JOIN users AS u ON u.user_id = t.user_id
WHERE t.chat_id = ? AND t.season = ? AND t.user_id = ?
"""


# a user's line in every group, in that group's current season
_TOTALS_GROUPS_SQL = f"""
SELECT t.chat_id, c.title, t.points, t.correct, t.answered, t.runs, {_RANK_OF_T}
FROM group_totals AS t
CROSS JOIN chats AS c ON c.chat_id = t.chat_id AND c.season = t.season
WHERE t.user_id = ?
"""


# the same ranking without homework (kept private): the totals less each player's homework
# answers of that season (few: one attempt each per homework), players left with none dropped.
# The tie-break's last_at stays the totals' (homework included).
_LIVE_RANKED_SQL = """
WITH homework AS (
    SELECT a.user_id AS user_id, SUM(a.points) AS points, SUM(a.correct) AS correct,
           COUNT(*) AS answered, COUNT(DISTINCT a.run_id) AS runs
    FROM runs AS r CROSS JOIN answers AS a ON a.run_id = r.run_id
    WHERE r.chat_id = ? AND r.season = ? AND r.mode = 'homework'
    GROUP BY a.user_id
), live AS (
    SELECT g.user_id AS user_id, g.points - COALESCE(h.points, 0) AS points,
           g.correct - COALESCE(h.correct, 0) AS correct,
           g.answered - COALESCE(h.answered, 0) AS answered,
           g.runs - COALESCE(h.runs, 0) AS runs, g.last_at AS last_at
    FROM group_totals AS g LEFT JOIN homework AS h ON h.user_id = g.user_id
    WHERE g.chat_id = ? AND g.season = ? AND g.answered > COALESCE(h.answered, 0)
)""" + _TOTALS_RANKED_SQL.replace("WITH ranked", ", ranked", 1).replace(
    "FROM group_totals\n    WHERE chat_id = ? AND season = ?", "FROM live", 1
)


_CHAT_SEASON = f"r.chat_id = ? AND r.season = ? AND r.mode IN {COUNTED_MODES_SQL}"


_CHAT_SEASON_QUIZ = _CHAT_SEASON + " AND r.quiz_id = ?"


_CHAT_SEASON_QUIZ_LIVE = "r.chat_id = ? AND r.season = ? AND r.mode = 'group' AND r.quiz_id = ?"


class StatsQueries(StatsMixin):
    """The queries only the stats feature calls."""

    async def leaderboard(
        self,
        chat_id: int,
        *,
        season: int | None = None,
        quiz_id: str | None = None,
        limit: int = 10,
        user_id: int | None = None,
        homework: bool = True,
    ) -> Leaderboard:
        """The top ``limit`` players of a chat's season (default: current), optionally one quiz;
        without ``homework``, live quizzes' points only.

        ``caller`` is ``user_id``'s own line when that player has answers but is not in ``rows``.
        """
        season = await self._season_or_current(chat_id, season)
        if quiz_id is None and homework:
            rows = await self._fetchall(_TOTALS_RANKED_SQL, (chat_id, season, limit, user_id))
        elif quiz_id is None:
            rows = await self._fetchall(
                _LIVE_RANKED_SQL, (chat_id, season, chat_id, season, limit, user_id)
            )
        else:
            where = _CHAT_SEASON_QUIZ if homework else _CHAT_SEASON_QUIZ_LIVE
            rows = await self._ranked(
                where, (chat_id, season, quiz_id), limit=limit, user_id=user_id
            )
        top = tuple(_standing(r) for r in rows if r[0] <= limit)
        caller = next((_standing(r) for r in rows if r[0] > limit), None)
        total = int(rows[0][8]) if rows else 0
        return Leaderboard(season=season, rows=top, caller=caller, total_players=total)

    async def group_stats(
        self, chat_id: int, user_id: int, *, season: int | None = None, homework: bool = True
    ) -> Standing | None:
        """One player's line (with rank) in a chat's season; None if they answered nothing.
        Without ``homework``, live quizzes' points only."""
        season = await self._season_or_current(chat_id, season)
        if homework:
            row = await self._fetchone(_TOTALS_ONE_SQL, (chat_id, season, user_id))
        else:
            row = await self._fetchone(
                _LIVE_RANKED_SQL, (chat_id, season, chat_id, season, 0, user_id)
            )
        return None if row is None else _standing(row)

    async def user_overview(self, user_id: int) -> Overview:
        """A user's standing in each group (current season there), practice totals, weak spots."""
        group_rows = await self._fetchall(_TOTALS_GROUPS_SQL, (user_id,))
        groups = [
            GroupLine(
                chat_id=chat_id,
                title=title,
                points=points,
                correct=correct,
                answered=answered,
                runs=runs,
                rank=rank,
            )
            for chat_id, title, points, correct, answered, runs, rank in group_rows
        ]
        groups.sort(key=lambda g: (-g.points, g.rank, g.chat_id))
        practice = await self._fetchone(
            "SELECT COUNT(*), COALESCE(SUM(a.correct), 0) FROM answers AS a"
            " CROSS JOIN runs AS r ON r.run_id = a.run_id"
            " WHERE a.user_id = ? AND r.mode = 'practice'",
            (user_id,),
        )
        weak_rows = await self._fetchall(
            """
            SELECT r.quiz_id, a.question_id, SUM(1 - a.correct) AS wrong, COUNT(*) AS tries
            FROM answers AS a CROSS JOIN runs AS r ON r.run_id = a.run_id
            WHERE a.user_id = ?
            GROUP BY r.quiz_id, a.question_id
            HAVING wrong > 0
            ORDER BY wrong DESC, CAST(wrong AS REAL) / tries DESC, r.quiz_id, a.question_id
            LIMIT 5
            """,
            (user_id,),
        )
        return Overview(
            groups=tuple(groups),
            practice_answered=int(practice[0]) if practice else 0,
            practice_correct=int(practice[1]) if practice else 0,
            weakest=tuple(Weak(q, qid, int(w), int(t)) for q, qid, w, t in weak_rows),
        )

    async def export_answers(self, chat_id: int) -> Export:
        """Every group run of the chat (live and homework, all seasons) in the order they
        started, and every answer given in them."""
        runs = await self._fetchall(
            "SELECT r.season, r.run_id, r.quiz_id, r.started_at, r.question_count, r.plan"
            " FROM runs AS r WHERE r.chat_id = ? AND r.mode IN ('group', 'homework')"
            " ORDER BY r.season, r.started_at, r.run_id",
            (chat_id,),
        )
        answers = await self._fetchall(
            """
            SELECT a.run_id, a.user_id, COALESCE(u.name, ''), u.username, a.q_index,
                   a.question_id, a.option, a.correct, a.points, a.answered_at, a.given, a.credit
            FROM runs AS r
            CROSS JOIN answers AS a ON a.run_id = r.run_id
            LEFT JOIN users AS u ON u.user_id = a.user_id
            WHERE r.chat_id = ? AND r.mode IN ('group', 'homework')
            """,
            (chat_id,),
        )
        return Export(
            runs=tuple(
                ExportRun(
                    season, run_id, quiz_id, started, count, plan_from_json(plan).permutations
                )
                for season, run_id, quiz_id, started, count, plan in runs
            ),
            answers=tuple(
                ExportAnswer(run, user, name, username, q, qid, opt, bool(ok), pts, at, given, cr)
                for run, user, name, username, q, qid, opt, ok, pts, at, given, cr in answers
            ),
        )
