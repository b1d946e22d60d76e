"""Bank forms: one-language banks, optional explanations, tags, and ``pick: N`` draws."""

from __future__ import annotations

import random
import textwrap

import pytest

from bot.banks.yaml_reader import parse_quiz
from bot.core.engine import make_plan
from bot.core.problems import BankError
from bot.features.review import views as review_views
from bot.i18n.lang import Lang
from bot.i18n.markup import html
from bot.render import bank_limits

ONE = """\
title: Networks
language: en
settings:
  pick: 2
questions:
  - id: a
    question: First?
    options: [x, y]
    correct: 1
    explanation: Because.
    tag: basics
  - id: b
    question: Second?
    options: [x, y]
    correct: 2
  - id: c
    question: Third?
    options: [x, y, z]
    correct: 3
"""


def load(text: str):  # type: ignore[no-untyped-def]
    return parse_quiz(textwrap.dedent(text), "demo.yaml", "demo", bank_limits())


def problems(text: str) -> list[str]:
    with pytest.raises(BankError) as refused:
        load(text)
    return [str(p) for p in refused.value.problems]


def test_one_language_bank_serves_the_same_text_in_both_languages() -> None:
    quiz = load(ONE)
    assert not quiz.bilingual and quiz.kind == "en only" and quiz.pick == 2
    a, b, _ = quiz.questions
    assert a.text("bn") == a.text("en") == "First?"
    assert a.explanation is not None and a.explanation("bn") == "Because."
    assert a.tag == "basics"
    assert b.explanation is None and b.note is None


def test_the_two_forms_do_not_mix() -> None:
    mixed = ONE.replace(
        "    question: Second?\n", "    question:\n      bn: দ্বিতীয়?\n      en: Second?\n"
    )
    assert problems(mixed) == [
        "demo.yaml:14: question 2 (id b): question: must be plain text: this bank is in one "
        "language (its title is plain text)"
    ]
    bilingual = "title:\n  bn: নেটওয়ার্ক\n  en: Networks\n" + ONE.split("\n", 1)[1]
    assert problems(bilingual)[0] == (
        "demo.yaml:9: question 1 (id a): question: must have both bn and en: this bank is "
        "bilingual (its title has bn and en)"
    )


def test_pick_is_checked_and_draws_afresh_in_the_bank_order() -> None:
    assert problems(ONE.replace("pick: 2", "pick: 4")) == [
        "demo.yaml:4: settings.pick: 4 is more than the 3 questions of the bank"
    ]
    assert problems(ONE.replace("pick: 2", "pick: 0")) == [
        "demo.yaml:4: settings.pick: 0 is out of range (1 to 200)"
    ]
    quiz = load(ONE)
    rng = random.Random(1)
    plans = [make_plan(quiz, rng) for _ in range(20)]
    assert all(len(p.question_ids) == 2 for p in plans)
    assert all(list(p.question_ids) == sorted(p.question_ids) for p in plans)  # bank order
    assert {p.question_ids for p in plans} == {("a", "b"), ("a", "c"), ("b", "c")}
    assert quiz.run_length == 2


def test_an_explanation_if_given_must_not_be_empty() -> None:
    assert problems(ONE.replace("explanation: Because.", "explanation: ''")) == [
        "demo.yaml:10: question 1 (id a): explanation: must not be empty"
    ]


def test_every_view_of_a_question_shows_a_one_language_bank_as_written() -> None:
    """Group reveal, tap alert, recap and review, in both chat languages: the bank's texts as
    written, the bot's words in the chat's language, no explanation line when there is none."""
    from bot import render
    from bot.core.engine import Answer, QuizEngine, Verdict

    quiz = load(
        ONE.replace("title: Networks", "title: নেটওয়ার্ক").replace("language: en", "language: bn")
    )
    engine = QuizEngine(quiz, make_plan(quiz, random.Random(2)), 30)
    with_expl = next(q for q in quiz.questions if q.explanation is not None)
    without = next(q for q in quiz.questions if q.explanation is None)
    views: tuple[tuple[Lang, str], ...] = (("bn", "সঠিক"), ("en", "Right"))
    for lang, right in views:
        for q in (with_expl, without):
            perm = tuple(range(len(q.options)))
            verdict = Verdict("accepted", Answer(0, 1, q.correct, True, 900, 0.0, 1), q.correct)
            alert = render.tap_alert(lang, verdict, q, perm)
            assert right in alert
            assert ("Because." in alert) == (q is with_expl)
            missed = review_views.Missed(1, q, perm, None)
            recap = "\n".join(
                review_views.recap_messages(
                    quiz,
                    lang,
                    points=0,
                    correct=0,
                    asked=2,
                    total=2,
                    rank=1,
                    players=1,
                    best_streak=0,
                    missed=[missed],
                )
            )
            review = review_views.review_answered(
                quiz,
                q,
                perm,
                lang,
                chosen=0,
                verdict="v",
                schedule=html("s"),
            )
            for text in (recap, review):
                assert q.text.en in text and "নেটওয়ার্ক" in text
                assert ("💡" in text) == (q is with_expl)
        reveal = render.reveal_message(engine.close(), lang, total=2)
        assert engine.question.text.en in reveal


def test_the_shipped_quiz_does_not_give_its_answers_away() -> None:
    """The content reviews: length is no cue (in either language, the right option is the
    longest in two or three questions, and neither the longest nor the second-longest in at
    least two; no place by length holds more than half the questions), and every explanation
    rebuts the tempting wrong option within the alert's 200 characters (the validator checks
    the sizes with the real verdict lines)."""
    from pathlib import Path

    from bot.banks.yaml_reader import load_quiz

    quiz = load_quiz(Path(__file__).resolve().parents[3] / "questions" / "zero.yaml", bank_limits())
    assert quiz.bilingual
    for lang in ("bn", "en"):
        places = []  # the right option's place by length: 0 the longest, 1 second-longest...
        for q in quiz.questions:
            lengths = [len(o(lang)) for o in q.options]
            places.append(sum(1 for n in lengths if n > lengths[q.correct]))
        assert 2 <= places.count(0) <= 3, (lang, places)
        assert sum(1 for p in places if p >= 2) >= 2, (lang, places)
        assert max(places.count(p) for p in set(places)) <= len(places) // 2, (lang, places)


def test_each_question_of_the_shipped_quiz_tests_its_own_fact() -> None:
    """No two questions of the shipped quiz share their answer: no long word (9+ letters) is
    in the right options of two questions, so one question cannot give another away (the
    cost of sharding was asked twice, both answered "more communication")."""
    import re
    from collections import Counter
    from pathlib import Path

    from bot.banks.yaml_reader import load_quiz

    quiz = load_quiz(Path(__file__).resolve().parents[3] / "questions" / "zero.yaml", bank_limits())
    words = Counter(
        word
        for q in quiz.questions
        for word in {w.casefold() for w in re.findall(r"[\w-]{9,}", q.options[q.correct].en)}
    )
    assert [word for word, n in words.items() if n > 1] == []
