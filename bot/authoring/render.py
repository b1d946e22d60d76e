"""Texts of the authoring feature: saved quizzes, lists, import reports (escaped here)."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence

from bot.bank import Lang, Problem
from bot.i18n import t
from bot.render import MESSAGE_LIMIT, fit
from bot.storage import AuthoredQuiz

MAX_PROBLEM_LINES = 20


def problem_lines(problems: Iterable[Problem]) -> list[str]:
    """The validator's problems, one escaped line each (the generated file's lines omitted)."""
    lines = [f"• {html.escape(fit(f'{p.where}: {p.message}' if p.where else p.message, 300))}"
             for p in problems]
    return _capped(lines)


def _capped(lines: list[str]) -> list[str]:
    if len(lines) > MAX_PROBLEM_LINES:
        return [*lines[:MAX_PROBLEM_LINES], f"… (+{len(lines) - MAX_PROBLEM_LINES})"]
    return lines


def saved_text(lang: Lang, row: AuthoredQuiz) -> str:
    return t(lang, "author_saved", title=html.escape(row.title), name=row.name,
             count=row.question_count)


def import_text(lang: Lang, row: AuthoredQuiz | None, fmt: str, problems: Sequence[str],
                head: str | None = None) -> str:
    """The reply to an uploaded file: what was imported (or why nothing), then each problem.

    ``problems`` are plain (unescaped) one-line texts; the whole fits one message.
    """
    lines = [head if head is not None else
             saved_text(lang, row) if row is not None else t(lang, "upload_nothing")]
    if row is not None:
        lines.append(t(lang, "upload_format", format=html.escape(fmt)))
    if problems:
        lines += ["", t(lang, "upload_problems", count=len(problems))]
        lines += _capped([f"• {html.escape(fit(p, 300))}" for p in problems])
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
