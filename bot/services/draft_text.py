"""Files and typed text go through the importers of ``quizbot import`` (bot.banks.importers): one
import code path for the command line and the chat. Nothing here parses a question format."""

from __future__ import annotations

from bot.banks.importers import ImportReport, import_bytes
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe
from bot.render.authoring import problem_lines, refused
from bot.services.drafts import DraftQuestion, from_quiz


def import_file(filename: str, data: bytes, max_bytes: int) -> ImportReport:
    """Import an uploaded file exactly as ``quizbot import`` does (its language guessed from
    its text); never raises on bad input."""
    return import_bytes(filename, data, quiz_id="upload", max_bytes=max_bytes)


def aiken_questions(text: str, draft_lang: Lang, lang: Lang) -> list[DraftQuestion] | Safe:
    """Questions typed in the Aiken layout, or the (localized, HTML-escaped) reply refusing
    them: any problem refuses the whole message, so nothing is added half-way."""
    report = import_bytes("message.txt", text.encode("utf-8"), quiz_id="draft", lang=draft_lang)
    quiz = report.quiz
    if quiz is None or report.problems or report.format != "aiken":
        problems = problem_lines(report, lang) if report.format == "aiken" else []
        return refused(lang, "author_text_refused", problems)
    return from_quiz(quiz)
