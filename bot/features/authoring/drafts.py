"""Quiz drafts, pure: questions from quiz polls, built into a bank as imported files are.

A draft question is kept as plain data (JSON in the database). Every question is checked when it
is added, by the importers' bank builder (which builds the quiz model from it and runs the bank
validator on it), so ``/done`` can only fail on the quiz as a whole, never on a question
accepted earlier.
"""

from __future__ import annotations

import itertools
import json
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from bot.banks.importers.build import ImportReport, build
from bot.banks.importers.model import Draft as ImportDraft
from bot.banks.importers.model import Parsed
from bot.core.bank import MAX_OPTIONS, MAX_QUESTIONS, MAX_TITLE_CHARS, MIN_OPTIONS, Quiz
from bot.core.images import Picture
from bot.core.problems import Where
from bot.i18n import ascii_digits, num
from bot.i18n.lang import Lang

MAX_QUIZZES_PER_AUTHOR = 50
MAX_DRAFT_QUESTIONS = MAX_QUESTIONS  # 200
_SLUG = re.compile(r"[^a-z0-9\u0981-\u09e3\u09e6-\u09f1]+")  # ASCII and Bengali letters, digits
_BENGALI = re.compile(r"[\u0981-\u09f1]")


@dataclass(frozen=True, slots=True)
class DraftQuestion:
    """One question of a draft, in the author's language."""

    text: str
    options: tuple[str, ...]
    correct: int  # 0-based (several right answers: the first)
    explanation: str | None = None
    note: str | None = None
    image: str | None = None  # a photo the author sent after it: ``pictures/<sha256>.<ext>``
    rights: tuple[int, ...] = ()  # several right answers: every right option, 0-based, ascending

    @property
    def right_options(self) -> tuple[int, ...]:
        """Every right option (0-based): ``rights``, or ``correct`` alone."""
        return self.rights or (self.correct,)


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
    """The question a quiz poll holds, or the i18n key of why it is refused: a quiz poll with
    several right options (``correct_option_ids``, Bot API 9.6+) is a several-answers
    question."""
    if poll.type != "quiz":
        return "author_poll_not_quiz"
    if not poll.correct_ids:  # forwarded (or otherwise hidden): Telegram did not tell us
        return "author_poll_forwarded" if poll.forwarded else "author_poll_hidden"
    if not MIN_OPTIONS <= len(poll.options) <= MAX_OPTIONS:
        return "author_poll_options"
    rights = tuple(sorted(set(poll.correct_ids)))
    if not all(0 <= i < len(poll.options) for i in rights):
        return "author_poll_hidden"
    return DraftQuestion(
        poll.question.strip(),
        tuple(o.strip() for o in poll.options),
        rights[0],
        (poll.explanation or "").strip() or None,
        rights=rights if len(rights) > 1 else (),
    )


def from_quiz(quiz: Quiz) -> list[DraftQuestion]:
    """A validated bank's questions as draft questions (Aiken text typed in the chat)."""
    lang = quiz.language
    return [
        DraftQuestion(
            q.text(lang),
            tuple(o(lang) for o in q.options),
            q.correct,
            q.explanation(lang) if q.explanation else None,
            q.note(lang) if q.note else None,
            rights=q.rights if q.kind == "multiple" else (),
        )
        for q in quiz.questions
    ]


def to_json(questions: Sequence[DraftQuestion]) -> str:
    return json.dumps(
        [
            [q.text, list(q.options), q.correct, q.explanation, q.note, q.image, list(q.rights)]
            for q in questions
        ],
        ensure_ascii=False,
    )


def from_json(raw: str) -> list[DraftQuestion]:
    """The questions of a stored draft; a damaged value reads as no questions."""
    try:
        rows = json.loads(raw)
        return [
            DraftQuestion(
                str(r[0]),
                tuple(str(o) for o in r[1]),
                int(r[2]),
                None if r[3] is None else str(r[3]),
                None if r[4] is None else str(r[4]),
                None if len(r) < 6 or r[5] is None else str(r[5]),
                tuple(int(i) for i in r[6]) if len(r) > 6 else (),  # older drafts: one right
            )
            for r in rows
        ]
    except (ValueError, TypeError, IndexError, KeyError):
        return []


def bank(
    title: str,
    lang: Lang,
    questions: Sequence[DraftQuestion],
    *,
    first: int = 1,
    pictures: Mapping[str, bytes] | None = None,
) -> ImportReport:
    """The draft as a one-language bank, built and checked exactly as imported files are (each
    question by the bank validator; a refused one is a problem naming "question N"); the
    ``pictures`` its questions name, by name."""
    parsed = Parsed(
        drafts=[
            ImportDraft(
                Where(question=n),
                q.text,
                q.options,
                q.correct,
                q.explanation,
                q.note,
                image=q.image,
                kind="multiple" if q.rights else "single",
                rights=q.rights,
            )
            for n, q in enumerate(questions, start=first)
        ],
        title=title,
        files=dict(pictures or {}),
    )
    return build(
        parsed, "polls", "draft", quiz_id="draft", lang=lang, title=title, fit_explanations=False
    )


def with_picture(questions: Sequence[DraftQuestion], picture: Picture) -> list[DraftQuestion]:
    """The draft with ``picture`` on its last question (replacing one it had)."""
    *head, last = questions
    return [*head, replace(last, image=f"pictures/{picture.stored_name}")]


def check_title(raw: str) -> str | None:
    """A usable title (trimmed, one line), or None."""
    title = " ".join(raw.split())
    return title if 0 < len(title) <= MAX_TITLE_CHARS else None


def slug(title: str) -> str:
    """A name for a new quiz from its title, in its own script: lowercase ASCII or Bengali words
    joined by '-' (digits as written, in either script), else 'quiz'."""
    words = _SLUG.sub("-", unicodedata.normalize("NFC", title).casefold()).strip("-")
    return words[:24].strip("-") or "quiz"


def candidate_names(base: str) -> Iterator[str]:
    """``base``, then ``base-2``, ``base-3`` ... (``base-২`` ... for a Bengali name): names to
    try until one is free."""
    yield base
    bengali = _BENGALI.search(base) is not None
    for n in itertools.count(2):
        yield f"{base}-{num('bn', n) if bengali else n}"


def name_key(name: str) -> str:
    """A name as compared for being taken: "আলো-৩" and "আলো-3" are one name."""
    return ascii_digits(name)
