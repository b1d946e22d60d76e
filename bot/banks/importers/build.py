"""Drafts into a bank: the quiz model built directly from them, checked once by the bank's
validator (a question it refuses is reported at the draft's own place and left out), and written
as bank YAML once by the one writer."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from bot.banks.importers.model import FALSE, TRUE, TRUE_FALSE, Draft, Parsed, Problem
from bot.banks.yaml_writer import write_yaml
from bot.core.bank import (
    MAX_FILE_BYTES,
    MAX_OPTION_CHARS,
    MAX_OPTIONS,
    MAX_QUESTIONS,
    MAX_SECONDS,
    MAX_TITLE_CHARS,
    MIN_OPTIONS,
    MIN_SECONDS,
    Option,
    Question,
    Quiz,
    Text,
)
from bot.core.limits import bank_limits
from bot.core.mathtext import tidy
from bot.core.problems import Problem as BankProblem
from bot.core.problems import SourceMap
from bot.core.validator import validate
from bot.i18n.lang import Lang

_DOLLARS = ("gift", "moodle-xml")  # Moodle's formats: ``$x$`` is a formula there
_BENGALI = re.compile("[\u0980-\u09ff]")
_LATIN = re.compile("[A-Za-z]")


@dataclass(frozen=True, slots=True)
class ImportReport:
    """The outcome of one import.

    ``quiz`` is the bank, accepted by the bank validator, and ``yaml_text`` the same bank as a
    bank file; both None when nothing could be imported (then ``fatal`` says why).
    ``problems`` lists each skipped question or dropped part, one located line each.
    """

    format: str  # "yaml", "gift", "aiken", "moodle-xml", "csv", "opentdb"
    yaml_text: str | None
    imported: int
    problems: tuple[Problem, ...]
    fatal: Problem | None
    quiz: Quiz | None = None

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
    head_title = _title(title or parsed.title, name)
    if len(head_title) > MAX_TITLE_CHARS:
        problems.append(
            Problem(name, "imp_title_long", {"length": len(head_title), "limit": MAX_TITLE_CHARS})
        )
        head_title = _title(None, name)[:MAX_TITLE_CHARS] or "Quiz"
    # each draft in order: refused by its reader's own limits, or a question to validate
    slots: list[Problem | tuple[Draft, Question]] = []
    candidates: list[Question] = []
    for number, draft in enumerate(drafts, start=1):
        if draft.true_false:
            words = dict(zip((TRUE, FALSE), TRUE_FALSE[language], strict=True))
            draft = replace(draft, options=tuple(words[o] for o in draft.options))
        problem = _precheck(draft)
        if problem is not None:
            slots.append(problem)
            continue
        question = _question(draft, f"q{number}", len(candidates) + 1, fmt in _DOLLARS)
        candidates.append(question)
        slots.append((draft, question))
    head = Quiz(quiz_id, Text(head_title, head_title), language, (), source=name, bilingual=False)
    refusals = _refusals(replace(head, questions=tuple(candidates)), slots) if candidates else {}
    kept: list[tuple[Draft, Question]] = []
    for slot in slots:
        if isinstance(slot, Problem):
            problems.append(slot)
        elif slot[1].number in refusals:
            problems.append(refusals[slot[1].number])
        else:
            kept.append(slot)
    if not kept:
        return ImportReport(fmt, None, 0, tuple(problems), Problem(name, "imp_nothing", {}))
    if None in refusals:  # the bank as a whole (its name): nothing can be imported
        return ImportReport(fmt, None, 0, tuple(problems), refusals[None])
    quiz = replace(
        head,
        questions=tuple(replace(q, number=n) for n, (_, q) in enumerate(kept, start=1)),
        seconds=_seconds([d for d, _ in kept]),
    )
    text = write_yaml(quiz)
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        fatal = Problem(name, "imp_bank_too_big", {"limit": MAX_FILE_BYTES})
        return ImportReport(fmt, None, 0, tuple(problems), fatal)
    return ImportReport(fmt, text, len(kept), tuple(problems), None, quiz)


def _refusals(
    quiz: Quiz, slots: list[Problem | tuple[Draft, Question]]
) -> dict[int | None, Problem]:
    """The validator's verdict on every candidate question at once: its first problem with each
    refused question (by number; None: the bank as a whole), located where its draft was read."""
    places = {slot[1].number: slot[0].where for slot in slots if isinstance(slot, tuple)}
    first: dict[int | None, Problem] = {}
    for found in validate(quiz, bank_limits(), SourceMap(quiz.source, places=places)):
        if found.where.question not in first:
            place = found.place if found.place is not None else quiz.source
            first[found.where.question] = Problem(place, "imp_invalid", _message(found))
    return first


def _seconds(drafts: list[Draft]) -> int | None:
    """The drafts' time limit when they all give the same one the bank allows, else None."""
    seconds = Counter(d.seconds for d in drafts).most_common(1)[0][0]
    if (
        seconds is not None
        and MIN_SECONDS <= seconds <= MAX_SECONDS
        and all(d.seconds == seconds for d in drafts)
    ):
        return seconds
    return None


def _title(given: str | None, name: str) -> str:
    if given and given.strip():
        title = " ".join(given.split())
    else:
        stem = name.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        title = " ".join(re.split(r"[_\-\s]+", stem)).strip() or "Quiz"
        title = title[:1].upper() + title[1:]
    return title


def _text(text: str, dollars: bool) -> Text:
    """A one-language text, trimmed as the YAML reader trims it, its formulas as a bank keeps
    them (bot/core/mathtext.py: empty markers dropped, Moodle's ``$x$`` as ``\\(x\\)``)."""
    kept = tidy(text.strip(), dollars=dollars).strip()
    return Text(kept, kept)


def _question(draft: Draft, qid: str, number: int, dollars: bool) -> Question:
    feedback = [*draft.feedback, *[None] * len(draft.options)]
    return Question(
        id=qid,
        number=number,
        text=_text(draft.text, dollars),
        options=tuple(
            _option(option, given, dollars)
            for option, given in zip(draft.options, feedback, strict=False)
        ),
        correct=draft.correct,
        explanation=_text(draft.explanation, dollars) if draft.explanation else None,
        note=_text(draft.note, dollars) if draft.note else None,
        tag=draft.tag.strip() if draft.tag else None,
    )


def _option(text: str, feedback: str | None, dollars: bool) -> Option:
    """An option and its own feedback (None when it has none)."""
    kept = _text(text, dollars)
    given = _text(feedback, dollars) if feedback and feedback.strip() else None
    return Option(kept.bn, kept.en, given)


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


def _message(problem: BankProblem) -> dict[str, object]:
    """The validator's problem as an import problem's message, without the question number of
    the bank it was checked in (the draft's own place names the question)."""
    return {"message": replace(problem, where=replace(problem.where, question=None, qid=None))}
