"""Question kinds in the bank format: several right answers with fractions,
true/false, typed numbers and short answers; read, validated, written back, and scored."""

from __future__ import annotations

import random

import pytest

from bot.banks.yaml_reader import parse_quiz
from bot.banks.yaml_writer import write_yaml
from bot.core.bank import Quiz
from bot.core.engine import QuizEngine, make_plan
from bot.core.problems import BankError
from bot.core.scoring import grade_choice, grade_typed, normalise, read_number
from bot.render import bank_limits

KINDS = """\
title: Kinds
language: en
settings:
  seconds: 20
  shuffle: false
questions:
  - id: multi
    question: Which are prime?
    options: ["2", "3", "4", "6"]
    correct: [1, 2]
  - id: weighted
    type: multiple
    question: Pick the mammals
    options: [cat, dog, trout, eel]
    correct: [1, 2]
    fractions: [0.5, 0.5, -1, -0.5]
  - id: tf
    type: truefalse
    question: The sky is green.
    correct: false
  - id: pi
    type: numeric
    question: Pi to two places?
    answers:
      - answer: 3.14
        tolerance: 0.01
        feedback: Right.
      - answer: 3
        fraction: 0.5
      - {min: 10, max: 20, fraction: 0.25}
    units: [rad]
    wrong_feedback: About 3.14.
  - id: organ
    type: short
    question: The largest organ?
    answers:
      - Skin
      - answer: the skin
        fraction: 0.5
        feedback: Just "skin".
  - id: count
    type: short
    question: How many legs has a spider? (in letters or digits)
    case_sensitive: true
    answers: ["8", Eight]
"""


def _quiz(raw: str = KINDS) -> Quiz:
    return parse_quiz(raw, "kinds.yaml", "kinds", bank_limits())


def test_kinds_read_and_write_back() -> None:
    quiz = _quiz()
    kinds = [q.kind for q in quiz.questions]
    assert kinds == ["multiple", "multiple", "truefalse", "numeric", "short", "short"]
    multi, weighted, tf, pi, organ, count = quiz.questions
    assert multi.right_options == (0, 1)
    assert weighted.fractions == (0.5, 0.5, -1.0, -0.5)
    assert tf.correct == 1 and len(tf.options) == 2
    assert [(a.value, a.tolerance, a.fraction) for a in pi.accepted] == [
        (3.14, 0.01, 1.0),
        (3.0, 0.0, 0.5),
        (15.0, 5.0, 0.25),
    ]
    assert pi.units == ("rad",) and pi.wrong_feedback is not None
    assert organ.accepted[1].fraction == 0.5 and count.case_sensitive
    again = parse_quiz(write_yaml(quiz), "kinds.yaml", "kinds", bank_limits())
    assert again == quiz
    assert Quiz.from_json(quiz.to_json(), "kinds", "kinds.yaml") == quiz
    assert "type" not in write_yaml(_quiz(SINGLE))  # today's banks are written as they were


SINGLE = """\
title: One
language: en
questions:
  - id: q
    question: Two and two?
    options: ["3", "4"]
    correct: 2
"""


@pytest.mark.parametrize(
    ("question", "key"),
    [
        (
            "  - id: x\n    question: Q\n    options: [a, b]\n    correct: [1, 1]\n",
            "bank_correct_twice",
        ),
        (
            "  - id: x\n    question: Q\n    options: [a, b, c]\n    correct: [1, 2]\n"
            "    fractions: [0.5, 0.5]\n",
            "bank_fraction_count",
        ),
        (
            "  - id: x\n    question: Q\n    options: [a, b, c]\n    correct: [1, 2]\n"
            "    fractions: [0.5, 0.2, -2]\n",
            "bank_fraction_range",
        ),
        (
            "  - id: x\n    question: Q\n    options: [a, b, c]\n    correct: [1, 2]\n"
            "    fractions: [0.5, 0.2, 0]\n",
            "bank_full_credit",
        ),
        ("  - id: x\n    type: numeric\n    question: Q\n    answers: []\n", "bank_answer_count"),
        (
            "  - id: x\n    type: numeric\n    question: Q\n"
            "    answers: [{answer: 1, tolerance: -1}]\n",
            "bank_tolerance",
        ),
        ("  - id: x\n    type: numeric\n    question: Q\n    answers: [abc]\n", "bank_not_number"),
        ("  - id: x\n    type: essay\n    question: Q\n    answers: [a]\n", "bank_bad_type"),
        ("  - id: x\n    type: truefalse\n    question: Q\n    correct: 1\n", "bank_not_bool"),
        (
            "  - id: x\n    type: short\n    question: Q\n    answers: [a]\n    options: [a, b]\n",
            "bank_key_for_kind",
        ),
        (
            "  - id: x\n    type: short\n    question: Q\n"
            "    answers: [{answer: a, fraction: 0.5}]\n",
            "bank_full_credit",
        ),
    ],
)
def test_bad_kinds_are_reported(question: str, key: str) -> None:
    raw = "title: T\nlanguage: en\nquestions:\n" + question
    with pytest.raises(BankError) as caught:
        _quiz(raw)
    assert key in [p.key for p in caught.value.problems]
    assert all(p.line is not None for p in caught.value.problems)


