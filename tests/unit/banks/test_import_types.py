"""Importing the question types beyond one right answer (several right
answers with partial and negative credit, true/false, typed numbers and short answers) from
GIFT, Moodle XML, Quizizz/Kahoot CSV and OpenTDB; essays, matching, cloze and drag-and-drop
are reported at their line, row or element and skipped. And the export writers write every type
back, each read again to the same questions."""

from __future__ import annotations

from pathlib import Path

import pytest
from importkit import imported
from parsekit import as_exported

from bot.banks.gift_writer import write_gift
from bot.banks.moodle_writer import write_moodle_xml
from bot.banks.yaml_reader import load_quiz
from bot.banks.yaml_writer import write_yaml
from bot.core.scoring import grade_choice, grade_typed
from bot.render import bank_limits


def test_gift_types() -> None:
    quiz, lines = imported("types.gift")
    assert lines == [
        "types.gift:33: a type of question the bot does not ask (essay); skipped.",
        "types.gift:35: a type of question the bot does not ask (matching); skipped.",
    ]
    vectors, partial, sun, moon, organ, pi, dice, g = quiz.questions
    assert vectors.tag == "Physics/Week 3"
    # several "=": a one-answer question (Moodle's), each "=" option worth full marks alone
    assert vectors.kind == "single" and vectors.rights == (0, 1) and vectors.fractions == ()
    said = vectors.options[0].feedback  # a right option's feedback is its own
    assert said is not None and said.en == "Yes: it has a direction."
    assert grade_choice(vectors, {0}) == 1 and grade_choice(vectors, {1}) == 1
    assert grade_choice(vectors, {2}) == 0
    # ~%50% and ~%-25%: partial and negative credit, kept as written
    assert partial.kind == "multiple" and partial.rights == (0, 1)
    assert partial.fractions == (0.5, 0.5, -0.25, -0.25)
    assert grade_choice(partial, {0}) == 0.5 and grade_choice(partial, {0, 1, 2}) == 0.75
    # {T#wrong#right} and {FALSE}: true/false, each side's feedback
    assert (sun.kind, sun.correct, moon.kind, moon.correct) == ("truefalse", 0, "truefalse", 1)
    assert sun.explanation is not None and sun.explanation.en == "Right."
    assert sun.wrong_feedback is not None
    assert sun.wrong_feedback.en == "It is: a main-sequence star."
    # {=Skin =skin}: a short answer (the missing-word form keeps its blank)
    assert organ.kind == "short" and organ.text.en.endswith("is the _____.")
    assert [a.text for a in organ.accepted] == ["Skin", "skin"]
    assert organ.accepted[1].feedback is not None
    assert grade_typed(organ, "  SKIN ") == (1.0, 0)
    # {#3.14:0.01}, {#1..6}, and several "=" with partial credit
    assert [(a.value, a.tolerance) for a in pi.accepted] == [(3.14, 0.01)]
    assert grade_typed(pi, "৩.১৪৯")[0] == 1 and grade_typed(pi, "3.2")[0] == 0
    assert [(a.value, a.tolerance) for a in dice.accepted] == [(3.5, 2.5)]
    assert grade_typed(dice, "6")[0] == 1 and grade_typed(dice, "7")[0] == 0
    assert [(a.value, a.tolerance, a.fraction) for a in g.accepted] == [
        (9.81, 0.01, 1.0),
        (10, 0.5, 0.5),
    ]
    assert grade_typed(g, "10.2") == (0.5, 1)


def test_gift_numbers_that_are_not_numbers_are_reported() -> None:
    _, lines = imported("n.gift", b"Fine? {=yes ~no}\n\nPi? {#three:0.1}\n\nDice? {#1..x}\n")
    assert lines == [
        'n.gift:3: "three:0.1" is not a number; skipped.',
        'n.gift:5: "1..x" is not a number; skipped.',
    ]


