"""The teacher's analysis of a group's answers: stored answers in, the pure item analysis out.

The queries behind ``/analysis`` and the second CSV of ``/export``; the figures come from
:mod:`bot.core.analysis`, the wording from :mod:`bot.render.teacher`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from bot.core.analysis import Analysis, Response, analyse
from bot.core.bank import Quiz
from bot.core.regrade import Graded
from bot.i18n.lang import Lang
from bot.render import teacher as render_teacher


class AnalysisStore(Protocol):
    """What the analysis reads: a season's answers to a quiz, the quizzes played, the reports."""

    async def current_season(self, chat_id: int) -> int: ...
    async def quizzes_played(self, chat_id: int, season: int) -> list[str]: ...
    async def report_counts(self, chat_id: int, quiz_id: str) -> dict[str, dict[str, int]]: ...
    async def season_answers(self, chat_id: int, season: int, quiz_id: str) -> list[Graded]: ...


async def build(store: AnalysisStore, chat_id: int, season: int, quiz: Quiz) -> Analysis:
    """The item analysis of one quiz's answers in a group this season."""
    rows = await store.season_answers(chat_id, season, quiz.id)
    return analyse(
        [q.id for q in quiz.questions],
        (
            Response(
                r.run_id,
                r.user_id,
                r.question_id,
                r.option,
                r.correct,
                r.answered_at - r.posted_at if r.posted_at is not None else None,
                r.given,
                r.credit,
            )
            for r in rows
        ),
        {q.id: q for q in quiz.questions},
    )


async def questions_csv(
    store: AnalysisStore, quizzes: Callable[[str], Quiz | None], chat_id: int, lang: Lang
) -> str | None:
    """The second CSV of ``/export``: every quiz answered this season, one row per question,
    its texts in ``lang`` (the group's)."""
    season = await store.current_season(chat_id)
    reports = []
    for quiz_id in await store.quizzes_played(chat_id, season):
        quiz = quizzes(quiz_id)
        if quiz is not None:
            reports.append(
                (
                    f"{quiz.handle} ({quiz.title(lang)})",
                    quiz,
                    await build(store, chat_id, season, quiz),
                    await store.report_counts(chat_id, quiz_id),
                )
            )
    return render_teacher.analysis_csv(season, lang, reports) if reports else None
