"""A validated quiz as compact JSON and back, for stored quizzes (pure).

A stored quiz is checked once, by the bank validator, when it is saved; what is stored next to
its bank text is the validated model itself, so loading it again is a JSON decode and a few
constructor calls per question (no YAML, no validation, no ``dataclasses.replace``). The one
place that knows the layout: swap it for the model's own ``to_json``/``from_json`` once the
model has them.

Layout (version 1): ``{"v": 1, "title": T, "language": ..., "questions": [Q, ...], "seconds",
"shuffle", "source", "bilingual", "pick"}``; a text ``T`` is ``[bn, en]``; a question ``Q`` is
``[id, number, T, [T, ...], correct, T|null, T|null, tag|null]``. The quiz's id is not stored:
it is the row's.
"""

from __future__ import annotations

from typing import Any

import orjson

from bot.core.bank import Question, Quiz, Text
from bot.i18n.lang import as_lang

VERSION = 1


class QuizJsonError(ValueError):
    """The text is not a stored quiz of a layout this code reads."""


def _text(value: Text) -> list[str]:
    return [value.bn, value.en]


def _maybe(value: Text | None) -> list[str] | None:
    return None if value is None else [value.bn, value.en]


def to_json(quiz: Quiz) -> str:
    """The quiz (its id left out) as compact JSON text."""
    return orjson.dumps(
        {
            "v": VERSION,
            "title": _text(quiz.title),
            "language": quiz.language,
            "questions": [
                [
                    q.id,
                    q.number,
                    _text(q.text),
                    [_text(o) for o in q.options],
                    q.correct,
                    _maybe(q.explanation),
                    _maybe(q.note),
                    q.tag,
                ]
                for q in quiz.questions
            ],
            "seconds": quiz.seconds,
            "shuffle": quiz.shuffle,
            "source": quiz.source,
            "bilingual": quiz.bilingual,
            "pick": quiz.pick,
        }
    ).decode()


def from_json(raw: str | bytes, quiz_id: str) -> Quiz:
    """The quiz ``to_json`` wrote, under id ``quiz_id``; QuizJsonError if it is not one."""
    try:
        data = orjson.loads(raw)
        if data.get("v") != VERSION:
            raise QuizJsonError(f"unknown stored quiz layout {data.get('v')!r}")
        language = as_lang(data["language"])
        if language is None:
            raise QuizJsonError(f"unknown language {data['language']!r}")
        return Quiz(
            id=quiz_id,
            title=Text(*data["title"]),
            language=language,
            questions=tuple(_question(q) for q in data["questions"]),
            seconds=data["seconds"],
            shuffle=data["shuffle"],
            source=data["source"],
            bilingual=data["bilingual"],
            pick=data["pick"],
        )
    except (orjson.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as exc:
        if isinstance(exc, QuizJsonError):
            raise
        raise QuizJsonError(f"not a stored quiz: {exc}") from None


def _question(q: list[Any]) -> Question:
    qid, number, text, options, correct, explanation, note, tag = q
    return Question(
        qid,
        number,
        Text(*text),
        tuple(Text(*o) for o in options),
        correct,
        None if explanation is None else Text(*explanation),
        None if note is None else Text(*note),
        tag,
    )
