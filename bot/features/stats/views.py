"""Leaderboards and personal stats (``/leaderboard``, ``/me``)."""

from __future__ import annotations

from telegram import InlineKeyboardMarkup

from bot.banks.catalog import Catalog
from bot.core.mathtext import readable
from bot.features.stats.buttons import ResetData
from bot.features.stats.queries import GroupLine, Leaderboard, Overview
from bot.i18n import t, t_plain
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, join
from bot.render import keyboards
from bot.render.text import fit, html_name, with_medal
from bot.storage import Standing

WEAK_QUESTION = 70  # characters of a question's text in /me's "questions you miss most"


def leaderboard(board: Leaderboard, lang: Lang, quiz_id: str | None) -> Safe:
    """A group's ranking for a season (and one quiz)."""
    lines = [t(lang, "lb_head", season=board.season)]
    if quiz_id:
        lines.append(t(lang, "lb_quiz", quiz=quiz_id))
    lines.append(Safe(""))
    if not board.rows:
        lines.append(t(lang, "lb_empty"))
        return join("\n", lines)
    lines += [_line(row, lang) for row in board.rows]
    if board.caller is not None:
        lines += [Safe("…"), _line(board.caller, lang)]
    lines += [Safe(""), t(lang, "lb_players", count=board.total_players)]
    return join("\n", lines)


def _line(row: Standing, lang: Lang) -> Safe:
    return with_medal(
        row.rank,
        t(
            lang,
            "lb_line",
            rank=row.rank,
            name=html_name(row.name),
            points=row.points,
            correct=row.correct,
            runs=row.runs,
        ),
        row.points,
    )


def _group(line: GroupLine, lang: Lang) -> Safe:
    return t(
        lang,
        "lb_private_line",
        title=line.title or t_plain(lang, "your_group"),
        rank=line.rank,
        points=line.points,
    )


def my_groups(overview: Overview, lang: Lang) -> Safe:
    """``/leaderboard`` in private: the user's rank in each of their groups."""
    if not overview.groups:
        return t(lang, "lb_private_none")
    return join("\n", [t(lang, "lb_private"), *(_group(g, lang) for g in overview.groups)])


def me_in_group(row: Standing | None, lang: Lang) -> Safe:
    """``/me`` in a group."""
    if row is None:
        return t(lang, "me_none")
    accuracy = round(100 * row.correct / row.answered) if row.answered else 0
    return t(
        lang,
        "me_group",
        name=html_name(row.name),
        rank=row.rank,
        points=row.points,
        correct=row.correct,
        answered=row.answered,
        accuracy=accuracy,
        runs=row.runs,
    )


def me_private(overview: Overview, lang: Lang, catalog: Catalog) -> Safe:
    """``/me`` in private: every group, practice, and the questions missed most."""
    lines = [t(lang, "me_private_head"), Safe("")]
    lines += [_group(g, lang) for g in overview.groups]
    lines.append(
        t(
            lang,
            "me_practice",
            answered=overview.practice_answered,
            correct=overview.practice_correct,
        )
    )
    if overview.weakest:
        lines += [Safe(""), t(lang, "me_weak_head")]
        for weak in overview.weakest:
            quiz = catalog.matching(weak.quiz_id, [weak.question_id])
            question = (
                next((q for q in quiz.questions if q.id == weak.question_id), None)
                if quiz
                else None
            )
            named = quiz or catalog.get(weak.quiz_id)
            if named is None:
                continue  # a quiz deleted since: nothing to name it by (never its internal id)
            text = (
                fit(readable(question.text(lang)), WEAK_QUESTION) if question else weak.question_id
            )
            lines.append(
                t(
                    lang,
                    "me_weak_line",
                    quiz=named.title(lang),
                    question=text,
                    wrong=weak.wrong,
                    tries=weak.tries,
                )
            )
    return join("\n", lines)


def reset_keyboard(lang: Lang, season: int) -> InlineKeyboardMarkup:
    """Confirm or cancel ``/resetleaderboard``."""
    return keyboards.confirm_keyboard(
        lang, "reset_yes", "reset_no", lambda yes: ResetData(season, yes)
    )
