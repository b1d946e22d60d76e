"""Re-judging stored answers with a new key, for every kind of question (pure: bot/core/regrade.py),
checked against values computed by hand."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.core.bank import Accepted, Option, Question, Text
from bot.core.regrade import (
    Graded,
    NumberKey,
    OptionsKey,
    TextKey,
    judge,
    key_fits,
    rekey,
    rescore,
)
from bot.features.teacher.buttons import RegradeData
from bot.features.teacher.regrade_keys import key_code, key_of_code, number_key, read_key
from bot.i18n.markup import Safe
from bot.render.callbacks import encode, parse

OPTIONS = tuple(Option(x, x) for x in "wxyz")
MULTI = Question(
    "m", 1, Text("m", "m"), OPTIONS, 0, None, kind="multiple", rights=(0, 1)
)  # A and B right
NUMERIC = Question(
    "n",
    2,
    Text("n", "n"),
    (),
    0,
    None,
    kind="numeric",
    accepted=(
        Accepted(value=3.14, tolerance=0.01),
        Accepted(value=3.0, tolerance=0.2, fraction=0.5),
    ),
)
SHORT = Question(
    "s", 3, Text("s", "s"), (), 0, None, kind="short", accepted=(Accepted(text="Skin"),)
)
SINGLE = Question("o", 4, Text("o", "o"), OPTIONS, 2, None)


def ans(q: int, qid: str, *, given: str | None, option: int = -1, after: float = 0.0) -> Graded:
    """User 7's answer in run 1 (30 s questions, posted at 100), scored as stored: none."""
    return Graded(1, q, qid, 7, option, False, 0, 100.0 + after, 100.0, 30, given, None)


def test_a_new_several_answers_key_rejudges_each_selection() -> None:
    # the new key C, D: each right option 1/2, each wrong one -1/2
    picks = {"AC": 0.0, "C": 0.5, "CD": 1.0, "ACD": 0.5, "AB": 0.0}
    new = rekey(MULTI, OptionsKey((2, 3)))
    assert new.right_options == (2, 3) and new.fractions == ()
    for given, credit in picks.items():
        assert judge(new, ans(0, "m", given=given, option=0)) == credit, given
    # all-or-nothing: only exactly C, D
    assert judge(new, ans(0, "m", given="ACD", option=0), all_or_nothing=True) == 0.0
    assert judge(new, ans(0, "m", given="CD", option=2), all_or_nothing=True) == 1.0


def test_a_numeric_key_replaces_the_full_marks_answer_and_keeps_the_partial_ones() -> None:
    new = rekey(NUMERIC, NumberKey(3.14, 0.05))
    assert [(a.value, a.tolerance, a.fraction) for a in new.accepted] == [
        (3.14, 0.05, 1.0),
        (3.0, 0.2, 0.5),
    ]
    for typed, credit in (("3.18", 1.0), ("৩.১০", 1.0), ("2.85", 0.5), ("3.5", 0.0), ("pi", 0.0)):
        assert judge(new, ans(0, "n", given=typed)) == credit, typed
    # an interval 1..5 is value 3, tolerance 2
    assert judge(rekey(NUMERIC, NumberKey(3.0, 2.0)), ans(0, "n", given="4.9")) == 1.0


def test_one_more_short_answer_is_matched_as_the_judge_normalises() -> None:
    new = rekey(SHORT, TextKey("  outer   layer "))
    for typed in ("Outer Layer", "outer  layer", " OUTER LAYER", "skin"):
        assert judge(new, ans(0, "s", given=typed)) == 1.0, typed
    assert judge(new, ans(0, "s", given="layer")) == 0.0
    digits = rekey(SHORT, TextKey("১৯৭১"))
    assert judge(digits, ans(0, "s", given="1971")) == 1.0
    strict = rekey(replace(SHORT, case_sensitive=True), TextKey("pH"))
    assert judge(strict, ans(0, "s", given="pH")) == 1.0
    assert judge(strict, ans(0, "s", given="PH")) == 0.0
    assert judge(new, replace(ans(0, "s", given=None))) is None  # no text kept: not re-judged


def test_keys_fit_only_their_kind() -> None:
    assert key_fits(MULTI, OptionsKey((0, 2))) and key_fits(MULTI, OptionsKey((3,)))
    assert not key_fits(SINGLE, OptionsKey((0, 2)))  # one right answer only
    assert key_fits(SINGLE, OptionsKey((1,)))
    assert not key_fits(MULTI, OptionsKey((4,)))  # out of range
    assert not key_fits(MULTI, NumberKey(1, 0)) and not key_fits(SHORT, NumberKey(1, 0))
    assert not key_fits(NUMERIC, TextKey("3")) and not key_fits(SHORT, TextKey("  "))
    assert not key_fits(NUMERIC, OptionsKey((0,)))


