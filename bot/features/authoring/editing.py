"""One field of a stored quiz changed as its author typed it (the edit conversation's model
part): the quiz with it, or why not. The result is validated like any bank before it is saved
(bot/features/authoring/edit_routes.py), as a new version of the quiz (``Authoring.replace``)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.core.bank import MAX_SECONDS, MIN_SECONDS, Option, Question, Quiz, Text
from bot.core.regrade import OptionsKey, key_fits, rekey
from bot.features.authoring.drafts import check_title
from bot.i18n import whole_number
from bot.i18n.lang import Lang

#: option letters as typed: Latin, and the Bengali letters that stand for them
_LETTERS = {c: i for i, c in enumerate("ABCDEFGHIJ")} | {c: i for i, c in enumerate("কখগঘঙচছজঝঞ")}


@dataclass(frozen=True, slots=True)
class Refused:
    """Why a typed value does not fit (an i18n key and its values)."""

    key: str
    values: dict[str, object]


def _retext(quiz: Quiz, old: Text | None, new: str, lang: Lang) -> Text:
    """``new`` in place of ``old`` in the author's language (every language of a one-language
    quiz)."""
    if not quiz.bilingual or old is None:
        return Text(new, new)
    return Text(new, old.en) if lang == "bn" else Text(old.bn, new)


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def _with_question(quiz: Quiz, number: int, question: Question) -> Quiz:
    questions = list(quiz.questions)
    questions[number - 1] = question
    return replace(quiz, questions=tuple(questions))


def edited(quiz: Quiz, number: int, field: str, text: str, lang: Lang) -> Quiz | Refused:
    """``quiz`` with ``field`` (of question ``number``, 0: of the quiz) set from ``text``."""
    text = text.strip()
    if field == "t":
        title = check_title(text)
        return (
            Refused("edit_bad_title", {})
            if title is None
            else replace(quiz, title=_retext(quiz, quiz.title, title, lang))
        )
    if field == "s":
        seconds = whole_number(text, MIN_SECONDS, MAX_SECONDS)
        if seconds is None:
            return Refused("edit_bad_seconds", {"low": MIN_SECONDS, "high": MAX_SECONDS})
        return replace(quiz, seconds=seconds)
    if not 1 <= number <= len(quiz.questions):
        return Refused("edit_gone", {})
    question = quiz.questions[number - 1]
    if not text:
        return Refused("edit_bad_empty", {})
    if field == "w":
        new = replace(question, text=_retext(quiz, question.text, " ".join(text.split()), lang))
        return _with_question(quiz, number, new)
    if field == "e":
        note = None if text == "-" else _retext(quiz, question.explanation, text, lang)
        return _with_question(quiz, number, replace(question, explanation=note))
    if question.typed:
        return Refused("edit_typed_only", {})
    count = len(question.options)
    if field in ("o", "f"):
        lines = _lines(text)
        if len(lines) != count:
            return Refused("edit_bad_lines", {"count": count})
        if field == "o":
            options = tuple(
                _option(o, _retext(quiz, o, line, lang))
                for o, line in zip(question.options, lines, strict=True)
            )
        else:
            options = tuple(
                replace(o, feedback=None if line == "-" else _retext(quiz, o.feedback, line, lang))
                for o, line in zip(question.options, lines, strict=True)
            )
        return _with_question(quiz, number, replace(question, options=options))
    picked = [_LETTERS.get(c) for c in text.upper() if not c.isspace() and c not in ",;"]
    key = OptionsKey(tuple(sorted({p for p in picked if p is not None})))
    if None in picked or not key.options or not key_fits(question, key):
        letters = " ".join("ABCDEFGHIJ"[:count])
        return Refused("edit_bad_key", {"letters": letters})
    return _with_question(quiz, number, rekey(question, key))


def _option(option: Option, text: Text) -> Option:
    """``option`` with ``text``, its feedback kept."""
    return Option(text.bn, text.en, option.feedback)
