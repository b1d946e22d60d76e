"""Files and typed text go through the importers of ``quizbot import`` (bot.banks.importers): one
import code path for the command line and the chat. Nothing here parses a question format.

In the bot, every import runs in a worker process (bot.banks.importers.sandbox): ``read_upload``
and ``read_typed`` are what the worker runs; the event loop only awaits their result.
"""

from __future__ import annotations

from bot.banks.importers import ImportReport, import_bytes
from bot.banks.importers.sandbox import Failed, ParsePool
from bot.banks.importers.ziparchive import MAX_ZIP_BYTES
from bot.features.authoring.drafts import DraftQuestion, from_quiz
from bot.features.authoring.views import problem_lines, refused
from bot.i18n import t
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe


def import_file(
    filename: str, data: bytes, max_bytes: int, max_zip_bytes: int = MAX_ZIP_BYTES
) -> ImportReport:
    """Import an uploaded file exactly as ``quizbot import`` does (its language guessed from
    its text; a .zip: its question file with the pictures beside it); never raises on bad
    input."""
    return import_bytes(
        filename, data, quiz_id="upload", max_bytes=max_bytes, max_zip_bytes=max_zip_bytes
    )


def read_upload(
    filename: str, data: bytes, max_bytes: int, max_zip_bytes: int = MAX_ZIP_BYTES
) -> ImportReport:
    """In a worker: an uploaded file imported (its quiz in ``report.quiz``)."""
    return import_file(filename, data, max_bytes, max_zip_bytes)


def read_typed(text: str, draft_lang: Lang) -> ImportReport:
    """In a worker: a message typed into a draft, read as Aiken questions."""
    return import_bytes("message.txt", text.encode("utf-8"), quiz_id="draft", lang=draft_lang)


async def aiken_questions(
    pool: ParsePool, text: str, draft_lang: Lang, lang: Lang
) -> list[DraftQuestion] | Safe | None:
    """Questions typed in the Aiken layout, or the (localized, HTML-escaped) reply refusing
    them: any problem refuses the whole message, so nothing is added half-way. None when the
    bot's stop ended the reading (no answer now: the sender is asked again after the restart)."""
    report = await pool.run(read_typed, text, draft_lang)
    if isinstance(report, Failed):
        if report.reason == "stopping":
            return None
        return t(lang, f"parse_{report.reason}_text")
    quiz = report.quiz
    if quiz is None or report.problems or report.format != "aiken":
        problems = problem_lines(report, lang) if report.format == "aiken" else []
        return refused(lang, "author_text_refused", problems)
    return from_quiz(quiz)
