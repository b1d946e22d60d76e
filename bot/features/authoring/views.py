"""What users read of in-chat authoring: saved quizzes, lists, import reports, the
draft's confirmations and the authoring keyboards. Escaped here, and only here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.banks.importers import ImportReport
from bot.banks.importers.digest import MAX_LINES, digest
from bot.core.images import PollExtras
from bot.features.authoring import buttons as authoring_buttons
from bot.features.authoring.edit_views import edit_button
from bot.i18n import t, t_plain
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, html, join
from bot.render import callbacks, keyboards
from bot.render.text import MESSAGE_LIMIT, fit, isolated, label
from bot.storage import AuthoredQuiz

#: file formats as the upload's reply names them (the same in both languages: technical names)
FORMAT_NAMES = {
    "yaml": "YAML",
    "gift": "GIFT",
    "aiken": "Aiken",
    "moodle-xml": "Moodle XML",
    "csv": "CSV",
    "opentdb": "Open Trivia DB",
}


def problem_lines(report: ImportReport, lang: Lang, *, limit: int = MAX_LINES) -> list[Safe]:
    """An import's problems (the fatal one first), one escaped line each, as a teacher reads
    them (bot/banks/importers/digest.py: alike ones counted, at most ``limit`` lines)."""
    problems = ([report.fatal] if report.fatal else []) + list(report.problems)
    return [html("• {}", fit(line, 300)) for line in digest(problems, lang, limit=limit)]


def _fitted(text: Safe) -> Safe:
    """Cut at a line's end to fit one message (never inside a tag or an entity)."""
    if len(text) <= MESSAGE_LIMIT:
        return text
    cut = text[: MESSAGE_LIMIT - 2]
    return Safe(cut[: cut.rfind("\n")] + "\n…")


def saved_text(lang: Lang, row: AuthoredQuiz) -> Safe:
    return t(lang, "author_saved", title=row.title, name=row.name, count=row.question_count)


def quiz_card(lang: Lang, bot_username: str | None, row: AuthoredQuiz) -> InlineKeyboardMarkup:
    """The buttons ending ``/done`` and an upload: start in a group (a ``?startgroup=`` link
    that adds the bot to a group of the author's choice and offers the quiz there), set as
    homework, share, practise here."""
    rows: list[list[InlineKeyboardButton]] = []
    homework = InlineKeyboardButton(
        t_plain(lang, "card_homework"),
        callback_data=callbacks.encode(authoring_buttons.QuizCardData(row.quiz_id, "h")),
    )
    if bot_username:
        link = f"https://t.me/{bot_username}?startgroup="
        start = f"{link}{callbacks.GROUP_START_PREFIX}{row.quiz_no}"
        rows.append([InlineKeyboardButton(t_plain(lang, "card_start_group"), url=start)])
        # picking a group sets it there at once (24 hours), if the author moderates it
        set_it = f"{link}{callbacks.GROUP_HOMEWORK_PREFIX}{row.quiz_no}"
        homework = InlineKeyboardButton(t_plain(lang, "card_homework"), url=set_it)
    rows.append(
        [
            homework,
            InlineKeyboardButton(
                t_plain(lang, "card_share"),
                callback_data=callbacks.encode(authoring_buttons.QuizCardData(row.quiz_id, "s")),
            ),
        ]
    )
    rows.append(
        [
            InlineKeyboardButton(
                t_plain(lang, "card_practise"),
                callback_data=callbacks.encode(callbacks.StartData(row.quiz_id)),
            ),
            edit_button(lang, row.quiz_no),
        ]
    )
    return InlineKeyboardMarkup(rows)


