"""What users read of homework, question analysis and reports (the re-grade keyboards are the
teacher feature's: ``bot/features/teacher/views.py``).

Bank texts and names are escaped here, and only here (by ``t()`` and ``bot.i18n.markup``): each
message is :class:`bot.i18n.markup.Safe`; button labels are plain text.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.helpers import create_deep_linked_url

from bot.core.analysis import Analysis, ItemStats
from bot.core.bank import Question, Quiz
from bot.core.deadlines import local_time, show_offset
from bot.core.mathtext import readable
from bot.i18n import num, pattern, t, t_plain
from bot.i18n.cldr import format_date
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, html, join
from bot.render import callbacks
from bot.render.export import safe_cell
from bot.render.text import fit, pack

FLAG_KEYS = {"check_key": "an_flag_key", "too_hard": "an_flag_hard", "too_easy": "an_flag_easy"}
REASON_KEYS = {
    "key": "report_reason_key",
    "unclear": "report_reason_unclear",
    "typo": "report_reason_typo",
}


def show_deadline(lang: Lang, when: float, tz_minutes: int) -> str:  # plain: a t() value
    """``Fri 4 Dec, 20:30 (UTC+6)`` / ``শুক্রবার, ৪ ডিসেম্বর, ২০:৩০ (UTC+৬)``: the catalog's
    CLDR date pattern (``date_pattern``) with CLDR's day and month names and digits."""
    date = format_date(lang, local_time(when, tz_minutes), pattern(lang, "date_pattern"))
    return f"{num(lang, date)} (UTC{show_offset(lang, tz_minutes)})"


# --- homework in the group ----------------------------------------------------------------------


# --- a student's attempt, in private ------------------------------------------------------------


# --- question analysis ----------------------------------------------------------------------------


def _percent(lang: Lang, share: float | None) -> str:
    return "—" if share is None else num(lang, round(100 * share)) + "%"


def _spread_key(d: float) -> str:
    """Plain words for the discrimination index D: do stronger students (on the rest of the
    quiz) get this question right more often than weaker ones?"""
    if d >= 0.3:
        return "an_spread_well"
    if d >= 0.1:
        return "an_spread_some"
    return "an_spread_none" if d > -0.1 else "an_spread_reversed"


def _item_block(
    lang: Lang, question: Question, item: ItemStats, reports: Mapping[str, int], resolved: int = 0
) -> Safe:
    lines = [t(lang, "an_item_head", n=item.number, text=fit(readable(question.text(lang)), 90))]
    if not item.answered:
        return join("\n", [*lines, t(lang, "an_item_none")])
    lines.append(
        t(
            lang,
            "an_item_stats_partly" if item.partly else "an_item_stats",
            answered=item.answered,
            right=item.right,
            partly=item.partly,
            percent=_percent(lang, item.share_right),
        )
    )
    if item.discrimination is not None:
        lines.append(t(lang, _spread_key(item.discrimination)))
    if item.wrong_option is not None:
        option = fit(_option_text(question, item.wrong_option, lang), 60)
        share = _percent(lang, item.wrong_share)
        lines.append(t(lang, "an_item_wrong", option=option, share=share))
    if item.median_seconds is not None:
        median = num(lang, f"{item.median_seconds:.1f}")
        lines.append(t(lang, "an_item_time", median=median))
    if item.pick_rates:
        picks = ", ".join(
            f"{fit(_option_text(question, i, lang), 30)} {_percent(lang, rate)}"
            for i, rate in enumerate(item.pick_rates)
        )
        lines.append(t(lang, "an_item_picks", picks=picks))
    if item.wrong_typed:
        typed = "; ".join(f"“{fit(text, 40)}” × {num(lang, n)}" for text, n in item.wrong_typed)
        lines.append(t(lang, "an_item_typed", answers=typed))
    if item.partly_typed:
        typed = "; ".join(f"“{fit(text, 40)}” × {num(lang, n)}" for text, n in item.partly_typed)
        lines.append(t(lang, "an_item_typed_partly", answers=typed))
    if item.flag is not None:
        lines.append(t(lang, FLAG_KEYS[item.flag], students=item.students))
    if reports:
        parts = join(
            ", ",
            [
                html("{} {}", t(lang, REASON_KEYS[r]), num(lang, n))
                for r, n in sorted(reports.items())
            ],
        )
        lines.append(t(lang, "an_item_reports", reports=parts))
    if resolved:
        lines.append(t(lang, "an_item_resolved", n=resolved))
    return join("\n", lines)