def test_choice_credit() -> None:
    multi, weighted = _quiz().questions[:2]
    assert grade_choice(multi, [0, 1]) == 1.0
    assert grade_choice(multi, [0]) == 0.5
    assert grade_choice(multi, [0, 2]) == 0.0  # a wrong option takes back a right one
    assert grade_choice(multi, [0, 1, 2, 3]) == 0.0  # ticking every box earns nothing
    assert grade_choice(multi, [0], all_or_nothing=True) == 0.0
    assert grade_choice(multi, [1, 0], all_or_nothing=True) == 1.0
    assert grade_choice(weighted, [0, 3]) == 0.0  # never below 0
    assert grade_choice(weighted, [1]) == 0.5


def test_typed_credit() -> None:
    quiz = _quiz()
    pi, organ, count = quiz.questions[3:]
    assert grade_typed(pi, "3.145") == (1.0, 0)
    assert grade_typed(pi, "৩.১৪ rad") == (1.0, 0)  # Bengali digits and a unit
    assert grade_typed(pi, "3,14") == (1.0, 0)
    assert grade_typed(pi, "3.16") == (0.0, None)  # outside the tolerance
    assert grade_typed(pi, "3") == (0.5, 1)
    assert grade_typed(pi, "12") == (0.25, 2)
    assert grade_typed(pi, "3.14 kg") == (0.0, None)  # not one of its units
    assert grade_typed(organ, "  SKIN ") == (1.0, 0)
    assert grade_typed(organ, "the   skin") == (0.5, 1)
    assert grade_typed(count, "৮") == (1.0, 0)
    assert grade_typed(count, "eight") == (0.0, None)  # case matters here
    assert grade_typed(count, "Eight") == (1.0, 1)
    assert normalise("  A\u00a0 b ") == "a b"
    assert read_number("1e400") is None and read_number("--1") is None


def test_engine_scores_fractions_and_streaks() -> None:
    quiz = _quiz()
    engine = QuizEngine(quiz, make_plan(quiz, random.Random(1)), 20)
    engine.open(0.0)
    half = engine.answer_many(1, 0, (0,), 0.0)  # one of two right options
    full = engine.answer_many(2, 0, (0, 1), 0.0)
    assert half.answer is not None and full.answer is not None
    assert half.answer.fraction == 0.5 and not half.answer.correct
    assert half.answer.points == 500 and full.answer.points == 1000
    assert engine.answer_many(2, 0, (2,), 0.0).status == "again"  # the first Submit counts
    reveal = engine.close()
    assert reveal.rights_shown == (0, 1) and reveal.counts == (2, 1, 0, 0)
    assert (reveal.right, reveal.partly) == (1, 1)
    engine.advance()
    engine.open(10.0)
    second = engine.answer_many(2, 1, (0, 1), 20.0)
    assert second.answer is not None and second.answer.streak == 2
    assert second.answer.points == 750 + 100  # speed points, and the streak's bonus
    partial = engine.answer_many(1, 1, (0,), 20.0)
    assert partial.answer is not None and partial.answer.streak == 0
    assert partial.answer.points == 375  # half the speed points, no streak bonus
    engine.close()
    engine.advance()
    engine.open(20.0)
    assert engine.permutation == (0, 1)  # true first, never shuffled
    tf = engine.answer(1, 2, 1, 20.0)
    assert tf.answer is not None and tf.answer.correct
    engine.close()
    engine.advance()
    engine.open(30.0)
    typed = engine.answer_typed(1, 3, "3", 30.0)
    assert typed.answer is not None and typed.answer.fraction == 0.5
    assert typed.answer.typed == "3" and typed.answer.matched == 1
    assert engine.answer_typed(2, 3, "  ", 30.0).status == "invalid"
    wrong = engine.answer_typed(2, 3, "99", 30.0)
    assert wrong.answer is not None and wrong.answer.fraction == 0 and wrong.answer.points == 0
