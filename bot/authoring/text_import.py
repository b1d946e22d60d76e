"""Files and typed text go through the importers of ``quizbot import`` (bot.importers): one
import code path for the command line and the chat. Nothing here parses a question format."""

from __future__ import annotations

import html
from dataclasses import dataclass

from bot import importers
from bot.authoring.draft import DraftQuestion, from_quiz
from bot.bank import BankError, Lang, Quiz, load_quiz_text
from bot.i18n import t
from bot.render import bank_limits


@dataclass(frozen=True, slots=True)
class Imported:
    """A file's import: the validated quiz and its bank text (None when nothing could be
    imported), the detected format and each problem as one localized line."""

    quiz: Quiz | None
    bank_yaml: str | None
    format: str
    problems: tuple[str, ...]


def import_file(filename: str, data: bytes, lang: Lang, quiz_id: str) -> Imported:
    """Import an uploaded file exactly as ``quizbot import`` would; never raises on bad input."""
    report = importers.import_bytes(filename, data, quiz_id=quiz_id, lang=lang)
    problems = [p.text(lang) for p in report.problems]
    if report.fatal is not None:
        problems.insert(0, report.fatal.text(lang))
    if report.yaml_text is None:
        return Imported(None, None, report.format, tuple(problems))
    try:
        quiz = load_quiz_text(report.yaml_text, quiz_id, filename, bank_limits())
    except BankError as exc:  # within the importer's rules but over a Telegram limit
        problems += [str(p) for p in exc.problems]
        return Imported(None, None, report.format, tuple(problems))
    return Imported(quiz, report.yaml_text, report.format, tuple(problems))


def aiken_questions(text: str, lang: Lang) -> list[DraftQuestion] | str:
    """Questions typed in the Aiken layout, or the (localized, HTML-escaped) reply refusing
    them: any problem refuses the whole message, so nothing is added half-way."""
    found = import_file("message.txt", text.encode("utf-8"), lang, "draft")
    if found.quiz is None or found.problems or found.format != "aiken":
        lines = [t(lang, "author_text_refused")]
        if found.format == "aiken":
            lines += [f"• {html.escape(p)}" for p in found.problems[:10]]
        return "\n".join(lines)
    return from_quiz(found.quiz, lang)
