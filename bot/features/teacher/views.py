"""The keyboards of re-grading: a ``/regrade`` preview, a report's re-grade and its reason.

Button labels are plain text (``t_plain``); the messages these go under are built in the routes.
"""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core.bank import Quiz
from bot.features.teacher.buttons import RegradeData, RunRegradeData
from bot.i18n import t_plain
from bot.i18n.lang import Lang
from bot.render import callbacks
from bot.render.teacher import REASON_KEYS
from bot.render.text import fit, label


def regrade_keyboard(lang: Lang, quiz_id: str, number: int, key: str) -> InlineKeyboardMarkup:
    """Apply or drop a previewed re-grading (``key``: the new key, as ``rg:`` spells it);
    ValueError if it does not fit a button."""
    return _confirm_keyboard(
        lang,
        RegradeData(quiz_id, number, key, True),
        RegradeData(quiz_id, number, key, False),
    )


def _confirm_keyboard(
    lang: Lang, apply: callbacks.CallbackData, cancel: callbacks.CallbackData
) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(t_plain(lang, key), callback_data=callbacks.encode(data))
                for key, data in (("regrade_apply", apply), ("regrade_cancel", cancel))
            ]
        ]
    )


def report_regrade_keyboard(
    lang: Lang, quiz: Quiz, run_id: int, number: int, accept: tuple[str, str] | None = None
) -> InlineKeyboardMarkup | None:
    """Under a report the teacher received: for a question with one right option, one button per
    other option (bank order), making it the key; for an answer the reporting student typed
    (``accept``: the answer and the key accepting it, as ``rr:`` spells it), one accepting it
    too; a preview first. None: no button makes sense (several right answers: typed commands)."""
    question = quiz.questions[number - 1]
    if accept is not None:
        answer, code = accept
        rows = [
            [
                InlineKeyboardButton(
                    t_plain(lang, "report_accept_button", answer=fit(answer, 30)),
                    callback_data=callbacks.encode(RunRegradeData(run_id, number, code, "p")),
                )
            ]
        ]
        return InlineKeyboardMarkup(rows)
    if question.kind not in ("single", "truefalse"):
        return None
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    fit(t_plain(lang, "report_regrade_to", label=label(i), text=text(lang)), 60),
                    callback_data=callbacks.encode(RunRegradeData(run_id, number, str(i), "p")),
                )
            ]
            for i, text in enumerate(question.options)
            if i != question.correct
        ]
    )


def run_regrade_keyboard(lang: Lang, run_id: int, number: int, key: str) -> InlineKeyboardMarkup:
    """Apply or drop a re-grading previewed from a report."""
    return _confirm_keyboard(
        lang,
        RunRegradeData(run_id, number, key, "y"),
        RunRegradeData(run_id, number, key, "n"),
    )


def reason_keyboard(lang: Lang, run_id: int, q_index: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    t_plain(lang, key),
                    callback_data=callbacks.encode(callbacks.ReportData(run_id, q_index, reason)),
                )
            ]
            for reason, key in REASON_KEYS.items()
        ]
    )
