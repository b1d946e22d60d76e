"""Texts of the authoring feature: saved quizzes, lists, import reports (escaped here)."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from bot.bank import Lang
from bot.i18n import t
from bot.importers import ImportReport
from bot.limits import MESSAGE_LIMIT
from bot.render import fit
from bot.storage import AuthoredQuiz

MAX_PROBLEM_LINES = 20


def problem_lines(report: ImportReport, lang: Lang) -> list[str]:
    """An import's problems (the fatal one first), one escaped line each."""
    problems = ([report.fatal] if report.fatal else []) + list(report.problems)
    return _capped([f"• {html.escape(fit(p.text(lang), 300))}" for p in problems])


def _capped(lines: list[str]) -> list[str]:
    if len(lines) > MAX_PROBLEM_LINES:
        return [*lines[:MAX_PROBLEM_LINES], f"… (+{len(lines) - MAX_PROBLEM_LINES})"]
    return lines


def saved_text(lang: Lang, row: AuthoredQuiz) -> str:
    return t(lang, "author_saved", title=html.escape(row.title), name=row.name,
             count=row.question_count)


def import_text(lang: Lang, row: AuthoredQuiz | None, report: ImportReport) -> str:
    """The reply to an uploaded file: what was saved (or that nothing was), then each problem
    with its place in the file; the whole fits one message."""
    lines = [saved_text(lang, row) if row is not None else t(lang, "upload_nothing")]
    if row is not None:
        lines.append(t(lang, "upload_format", format=html.escape(report.format)))
    problems = problem_lines(report, lang)
    if problems:
        count = len(report.problems) + (1 if report.fatal else 0)
        lines += ["", t(lang, "upload_problems", count=count), *problems]
    return fit("\n".join(lines), MESSAGE_LIMIT)


def my_quizzes(lang: Lang, rows: Sequence[AuthoredQuiz], runs: Mapping[str, int],
               limit: int) -> str:
    if not rows:
        return t(lang, "my_none")
    lines = [t(lang, "my_head", count=len(rows), limit=limit)]
    for row in rows:
        flags = []
        if row.published:
            flags.append(t(lang, "my_published"))
        if row.share_token:
            flags.append(t(lang, "my_shared"))
        lines.append(t(lang, "my_line", name=row.name, title=html.escape(fit(row.title, 80)),
                       count=row.question_count, runs=runs.get(row.quiz_id, 0))
                     + (" · " + " · ".join(flags) if flags else ""))
    return fit("\n".join(lines), MESSAGE_LIMIT)
