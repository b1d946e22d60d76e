"""Re-scoring stored answers after a question's key changed, for every kind of question.
Pure: no Telegram, no database.

The rule (docs/teachers.md, "Re-grading"): each answer is judged again as if the new key had
been in force when it was given, by the scoring of bot/core/scoring.py, as the live quiz judges it.

- A new key is a question with it: ``rekey`` gives a question its new right options
  (``OptionsKey``), a numeric question its new value and tolerance (``NumberKey``: it replaces
  the answers worth full marks, the partly right ones stay) or a short-answer question one
  more accepted answer (``TextKey``, full marks).
- An answer's credit (0..1) is judged from what it stored: the options chosen (its ``given``
  letters, else its one ``option``) with the bank's all-or-nothing setting, or the text typed.
  Answers to questions without a new key, and typed answers whose text was not kept, keep their
  stored score.
- Time points stay what the answer earned when its credit does not change; otherwise they are
  ``points_for`` its answer time (from when its question was posted, which runs keep since schema
  version 5) scaled by the new credit; for an answer of an older run, whose question time is
  unknown, the earned time points are scaled (or half of 1000 if it had none).
- Streak bonuses are recomputed over each student's run with the new verdicts (only full marks
  count, as live), exactly as the live quiz counts them.
- An answer with no credit scores 0.

Scoring again with the same key changes nothing, so running a re-grading twice is harmless.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from bot.core.bank import Accepted, Question, Quiz
from bot.core.engine import MAX_POINTS, points_for, streak_bonus, streaks
from bot.core.scoring import EPSILON, earned, from_letters, grade_choice, grade_typed

UNKNOWN_TIME_POINTS = MAX_POINTS // 2


@dataclass(frozen=True, slots=True)
class Graded:
    """A stored answer as re-grading sees it."""

    run_id: int
    q_index: int
    question_id: str
    user_id: int
    option: int
    correct: bool
    points: int
    answered_at: float
    posted_at: float | None
    seconds: int
    given: str | None = None  # several options: their letters in bank order ("AC"); or typed
    credit: float | None = None  # 0..1; None: 1 if correct, else 0

    @property
    def fraction(self) -> float:
        """The credit it earned, 0..1."""
        return earned(self.credit, self.correct)


@dataclass(frozen=True, slots=True)
class Change:
    run_id: int
    q_index: int
    user_id: int
    correct: bool
    points: int
    old_correct: bool
    old_points: int
    credit: float | None = None  # as stored: None for 0 and 1 (``correct`` says which)
    old_credit: float | None = None

    @property
    def rescored(self) -> bool:
        """Whether the credit of the answer changes (not only its points)."""
        old = earned(self.old_credit, self.old_correct)
        return abs(earned(self.credit, self.correct) - old) > EPSILON


# --- new keys -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OptionsKey:
    """The right options (bank indices): one, or several for a several-answers question."""

    options: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class NumberKey:
    """A numeric question's answer worth full marks: ``value ± tolerance``."""

    value: float
    tolerance: float


@dataclass(frozen=True, slots=True)
class TextKey:
    """One more accepted short answer, worth full marks."""

    text: str


NewKey = OptionsKey | NumberKey | TextKey


def key_fits(question: Question, key: NewKey) -> bool:
    """Whether ``key`` is the kind of key ``question`` takes: options in range (exactly one
    unless it has several right answers), a number for a numeric one, a text for a short one."""
    if isinstance(key, OptionsKey):
        many = question.kind == "multiple"
        return (
            not question.typed
            and len(key.options) >= 1
            and (many or len(key.options) == 1)
            and all(0 <= o < len(question.options) for o in key.options)
        )
    if isinstance(key, NumberKey):
        return question.kind == "numeric"
    return question.kind == "short" and bool(key.text.strip())


def rekey(question: Question, key: NewKey) -> Question:
    """``question`` with the new key in force (``key_fits`` it)."""
    if isinstance(key, OptionsKey):
        options = tuple(sorted(set(key.options)))
        rights = options if question.kind == "multiple" else ()
        return replace(question, correct=options[0], rights=rights, fractions=())
    if isinstance(key, NumberKey):
        partly = tuple(a for a in question.accepted if a.fraction < 1)
        full = Accepted(value=key.value, tolerance=key.tolerance)
        return replace(question, accepted=(full, *partly))
    return replace(question, accepted=(*question.accepted, Accepted(text=key.text.strip())))


# --- re-scoring -----------------------------------------------------------------------------------


def judge(question: Question, answer: Graded, all_or_nothing: bool = False) -> float | None:
    """The credit ``answer`` earns under ``question``'s key (None: it cannot be judged again,
    a typed answer whose text was not kept)."""
    if question.typed:
        return None if answer.given is None else grade_typed(question, answer.given)[0]
    picked = from_letters(answer.given) if answer.given else (answer.option,)
    return grade_choice(question, picked, all_or_nothing)


