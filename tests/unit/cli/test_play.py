"""``quizbot play`` (bot/cli/play.py) through its injected input and output: every kind of
question is asked (several right answers by letters joined, true/false, a number or a short
answer typed on a line), judged by the engine as the bot judges it, with the feedback the bot
gives and formulas in readable Unicode."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest

from bot.banks.yaml_reader import parse_quiz
from bot.cli.play import play
from bot.core.bank import Quiz
from bot.i18n.lang import Lang

KINDS = r"""
title: {bn: ধরন, en: Kinds}
language: en
settings:
  shuffle: false
questions:
  - id: primes
    question: {bn: কোনগুলো মৌলিক?, en: Which are prime?}
    options: [{bn: "২", en: "2"}, {bn: "৪", en: "4"}, {bn: "৩", en: "3"}, {bn: "৬", en: "6"}]
    correct: [1, 3]
    explanation: {bn: ২ ও ৩ মৌলিক।, en: 2 and 3 are prime.}
  - id: sky
    type: truefalse
    question: {bn: আকাশ সবুজ।, en: The sky is green.}
    correct: false
  - id: pi
    type: numeric
    question: {bn: '\(\pi\) কত?', en: 'What is \(\pi\) to two places?'}
    answers:
      - {answer: 3.14, tolerance: 0.01, feedback: {bn: ঠিক।, en: "Yes, that is \\(\\pi\\)."}}
    wrong_feedback: {bn: পাই প্রায় ৩.১৪।, en: Pi is about 3.14.}
  - id: organ
    type: short
    question: {bn: বৃহত্তম অঙ্গ?, en: The largest organ?}
    answers:
      - {answer: Skin, feedback: {bn: ঠিক, en: The skin it is.}}
"""


def _quiz() -> Quiz:
    return parse_quiz(KINDS, "kinds.yaml", "kinds")


def _play(lines: list[str], lang: Lang = "en") -> tuple[tuple[int, int], str]:
    """Play the bank with ``lines`` typed, one per prompt; (right, asked) and everything shown."""
    given: Iterator[str] = iter(lines)
    out = io.StringIO()
    result = play(_quiz(), lang, lambda: next(given, None), out, random.Random(1), lambda: 0.0)
    return result, out.getvalue()


def test_every_kind_is_asked_and_judged_with_its_feedback() -> None:
    (right, asked), shown = _play(["x", "a, c", "T", "B", "pi", "3,141", "  sKIN "])
    assert (right, asked) == (4, 4)
    # several right answers: a letter that is no label is asked again, with how to answer
    assert "Select all that apply" not in shown and "Submit" not in shown  # Telegram's words
    assert "> (A/B/C/D) Type every right one of A, B, C, D, joined by commas" in shown
    assert "✅ Right!\n2 and 3 are prime." in shown
    # true/false in the reader's language; a wrong label is asked again
    assert "A) True\nB) False" in shown
    assert "Type one of: A, B" in shown
    # a number: a word is not one (nothing judged), then a Bengali-style decimal comma, within
    # the tolerance; the question and the feedback's formula as Unicode, no TeX
    assert "What is π to two places?" in shown and "\\pi" not in shown
    assert "Please type a number (for example 3.14); nothing was counted yet." in shown
    assert "Yes, that is π." in shown
    # a short answer: case and spaces do not matter
    assert "The skin it is." in shown
    assert shown.rstrip().endswith("Score: 4/4")


def test_wrong_and_partly_right_answers_say_the_right_ones() -> None:
    (right, asked), shown = _play(["C", "A", "3.2", "bone"])
    assert (right, asked) == (0, 4)
    assert "🟡 Partly right (50%). The answer: A, C" in shown
    assert "❌ Wrong. The answer is B" in shown
    assert "❌ Not right. Pi is about 3.14.\nAnswer: 3.14 ± 0.01" in shown
    assert "Answer: Skin" in shown
    assert shown.rstrip().endswith("Score: 0/4")


def test_ends_at_end_of_input_with_the_score_so_far() -> None:
    (right, asked), shown = _play(["AC", "B", "3.14"])
    assert (right, asked) == (3, 3)
    assert "The largest organ?" in shown and shown.rstrip().endswith("Score: 3/3")


@pytest.mark.parametrize("blank", ["", "   "])
def test_a_blank_typed_answer_is_asked_again(blank: str) -> None:
    (right, asked), shown = _play(["A,C", "B", "3.14", blank, "skin"])
    assert (right, asked) == (4, 4)
    assert "Type your answer, then press Enter." in shown
    assert "send it as a message" not in shown


def test_in_bengali_digits_and_words() -> None:
    (right, asked), shown = _play(["এ", "A,C", "খ", "B", "৩.১৪", "Skin"], lang="bn")
    assert (right, asked) == (4, 4)
    assert "সব সঠিক উত্তর লিখুন" in shown  # several right answers: how to answer, in Bengali
    assert "ঠিক।" in shown and "স্কোর: ৪/৪" in shown
