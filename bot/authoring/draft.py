"""Quiz drafts, pure: questions from quiz polls, checked by the bank validator, written as YAML.

A draft question is kept as plain data (JSON in the database). Every question is checked when it
is added, by writing it as a one-question bank and running the same validator as bank files, so
``/done`` can only fail on the quiz as a whole (never on a question accepted earlier).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import yaml

from bot.bank import (
    LANGS,
    MAX_OPTIONS,
    MAX_QUESTIONS,
    MAX_TITLE_CHARS,
    MIN_OPTIONS,
    BankError,
    Lang,
    Limits,
    Problem,
    Quiz,
    load_quiz_text,
)

MAX_QUIZZES_PER_AUTHOR = 50
MAX_DRAFT_QUESTIONS = MAX_QUESTIONS  # 200
_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True, slots=True)
class DraftQuestion:
    """One question of a draft, in the author's language."""

    text: str
    options: tuple[str, ...]
    correct: int  # 0-based
    explanation: str | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class PollFacts:
    """What a quiz poll the author sent tells us (taken from telegram.Poll by the handler)."""

    type: str
    question: str
    options: tuple[str, ...]
    correct_ids: tuple[int, ...]
    allows_multiple: bool
    explanation: str | None
    forwarded: bool


def from_poll(poll: PollFacts) -> DraftQuestion | str:
    """The question a quiz poll holds, or the i18n key of why it is refused."""
    if poll.type != "quiz":
        return "author_poll_not_quiz"
    if poll.allows_multiple or len(poll.correct_ids) > 1:
        return "author_poll_many_right"
    if not poll.correct_ids:  # forwarded (or otherwise hidden): Telegram did not tell us
        return "author_poll_forwarded" if poll.forwarded else "author_poll_hidden"
    if not MIN_OPTIONS <= len(poll.options) <= MAX_OPTIONS:
        return "author_poll_options"
    correct = poll.correct_ids[0]
    if not 0 <= correct < len(poll.options):
        return "author_poll_hidden"
    return DraftQuestion(poll.question.strip(), tuple(o.strip() for o in poll.options), correct,
                         (poll.explanation or "").strip() or None)


def from_quiz(quiz: Quiz, lang: Lang) -> list[DraftQuestion]:
    """A validated bank's questions as draft questions (Aiken text typed in the chat)."""
    return [DraftQuestion(q.text(lang), tuple(o(lang) for o in q.options), q.correct,
                          q.explanation(lang) or None, q.note(lang) if q.note else None)
            for q in quiz.questions]


def default_explanation(question: DraftQuestion) -> str:
    """What a tap shows when the author gave no explanation: the right option itself."""
    return f"✅ {question.options[question.correct]}"


def to_json(questions: Sequence[DraftQuestion]) -> str:
    return json.dumps([[q.text, list(q.options), q.correct, q.explanation, q.note]
                       for q in questions], ensure_ascii=False)


def from_json(raw: str) -> list[DraftQuestion]:
    """The questions of a stored draft; a damaged value reads as no questions."""
    try:
        rows = json.loads(raw)
        return [DraftQuestion(str(r[0]), tuple(str(o) for o in r[1]), int(r[2]),
                              None if r[3] is None else str(r[3]),
                              None if r[4] is None else str(r[4])) for r in rows]
    except (ValueError, TypeError, IndexError, KeyError):
        return []


def _text(value: str) -> dict[str, str]:
    return {lang: value for lang in LANGS}


def bank_yaml(title: str, lang: Lang, questions: Sequence[DraftQuestion]) -> str:
    """The draft as a bank file in our YAML format (the same text in both languages)."""
    items = []
    for number, q in enumerate(questions, start=1):
        item: dict[str, object] = {
            "id": f"q{number}",
            "question": _text(q.text),
            "options": [_text(o) for o in q.options],
            "correct": q.correct + 1,
            "explanation": _text(q.explanation or default_explanation(q)),
        }
        if q.note:
            item["note"] = _text(q.note)
        items.append(item)
    doc = {"title": _text(title), "language": lang, "questions": items}
    return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=1000)


def validate(title: str, lang: Lang, questions: Sequence[DraftQuestion], quiz_id: str,
             limits: Limits) -> tuple[Quiz | None, list[Problem], str]:
    """Check a draft with the bank validator: (quiz or None, problems, YAML text)."""
    text = bank_yaml(title, lang, questions)
    try:
        return load_quiz_text(text, quiz_id, "draft", limits), [], text
    except BankError as exc:
        return None, exc.problems, text


def check_title(raw: str) -> str | None:
    """A usable title (trimmed, one line), or None."""
    title = " ".join(raw.split())
    return title if 0 < len(title) <= MAX_TITLE_CHARS else None


def slug(title: str) -> str:
    """A name for a new quiz from its title: lowercase ASCII words joined by '-', else 'quiz'."""
    words = _SLUG.sub("-", title.casefold()).strip("-")
    return words[:24].strip("-") or "quiz"


def candidate_names(base: str) -> Iterator[str]:
    """``base``, then ``base-2``, ``base-3`` ...: names to try until one is free."""
    yield base
    for n in itertools.count(2):
        yield f"{base}-{n}"