def rescore(
    answers: Iterable[Graded], questions: Mapping[str, Question], all_or_nothing: bool = False
) -> list[Change]:
    """New (correct, points, credit) of every answer whose score changes when judged by
    ``questions`` (question id → the question with its key; others keep their score)."""
    sittings: dict[tuple[int, int], dict[int, Graded]] = {}
    for a in answers:
        sittings.setdefault((a.run_id, a.user_id), {})[a.q_index] = a
    changes: list[Change] = []
    for mine in sittings.values():
        changes += _rescore_sitting(mine, questions, all_or_nothing)
    return changes


def _rescore_sitting(
    mine: Mapping[int, Graded], questions: Mapping[str, Question], all_or_nothing: bool
) -> list[Change]:
    last = max(mine)
    old = streaks([mine[q].correct if q in mine else None for q in range(last + 1)])
    fractions: dict[int, float] = {}
    for q, a in mine.items():
        question = questions.get(a.question_id)
        judged = judge(question, a, all_or_nothing) if question is not None else None
        fractions[q] = a.fraction if judged is None else judged
    new = streaks([fractions[q] >= 1 if q in mine else None for q in range(last + 1)])
    changes = []
    for q, a in sorted(mine.items()):
        fraction = fractions[q]
        full = fraction >= 1
        points = 0
        if fraction > 0:
            points = _time_points(a, old[q], fraction) + (streak_bonus(new[q]) if full else 0)
        credit = None if fraction in (0.0, 1.0) else fraction
        if full != a.correct or points != a.points or credit != a.credit:
            changes.append(
                Change(a.run_id, q, a.user_id, full, points, a.correct, a.points, credit, a.credit)
            )
    return changes


def _time_points(a: Graded, old_streak: int, fraction: float) -> int:
    earned = a.points - (streak_bonus(old_streak) if a.correct else 0)
    if a.fraction > 0 and abs(fraction - a.fraction) <= EPSILON:
        return earned
    if a.posted_at is not None and a.seconds > 0:
        return points_for(a.answered_at - a.posted_at, a.seconds, fraction)
    if a.fraction > 0:
        return round(earned * fraction / a.fraction)
    return round(UNKNOWN_TIME_POINTS * fraction)


# --- key fixes kept -------------------------------------------------------------------------------


def key_to_json(key: NewKey) -> str:
    """A new key as stored with its fix (``key_fixes.key``)."""
    if isinstance(key, OptionsKey):
        return json.dumps({"options": list(key.options)})
    if isinstance(key, NumberKey):
        return json.dumps({"value": key.value, "tolerance": key.tolerance})
    return json.dumps({"text": key.text}, ensure_ascii=False)


def key_from_json(text: str) -> NewKey | None:
    """A stored key back (None if it is not one: a fix written by a later version)."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    options, value, tolerance, typed = (
        data.get("options"),
        data.get("value"),
        data.get("tolerance"),
        data.get("text"),
    )
    if isinstance(options, list) and options and all(type(o) is int for o in options):
        return OptionsKey(tuple(options))
    if isinstance(value, int | float) and isinstance(tolerance, int | float):
        return NumberKey(float(value), float(tolerance))
    if isinstance(typed, str) and typed.strip():
        return TextKey(typed)
    return None


def current_key(question: Question) -> NewKey:
    """The key ``question`` has now, as a fix would set it: its right options, its number worth
    full marks, or its first short answer worth full marks."""
    if not question.typed:
        return OptionsKey(tuple(sorted(question.right_options)))
    full = next((a for a in question.accepted if a.fraction >= 1), question.accepted[0])
    if question.kind == "numeric":
        return NumberKey(full.value, full.tolerance)
    return TextKey(full.text)


def with_fixes(quiz: Quiz, fixes: Iterable[tuple[str, NewKey]]) -> Quiz:
    """``quiz`` with each fix (question id, its new key), in order, in force; a fix of a
    question the quiz no longer has, or that no longer fits it, is left out."""
    questions = list(quiz.questions)
    where = {q.id: n for n, q in enumerate(questions)}
    changed = False
    for question_id, key in fixes:
        n = where.get(question_id)
        if n is None or not key_fits(questions[n], key) or _holds(questions[n], key):
            continue
        questions[n] = rekey(questions[n], key)
        changed = True
    return replace(quiz, questions=tuple(questions)) if changed else quiz


def _holds(question: Question, key: NewKey) -> bool:
    """Whether a short-answer key is accepted already (a fix laid over its bank again)."""
    return isinstance(key, TextKey) and any(
        a.text == key.text.strip() for a in question.accepted if a.fraction >= 1
    )
