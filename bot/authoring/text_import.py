"""Files and typed text go through the importers of ``quizbot import`` (bot.importers): one
import code path for the command line and the chat. Nothing here parses a question format.

In the bot, every import runs in a worker process (bot.importers.sandbox): ``read_upload`` and
``read_typed`` are what the worker runs; the event loop only awaits their result.
"""

from __future__ import annotations

from bot.authoring.catalog import parse
from bot.authoring.draft import DraftQuestion, from_quiz
from bot.bank import BankError, Quiz
from bot.i18n import t
from bot.importers import ImportReport, import_bytes
from bot.importers.sandbox import Failed, ParsePool
from bot.lang import Lang
from bot.limits import bank_limits
from bot.markup import Safe
from bot.render.authoring import problem_lines, refused

#: an import's report and the quiz it produced, if any (picklable: a worker's result)
Imported = tuple[ImportReport, Quiz | None]


def import_file(filename: str, data: bytes, max_bytes: int) -> ImportReport:
    """Import an uploaded file exactly as ``quizbot import`` does (its language guessed from
    its text); never raises on bad input."""
    return import_bytes(filename, data, quiz_id="upload", max_bytes=max_bytes)


def quiz_of(report: ImportReport) -> Quiz | None:
    """The quiz an import produced (its text was validated by the importer), else None."""
    if report.yaml_text is None:
        return None
    try:
        return parse(report.yaml_text, "import", bank_limits(), "upload")
    except BankError:
        return None


def read_upload(filename: str, data: bytes, max_bytes: int) -> Imported:
    """In a worker: an uploaded file imported, and its quiz."""
    report = import_file(filename, data, max_bytes)
    return report, quiz_of(report)


def read_typed(text: str, draft_lang: Lang) -> Imported:
    """In a worker: a message typed into a draft, read as Aiken questions."""
    report = import_bytes("message.txt", text.encode("utf-8"), quiz_id="draft", lang=draft_lang)
    return report, quiz_of(report)


async def aiken_questions(
    pool: ParsePool, text: str, draft_lang: Lang, lang: Lang
) -> list[DraftQuestion] | Safe:
    """Questions typed in the Aiken layout, or the (localized, HTML-escaped) reply refusing
    them: any problem refuses the whole message, so nothing is added half-way."""
    done = await pool.run(read_typed, text, draft_lang)
    if isinstance(done, Failed):
        return t(lang, f"parse_{done.reason}_text")
    report, quiz = done
    if quiz is None or report.problems or report.format != "aiken":
        problems = problem_lines(report, lang) if report.format == "aiken" else []
        return refused(lang, "author_text_refused", problems)
    return from_quiz(quiz)