def test_moodle_xml_types() -> None:
    quiz, lines = imported("types.xml")
    assert lines == [
        "types.xml question #6: a type of question the bot does not ask (shortanswer *); skipped.",
        "types.xml question #7: a type of question the bot does not ask (matching); skipped.",
        "types.xml question #8: a type of question the bot does not ask (drag and drop); skipped.",
        "types.xml question #9: a type of question the bot does not ask (cloze); skipped.",
    ]
    acids, water, mass, symbol = quiz.questions
    assert acids.kind == "multiple" and acids.rights == (0, 1)
    assert acids.fractions == (0.5, 0.5, -1.0) and acids.tag == "Chemistry"
    assert [o.en for o in acids.options] == ["HCl", "H2SO4", "NaOH"]
    assert water.kind == "truefalse" and water.correct == 0
    assert water.explanation is not None and water.explanation.en == "Yes, pH 7."
    assert water.wrong_feedback is not None and water.wrong_feedback.en == "It is neutral: pH 7."
    # numerical: tolerance, the units of multiplier 1, "*" as the wrong answers' feedback
    assert mass.kind == "numeric" and mass.units == ("g/mol",)
    assert [(a.value, a.tolerance) for a in mass.accepted] == [(18.015, 0.1)]
    assert mass.wrong_feedback is not None and mass.wrong_feedback.en == "H2O: 2 × 1 + 16."
    assert grade_typed(mass, "18 g/mol")[0] == 1 and grade_typed(mass, "17")[0] == 0
    # shortanswer with usecase 1: letter case matters; a wrong answer's own feedback
    assert symbol.kind == "short" and symbol.case_sensitive
    assert grade_typed(symbol, "Na") == (1.0, 0) and grade_typed(symbol, "NA") == (0.0, 1)


def test_quizizz_checkbox_fill_in_the_blank_and_true_false() -> None:
    quiz, lines = imported("quizizz-types.csv")
    assert lines == [
        "quizizz-types.csv row 5: a type of question the bot does not ask (Open-Ended); skipped."
    ]
    mammals, capital, flat, red = quiz.questions
    assert mammals.kind == "multiple" and mammals.rights == (0, 2)
    assert capital.kind == "short" and [a.text for a in capital.accepted] == [
        "Tokyo",
        "tokyo",
        "Tōkyō",
    ]
    assert flat.kind == "truefalse" and flat.correct == 1
    assert red.kind == "single" and red.correct == 1
    assert quiz.seconds == 30


def test_kahoot_several_right_answers_and_opentdb_boolean() -> None:
    quiz, _ = imported("kahoot.csv")
    assert quiz.questions[2].kind == "multiple" and quiz.questions[2].rights == (0, 1)
    trivia, _ = imported("trivia.json")
    assert [q.kind for q in trivia.questions] == ["single", "truefalse", "single"]


@pytest.mark.parametrize("source", ["types.gift", "types.xml", "quizizz-types.csv"])
@pytest.mark.parametrize("fmt", ["gift", "xml", "yaml"])
def test_every_type_round_trips_through_each_writer(source: str, fmt: str, tmp_path: Path) -> None:
    """What each writer writes reads back to the same questions: GIFT has no units, no
    case-sensitive short answers and no short answer's wrong feedback, so those are left out of
    its comparison."""
    quiz, _ = imported(source)
    if fmt == "yaml":
        path = tmp_path / "t.yaml"
        path.write_text(write_yaml(quiz), encoding="utf-8")
        again = load_quiz(path, bank_limits())
    else:
        text = write_gift(quiz, "en") if fmt == "gift" else write_moodle_xml(quiz, "en")
        again, lines = imported(f"again.{fmt}", text.encode())
        assert lines == []
        quiz = as_exported(quiz)  # an explanation comes back as the right option's feedback
    for before, after in zip(quiz.questions, again.questions, strict=True):
        lossy = fmt == "gift" and before.typed
        assert (after.kind, after.text, after.options, after.correct) == (
            before.kind,
            before.text,
            before.options,
            before.correct,
        )
        assert (after.rights, after.fractions, after.explanation) == (
            before.rights,
            before.fractions,
            before.explanation,
        )
        assert [(a.text, a.value, a.tolerance, a.fraction, a.feedback) for a in after.accepted] == [
            (a.text, a.value, a.tolerance, a.fraction, a.feedback) for a in before.accepted
        ]
        if not lossy:
            assert (after.units, after.case_sensitive, after.wrong_feedback) == (
                before.units,
                before.case_sensitive,
                before.wrong_feedback,
            )