def test_points_scale_with_the_new_credit_and_streaks_count_full_marks_only() -> None:
    # one sitting, 30 s questions: the several-answers one picked A, C after 6 s (0 under the
    # key A, B); the short one typed "outer layer" at once (wrong); the single one right at once
    # (1000, no streak: it followed a wrong answer)
    sitting = [
        replace(ans(0, "m", given="AC", option=0, after=6)),
        replace(ans(1, "s", given="outer layer")),
        replace(ans(2, "o", given=None, option=2), correct=True, points=1000),
    ]
    questions = {"m": rekey(MULTI, OptionsKey((0, 2))), "s": rekey(SHORT, TextKey("Outer layer"))}
    changes = rescore(sitting, questions)
    # m: full marks now, 900 for 6 s; s: full marks, 1000 + streak 100; o: 1000 + streak 200
    assert [(c.q_index, c.correct, c.points, c.credit) for c in changes] == [
        (0, True, 900, None),
        (1, True, 1100, None),
        (2, True, 1200, None),
    ]
    assert all(c.rescored for c in changes[:2]) and not changes[2].rescored
    # a partial credit: half of the time points, no streak bonus, and the streak broken
    half = rescore(sitting, {"m": rekey(MULTI, OptionsKey((0, 1)))})
    assert half == []  # as stored: A, C under A, B is 1/2 - 1/2 = 0
    partial = rescore(sitting, {"m": rekey(MULTI, OptionsKey((0, 1))), "s": questions["s"]})
    assert [(c.q_index, c.points) for c in partial] == [(1, 1000), (2, 1100)]
    three = rekey(MULTI, OptionsKey((0, 2, 3)))  # A, C of A, C, D: 2/3
    (m,) = rescore(sitting[:1], {"m": three})
    assert (m.correct, m.points, m.credit) == (False, 600, 0.666667)


def test_rescoring_with_the_same_key_twice_changes_nothing_more() -> None:
    sitting = [ans(0, "m", given="AC", option=0, after=3), ans(1, "n", given="3.2", after=9)]
    questions = {"m": rekey(MULTI, OptionsKey((0, 2, 3))), "n": rekey(NUMERIC, NumberKey(3, 0.2))}
    first = {c.q_index: c for c in rescore(sitting, questions)}
    assert set(first) == {0, 1}
    after = [
        replace(
            a,
            correct=first[a.q_index].correct,
            points=first[a.q_index].points,
            credit=first[a.q_index].credit,
        )
        for a in sitting
    ]
    assert rescore(after, questions) == []
    # and the bank's own keys take it back to what was stored
    back = rescore(after, {"m": MULTI, "n": NUMERIC})
    # (3.2 is within the partly right 3 ± 0.2 of the bank: half of 850)
    assert {(c.q_index, c.correct, c.points) for c in back} == {(0, False, 0), (1, False, 425)}


def test_keys_as_typed_and_as_their_button_carries_them() -> None:
    # typed: letters in either script, a number in the bank's notation, +answer
    assert read_key("en", MULTI, 1, "ক, গ") == OptionsKey((0, 2))
    assert read_key("en", SINGLE, 4, "খ") == OptionsKey((1,))
    assert read_key("en", NUMERIC, 2, "১..৫") == NumberKey(3.0, 2.0)
    assert read_key("en", SHORT, 3, "+  Outer layer ") == TextKey("Outer layer")
    for question, raw, reply in (
        (SINGLE, "A,C", "has one right answer"),
        (MULTI, "A,K", "has options A, B, C, D"),
        (MULTI, "+x", "has options"),
        (NUMERIC, "3,14", "answered with a number"),
        (SHORT, "+ ", "after the +"),
        (SHORT, "skin", "answered in words"),
    ):
        got = read_key("en", question, 1, raw)
        assert isinstance(got, Safe) and reply in str(got), raw
    # on the button: options as digits, a number spelled out, a short answer as a digest that
    # finds the answer a student typed again (as the judge normalises it)
    assert key_code(MULTI, OptionsKey((0, 2))) == "02"
    number = number_key(3.14, 0.05)
    assert key_code(NUMERIC, number) == "#3.14:0.05"
    assert key_of_code(NUMERIC, "#3.14:0.05", []) == number
    code = key_code(SHORT, TextKey("Outer  Layer"))
    assert key_of_code(SHORT, code, ["skin", "outer layer ", "OUTER LAYER"]) == TextKey(
        "outer layer"
    )
    assert key_of_code(SHORT, code, ["skin"]) is None  # nobody typed it (any more)
    assert key_of_code(SINGLE, "02", []) is None  # one right answer only
    for data in (
        RegradeData("kinds", 1, code, True),
        RegradeData("u.12", 2, "#-2.5e-05:0.001", False),
    ):
        assert parse(encode(data)) == data
    long = key_code(NUMERIC, number_key(1 / 3, 1 / 7))  # "#0.3333333333:0.1428571429"
    with pytest.raises(ValueError, match="cannot encode"):  # /regrade says it is too long
        encode(RegradeData("q" * 32, 200, long, True))
    assert parse("rg:kinds:1:20:y") is None  # one spelling of each set of options