def import_text(lang: Lang, row: AuthoredQuiz | None, report: ImportReport) -> Safe:
    """The reply to an uploaded file: what was saved (or that nothing was), then each problem
    with its place in the file; the whole fits one message."""
    lines = [saved_text(lang, row) if row is not None else t(lang, "upload_nothing")]
    if row is not None:
        name = FORMAT_NAMES.get(report.format, report.format)
        lines.append(t(lang, "upload_format", format=name))
    problems = problem_lines(report, lang)
    if problems:
        count = len(report.problems) + (1 if report.fatal else 0)
        lines += [Safe(""), t(lang, "upload_problems", count=count), *problems]
    if report.notes:  # within the file's lines, the problems' first
        room = max(MAX_LINES - len(problems), 2)
        notes = [html("• {}", fit(n, 300)) for n in digest(report.notes, lang, limit=room)]
        lines += [Safe(""), t(lang, "upload_notes", count=len(report.notes)), *notes]
    return _fitted(join("\n", lines))


def refused(lang: Lang, head_key: str, problems: Sequence[Safe]) -> Safe:
    """A refusal and the problems that caused it, one a line."""
    return join("\n", [t(lang, head_key), *problems])


def added(
    lang: Lang,
    first: int,
    rights: Sequence[Sequence[tuple[int, str]]],
    count: int,
    notes: Sequence[Safe] = (),
) -> Safe:
    """The draft's new questions (numbered from ``first``, each with its right options: shown
    position and text; several make a several-answers question), ``notes`` on them (a poll's
    photo kept, or media not kept) and what to send next."""
    lines = []
    for i, options in enumerate(rights):
        key = "author_added_several" if len(options) > 1 else "author_added"
        right = join(", ", [html("{}) {}", label(shown), text) for shown, text in options])
        lines.append(t(lang, key, number=first + i, right=right))
    return join("\n", [*lines, *notes, t(lang, "author_next", count=count)])


def poll_notes(lang: Lang, media: PollExtras) -> list[Safe]:
    """A line for a quiz poll's photo kept, and one for each part of the poll not kept (named by
    its kind, never dropped silently)."""
    notes = []
    if media.photo:
        notes.append(t(lang, "author_poll_photo_added"))
    if media.refused is not None:
        key, values = media.refused
        reason = t_plain(lang, key, **values)
        notes.append(t(lang, "author_poll_photo_refused", reason=reason))
    if media.media is not None:
        kind = t_plain(lang, f"media_{media.media}")
        notes.append(t(lang, "author_poll_media_dropped", kind=kind))
    if media.explanation_media is not None:
        kind = t_plain(lang, f"media_{media.explanation_media}")
        notes.append(t(lang, "author_poll_explanation_media_dropped", kind=kind))
    if media.option_media:
        notes.append(t(lang, "author_poll_option_media_dropped"))
    if media.description:
        notes.append(t(lang, "author_poll_description_dropped"))
    return notes


def my_quizzes(
    lang: Lang, rows: Sequence[AuthoredQuiz], runs: Mapping[str, int], limit: int
) -> Safe:
    if not rows:
        return t(lang, "my_none")
    lines = [t(lang, "my_head", count=len(rows), limit=limit)]
    for row in rows:
        flags = []
        if row.published:
            flags.append(t(lang, "my_published"))
        if row.share_token:
            flags.append(t(lang, "my_shared"))
        line = t(
            lang,
            "my_line",
            name=row.name,
            title=isolated(fit(row.title, 80)),
            count=row.question_count,
            runs=runs.get(row.quiz_id, 0),
        )
        lines.append(join(" · ", [line, *flags]))
    return _fitted(join("\n", lines))


def undo_keyboard(lang: Lang, number: int, stamp: int) -> InlineKeyboardMarkup:
    """Undo the draft's last question ``number``."""
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    t_plain(lang, "author_undo_button", number=number),
                    callback_data=callbacks.encode(authoring_buttons.UndoData(number, stamp)),
                )
            ]
        ]
    )


def delete_keyboard(lang: Lang, quiz_no: int) -> InlineKeyboardMarkup:
    """Confirm or keep: ``/deletequiz``."""
    return keyboards.confirm_keyboard(
        lang, "delete_yes", "delete_no", lambda yes: authoring_buttons.DeleteData(quiz_no, yes)
    )