def analysis_messages(
    quiz: Quiz,
    lang: Lang,
    result: Analysis,
    *,
    group: str,
    season: int,
    reports: Mapping[str, Mapping[str, int]],
    resolved: Mapping[str, int] | None = None,
) -> list[Safe]:
    """The report for a moderator, split into messages that fit Telegram's limit (``reports``
    still open, and ``resolved`` by a key fix, per question id)."""
    resolved = resolved or {}
    head = join(
        "\n",
        [
            t(lang, "an_head", title=quiz.title(lang), quiz=quiz.handle),
            t(lang, "an_scope", group=group, season=season, sittings=result.sittings),
            t(lang, "an_legend"),
        ],
    )
    blocks = [head]
    by_id = {q.id: q for q in quiz.questions}
    for item in result.items:
        blocks.append(
            _item_block(
                lang,
                by_id[item.question_id],
                item,
                reports.get(item.question_id, {}),
                resolved.get(item.question_id, 0),
            )
        )
    return pack(blocks)


ANALYSIS_COLUMNS = (
    "season",
    "quiz",
    "question",
    "question_id",
    "text",
    "sittings",
    "answered",
    "right_share",
    "discrimination",
    "top_wrong_option",
    "top_wrong_share",
    "pick_rates",
    "common_wrong_answers",
    "partly_right_answers",
    "median_seconds",
    "flag",
    "reports_key",
    "reports_unclear",
    "reports_typo",
)


Reports = Mapping[str, Mapping[str, int]]  # question id -> reason -> count


def analysis_csv(
    season: int, lang: Lang, reports: Sequence[tuple[str, Quiz, Analysis, Reports]]
) -> str:
    """The second CSV of ``/export``: one row per question of every quiz analysed, its texts in
    ``lang``. Options are named by their text (the letters differed from run to run), math in
    its readable form."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(ANALYSIS_COLUMNS)

    def fmt(value: float | None, digits: int) -> str:
        return "" if value is None else f"{value:.{digits}f}"

    for quiz_label, quiz, result, counts in reports:
        by_id = {q.id: q for q in quiz.questions}
        for item in result.items:
            mine = counts.get(item.question_id, {})
            question = by_id[item.question_id]
            picks = " | ".join(
                f"{_option_text(question, i, lang)}: {rate:.3f}"
                for i, rate in enumerate(item.pick_rates)
            )
            typed = " | ".join(f"{text}: {n}" for text, n in item.wrong_typed)
            partly = " | ".join(f"{text}: {n}" for text, n in item.partly_typed)
            writer.writerow(
                [
                    season,
                    safe_cell(quiz_label),
                    item.number,
                    safe_cell(item.question_id),
                    safe_cell(readable(question.text(lang))),
                    result.sittings,
                    item.answered,
                    fmt(item.share_right, 3),
                    fmt(item.discrimination, 3),
                    (
                        safe_cell(_option_text(question, item.wrong_option, lang))
                        if item.wrong_option is not None
                        else ""
                    ),
                    fmt(item.wrong_share, 3),
                    safe_cell(picks),
                    safe_cell(typed),
                    safe_cell(partly),
                    fmt(item.median_seconds, 1),
                    item.flag or "",
                    mine.get("key", 0),
                    mine.get("unclear", 0),
                    mine.get("typo", 0),
                ]
            )
    return out.getvalue()


def _option_text(question: Question, index: int, lang: Lang) -> str:
    """An option named by its text, math readable ("" if the bank has it no more)."""
    return readable(question.options[index](lang)) if index < len(question.options) else ""


def analysis_link(
    lang: Lang, bot_username: str | None, payload: str
) -> InlineKeyboardMarkup | None:
    if not bot_username:
        return None
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    t_plain(lang, "an_open_private"),
                    url=create_deep_linked_url(bot_username, payload),
                )
            ]
        ]
    )


# --- reports ------------------------------------------------------------------------------------


REPORT_BUTTONS = 40  # under one recap: the first 40 items (keyboards are kept small)


def report_keyboard(lang: Lang, run_id: int, numbers: Sequence[int]) -> InlineKeyboardMarkup | None:
    """Under a recap: one "report a problem" button per item (question numbers, 1-based),
    one per row, so a phone never cuts the number off."""
    if not numbers:
        return None
    numbers = numbers[:REPORT_BUTTONS]
    buttons = [
        InlineKeyboardButton(
            t_plain(lang, "report_button_n", n=n),
            callback_data=callbacks.encode(callbacks.ReportData(run_id, n - 1)),
        )
        for n in numbers
    ]
    return InlineKeyboardMarkup([[button] for button in buttons])


def card_report_keyboard(lang: Lang, card_id: int) -> InlineKeyboardMarkup:
    """Under an answered ``/review`` question."""
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    t_plain(lang, "report_button"),
                    callback_data=callbacks.encode(callbacks.CardReportData(card_id)),
                )
            ]
        ]
    )
