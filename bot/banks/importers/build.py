"""Drafts into a bank in our YAML format, each question checked by the bank's own validator."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

import yaml

from bot.banks.importers.model import FALSE, TRUE, TRUE_FALSE, Draft, Parsed, Problem
from bot.core.bank import (
    MAX_FILE_BYTES,
    MAX_OPTION_CHARS,
    MAX_OPTIONS,
    MAX_QUESTIONS,
    MAX_SECONDS,
    MAX_TITLE_CHARS,
    MIN_OPTIONS,
    MIN_SECONDS,
    BankError,
    parse_quiz,
)
from bot.core.bank import Problem as BankProblem
from bot.core.limits import bank_limits
from bot.i18n.lang import Lang

_BENGALI = re.compile("[\u0980-\u09ff]")
_LATIN = re.compile("[A-Za-z]")


@dataclass(frozen=True, slots=True)
class ImportReport:
    """The outcome of one import.

    ``yaml_text`` is the bank in our YAML format, already accepted by the bank loader, or None
    when nothing could be imported (then ``fatal`` says why). ``problems`` lists each skipped
    question or dropped part, one located line each.
    """

    format: str  # "yaml", "gift", "aiken", "moodle-xml", "csv", "opentdb"
    yaml_text: str | None
    imported: int
    problems: tuple[Problem, ...]
    fatal: Problem | None

    @property
    def skipped(self) -> int:
        """How many reported problems there are (skipped questions and dropped parts)."""
        return len(self.problems)


def guess_language(drafts: list[Draft]) -> Lang:
    """Bengali if the texts hold more Bengali letters than Latin ones, else English."""
    sample = " ".join(
        d.text + " " + ("" if d.true_false else " ".join(d.options)) for d in drafts[:50]
    )
    return "bn" if len(_BENGALI.findall(sample)) > len(_LATIN.findall(sample)) else "en"


def build(
    parsed: Parsed, fmt: str, name: str, *, quiz_id: str, lang: Lang | None, title: str | None
) -> ImportReport:
    """The bank made of ``parsed``'s drafts; each draft the validator refuses is reported."""
    problems = list(parsed.problems)
    if parsed.fatal is not None:
        return ImportReport(fmt, None, 0, tuple(problems), parsed.fatal)
    drafts = parsed.drafts
    if len(drafts) > MAX_QUESTIONS:
        for extra in drafts[MAX_QUESTIONS:]:
            problems.append(Problem(extra.where, "imp_too_many", {"limit": MAX_QUESTIONS}))
        drafts = drafts[:MAX_QUESTIONS]
    language = lang or guess_language(drafts)
    limits = bank_limits()
    head_title = _title(title or parsed.title, name)
    if len(head_title) > MAX_TITLE_CHARS:
        problems.append(
            Problem(name, "imp_title_long", {"length": len(head_title), "limit": MAX_TITLE_CHARS})
        )
        head_title = _title(None, name)[:MAX_TITLE_CHARS] or "Quiz"
    questions: list[dict[str, Any]] = []
    kept: list[Draft] = []
    for number, draft in enumerate(drafts, start=1):
        if draft.true_false:
            words = dict(zip((TRUE, FALSE), TRUE_FALSE[language], strict=True))
            draft = replace(draft, options=tuple(words[o] for o in draft.options))
        entry = _entry(draft, f"q{number}")
        problem = _precheck(draft) or _validate(entry, draft, language, limits)
        if problem is not None:
            problems.append(problem)
            continue
        questions.append(entry)
        kept.append(draft)
    where = name
    if not questions:
        fatal = Problem(where, "imp_nothing", {})
        return ImportReport(fmt, None, 0, tuple(problems), fatal)
    bank: dict[str, Any] = {"title": head_title, "language": language}
    seconds = Counter(d.seconds for d in kept).most_common(1)[0][0]
    if (
        seconds is not None
        and MIN_SECONDS <= seconds <= MAX_SECONDS
        and all(d.seconds == seconds for d in kept)
    ):
        bank["settings"] = {"seconds": seconds}
    bank["questions"] = questions
    text = dump(bank)
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        fatal = Problem(where, "imp_bank_too_big", {"limit": MAX_FILE_BYTES})
        return ImportReport(fmt, None, 0, tuple(problems), fatal)
    try:
        parse_quiz(text, name, quiz_id, limits)
    except BankError as exc:
        fatal = Problem(where, "imp_invalid", {"message": _message(exc)})
        return ImportReport(fmt, None, 0, tuple(problems), fatal)
    return ImportReport(fmt, text, len(questions), tuple(problems), None)


def dump(bank: dict[str, Any]) -> str:
    """YAML our loader reads back to the same texts (unicode kept, keys in our order)."""
    return yaml.safe_dump(
        bank, allow_unicode=True, sort_keys=False, width=100, default_flow_style=False
    )


def _title(given: str | None, name: str) -> str:
    if given and given.strip():
        title = " ".join(given.split())
    else:
        stem = name.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        title = " ".join(re.split(r"[_\-\s]+", stem)).strip() or "Quiz"
        title = title[:1].upper() + title[1:]
    return title


def _entry(draft: Draft, qid: str) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": qid,
        "question": draft.text,
        "options": list(draft.options),
        "correct": draft.correct + 1,
    }
    if draft.explanation:
        entry["explanation"] = draft.explanation
    if draft.note:
        entry["note"] = draft.note
    if draft.tag:
        entry["tag"] = draft.tag
    return entry


def _precheck(draft: Draft) -> Problem | None:
    """The limits an importer's reader knows best how to word."""
    if not draft.text.strip():
        return Problem(draft.where, "imp_empty_question", {})
    count = len(draft.options)
    if not MIN_OPTIONS <= count <= MAX_OPTIONS:
        return Problem(
            draft.where,
            "imp_option_count",
            {"count": count, "low": MIN_OPTIONS, "high": MAX_OPTIONS},
        )
    for index, option in enumerate(draft.options, start=1):
        if not option.strip():
            return Problem(draft.where, "imp_empty_option", {"n": index})
        if len(option) > MAX_OPTION_CHARS:
            return Problem(
                draft.where,
                "imp_option_too_long",
                {"n": index, "length": len(option), "limit": MAX_OPTION_CHARS},
            )
    return None


def _validate(entry: dict[str, Any], draft: Draft, lang: Lang, limits: Any) -> Problem | None:
    """The bank loader's verdict on this one question, as a bank of its own."""
    text = dump({"title": "t", "language": lang, "questions": [entry]})
    try:
        parse_quiz(text, str(draft.where), "q", limits)
    except BankError as exc:
        return Problem(draft.where, "imp_invalid", {"message": _message(exc)})
    return None


def _message(exc: BankError) -> BankProblem:
    """The validator's first problem, without the question number of its one-question bank."""
    first = exc.problems[0]
    return replace(first, where=replace(first.where, question=None, qid=None))
