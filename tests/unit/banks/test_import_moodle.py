"""Moodle's own import tests as the oracle: each case of question/format/gift/tests/
giftformat_test.php and question/format/xml/tests/xmlformat_test.php (moodle/moodle), its input
written out here and the result Moodle expects (the kind, one answer or several, each fraction,
each feedback), for every kind of question the bot holds; the kinds it does not hold (essay,
matching, description, cloze) named in the report. Then the cases the issue found on real
files: ``{~1 =2 ~3 =4 ~5}``, ``~%n%`` without ``=``, ``*`` in typed answers, ``<single>false``
with 100/0/100/0, ``->`` in a multiple choice, and Moodle's own CSV layout."""

from __future__ import annotations

import importkit
import pytest

from bot.banks.importers import import_bytes
from bot.banks.yaml_reader import parse_quiz
from bot.banks.yaml_writer import write_yaml
from bot.core.bank import Question, Quiz, Text
from bot.core.engine import Reveal
from bot.core.limits import bank_limits
from bot.core.scoring import grade_choice, grade_typed
from bot.render.quiz import reveal_message
from bot.render.text import plain_text


def imported(name: str, data: str) -> tuple[Quiz, list[str]]:
    """The bank ``data`` imports to, and every report line (English)."""
    return importkit.imported(name, data.encode("utf-8"))


def one(name: str, data: str) -> Question:
    quiz, lines = imported(name, data)
    assert lines == []
    (question,) = quiz.questions
    return question


def feedbacks(q: Question) -> list[str | None]:
    return [None if o.feedback is None else o.feedback.en for o in q.options]


# --- GIFT: giftformat_test.php ------------------------------------------------------------


def test_gift_multichoice() -> None:
    """test_import_multichoice: ``=`` present, so one answer (single 1), fractions 1, 0, 0;
    each answer's own format marker obeyed."""
    q = one(
        "mc.gift",
        "// multiple choice with specified feedback for right and wrong answers\n"
        "::Q2:: What's between orange and green in the spectrum?\n"
        "{\n"
        "    =yellow # right; good!\n"
        "    ~red # [html]wrong, it's yellow\n"
        "    ~[plain]blue # wrong, it's yellow\n"
        "}",
    )
    assert q.text.en == "What's between orange and green in the spectrum?"
    assert q.kind == "single"
    assert [o.en for o in q.options] == ["yellow", "red", "blue"]
    assert q.fractions in ((), (1, 0, 0)) and q.right_options == (0,)
    assert feedbacks(q) == ["right; good!", "wrong, it's yellow", "wrong, it's yellow"]


def test_gift_multichoice_multi() -> None:
    """test_import_multichoice_multi: no ``=``, so several may be ticked (single 0), fractions
    0.5, -1, 0.5, -1 as written."""
    q = one(
        "multi.gift",
        "::colours:: What's between orange and green in the spectrum?\n"
        "{\n"
        "    ~%50%yellow # right; good!\n"
        "    ~%-100%red # [html]wrong\n"
        "    ~%50%off-beige # right; good!\n"
        "    ~%-100%[plain]blue # wrong\n"
        "}",
    )
    assert q.kind == "multiple"
    assert [o.en for o in q.options] == ["yellow", "red", "off-beige", "blue"]
    assert q.fractions == (0.5, -1, 0.5, -1)
    assert feedbacks(q) == ["right; good!", "wrong", "right; good!", "wrong"]


def test_gift_multichoice_multi_tricky() -> None:
    """test_import_multichoice_multi_tricky: ``~%100%yellow ~%-50%red ~%-50%blue`` has no
    ``=``: Moodle lets students tick several (single 0), fractions 1, -0.5, -0.5, so ticking
    yellow and red earns half."""
    q = one(
        "tricky.gift",
        "::colours:: What's between orange and green in the spectrum?\n"
        "{\n    ~%100%yellow # right; good!\n    ~%-50%red # wrong\n    ~%-50%blue # wrong\n}",
    )
    assert q.kind == "multiple" and q.rights == (0,)
    assert q.fractions == (1, -0.5, -0.5)
    assert grade_choice(q, {0}) == 1 and grade_choice(q, {0, 1}) == 0.5
    assert grade_choice(q, {0, 1, 2}) == 0


def test_gift_numerical() -> None:
    """test_import_numerical: ``{#3:2~#Completely wrong}``: 3 within 2 is full marks; ``~#``
    is the answer ``*`` (any other), its feedback what a wrong answer is told."""
    q = one(
        "num.gift",
        "// math range question\n::Q5:: What is a number from 1 to 5? {#3:2~#Completely wrong}",
    )
    assert q.kind == "numeric" and q.text.en == "What is a number from 1 to 5?"
    assert [(a.value, a.tolerance, a.fraction) for a in q.accepted] == [(3, 2, 1)]
    assert q.wrong_feedback is not None and q.wrong_feedback.en == "Completely wrong"


def test_gift_shortanswer_star_is_any_other_answer() -> None:
    """test_import_shortanswer: ``=%0%*#Completely wrong`` is any other answer: never a
    literal answer ``*``, its feedback what a wrong answer is told."""
    q = one(
        "short.gift",
        "::Shortanswer::Which is the best animal?{\n"
        "    =Frog#Good!\n"
        "    =%50%Cat#What is it with Moodlers and cats?\n"
        "    =%0%*#Completely wrong\n"
        "}",
    )
    assert q.kind == "short"
    assert [(a.text, a.fraction) for a in q.accepted] == [("Frog", 1), ("Cat", 0.5)]
    said = [None if a.feedback is None else a.feedback.en for a in q.accepted]
    assert said == ["Good!", "What is it with Moodlers and cats?"]
    assert q.wrong_feedback is not None and q.wrong_feedback.en == "Completely wrong"
    assert grade_typed(q, "*") == (0.0, None)  # no student earns marks by typing "*"
    assert grade_typed(q, "cat") == (0.5, 1)


def test_gift_shortanswer_with_general_feedback() -> None:
    """test_import_shortanswer_with_general_feedback: ``####[html]...`` is the general
    feedback, in its own format."""
    q = one(
        "general.gift",
        "::Shortanswer::Which is the best animal?{\n"
        "    =Frog#Good!\n"
        "    =%50%Cat#What is it with Moodlers and cats?\n"
        "    =%0%*#Completely wrong\n"
        "    ####[html]Here is some general feedback!\n"
        "}",
    )
    assert q.note is not None and q.note.en == "Here is some general feedback!"
    assert len(q.accepted) == 2


@pytest.mark.parametrize(
    ("gift", "right", "wrong"),
    [
        ("Is it? {T}", 0, None),
        ("Is it? {TRUE#No, it is.#Yes.}", 0, "No, it is."),
        ("Is it? {FALSE#It is not.}", 1, "It is not."),
    ],
)
def test_gift_truefalse(gift: str, right: int, wrong: str | None) -> None:
    """``T``, ``TRUE``, ``F``, ``FALSE`` (upper case, as Moodle compares them): a true/false
    question, the first feedback for a wrong answer, the second for a right one."""
    q = one("tf.gift", gift)
    assert q.kind == "truefalse" and q.correct == right
    assert (q.wrong_feedback.en if q.wrong_feedback else None) == wrong


def test_gift_lower_case_true_is_a_short_answer_as_in_moodle() -> None:
    q = one("t.gift", "Is it? {true}")
    assert q.kind == "short" and [a.text for a in q.accepted] == ["true"]


@pytest.mark.parametrize(
    ("gift", "kind"),
    [
        ("::Q8:: How are you? {}", "essay"),
        ("Match.{=Canada -> Ottawa =Italy -> Rome}", "matching"),
        ("Just a description.", "a description"),
    ],
)
def test_gift_kinds_not_held_are_named(gift: str, kind: str) -> None:
    """test_import_essay, test_import_match, a description: named in the report."""
    report = import_bytes("kinds.gift", f"{gift}\n\nFine? {{=yes ~no}}\n".encode(), quiz_id="k")
    assert [p.text("en") for p in report.problems] == [
        f"kinds.gift:1: a type of question the bot does not ask ({kind}); skipped."
    ]


# --- GIFT: the cases found on real files ------------------------------------------------------


def test_any_equals_sign_makes_one_answer_and_each_is_full_marks() -> None:
    q = one("eq.gift", "Which are even? {~1 =2 ~3 =4 ~5}")
    assert q.kind == "single" and q.right_options == (1, 3)
    assert grade_choice(q, {1}) == 1 and grade_choice(q, {3}) == 1 and grade_choice(q, {0}) == 0
    again = Quiz.from_dict(q_dict := _bank(q).to_dict(), "again")
    assert q_dict["questions"][0]["type"] == "single"
    assert q_dict["questions"][0]["correct"] == [2, 4]
    assert again.questions[0].right_options == (1, 3) and again.questions[0].kind == "single"


def test_an_arrow_in_a_multiple_choice_is_an_option() -> None:
    """Moodle reads multiple choice once a ``~`` is there, ``->`` or not."""
    q = one("arrow.gift", "Which is right? {=A -> B ~B -> A ~neither}")
    assert q.kind == "single" and [o.en for o in q.options] == ["A -> B", "B -> A", "neither"]


def test_text_before_the_first_mark_is_an_option_as_moodle_splits_it() -> None:
    """Moodle turns each ``=`` into ``~=`` and splits at ``~``: text before the first mark is
    an option worth 0 (or its ``%n%``), its ``#`` its feedback; said in the report."""
    quiz, lines = imported("lead.gift", "Which is even? {one#odd =2#yes ~3}")
    [q] = quiz.questions
    assert q.kind == "single" and [o.en for o in q.options] == ["one", "2", "3"]
    assert q.right_options == (1,) and feedbacks(q) == ["odd", "yes", None]
    assert grade_choice(q, {0}) == 0 and grade_choice(q, {1}) == 1
    assert lines == [
        "lead.gift:1: “one#odd” comes before the first = or ~; read as an option (worth 0 "
        "unless it starts with a %weight%), as Moodle reads it."
    ]
    quiz, _ = imported("weighted.gift", "Which? {%50%half ~%50%other ~%-100%wrong}")
    [q] = quiz.questions  # no "=": several may be ticked, the first worth its 50%
    assert q.kind == "multiple" and [o.en for o in q.options] == ["half", "other", "wrong"]
    assert q.fractions in ((), (0.5, 0.5, -1)) and q.rights == (0, 1)


def test_a_weight_after_an_equals_sign_is_full_marks_and_text_as_moodle() -> None:
    """``=%50%x`` in a multiple choice: Moodle's ``=`` is full marks and it keeps ``%50%x``
    as the option's text; the same here, and said (``~%50%`` is how part marks are written)."""
    quiz, lines = imported("weight.gift", "Which? {=%50%half ~wrong ~other}")
    [q] = quiz.questions
    assert q.kind == "single" and [o.en for o in q.options] == ["%50%half", "wrong", "other"]
    assert q.right_options == (0,) and grade_choice(q, {0}) == 1
    assert lines == [
        "weight.gift:1: option “%50%half” is written = with a %weight%: Moodle gives it full "
        "marks and shows the %weight% in its text; read the same. For part marks write ~%50% "
        "instead."
    ]


def test_a_number_any_other_answer_with_credit_is_said() -> None:
    quiz, lines = imported("num.gift", "How many? {#=3 =%50%*#Close enough}")
    assert [(a.value, a.fraction) for a in quiz.questions[0].accepted] == [(3, 1)]
    assert lines == [
        "num.gift:1: any other answer earns 50% in this file; here any other answer earns "
        "nothing, and its feedback is what a wrong answer is told."
    ]


def test_a_wildcard_inside_a_short_answer_is_named_and_an_escaped_star_is_a_star() -> None:
    quiz, lines = imported("wild.gift", "Colour? {=colo*r}\n\nTimes? {=2\\*3}\n")
    assert lines == [
        "wild.gift:1: a type of question the bot does not ask (shortanswer *); skipped."
    ]
    assert [a.text for a in quiz.questions[0].accepted] == ["2*3"]


def test_fractions_keep_the_teachers_digits() -> None:
    gift = "Which? {~%33.33333%a ~%33.33333%b ~%33.33334%c ~%-100%d}"
    q = one("thirds.gift", gift)
    assert q.fractions == (0.3333333, 0.3333333, 0.3333334, -1)
    written = import_bytes("thirds.gift", gift.encode(), quiz_id="t").yaml_text
    assert written is not None and "- 0.3333333\n  - 0.3333333\n  - 0.3333334\n" in written
    assert "33333329" not in written


def test_markdown_answers_are_converted() -> None:
    q = one("md.gift", "[markdown]Is **this** right? {=**yes** ~*no*}")
    assert q.text.en == "Is this right?" and [o.en for o in q.options] == ["yes", "no"]


def _bank(q: Question) -> Quiz:
    return Quiz("t", Text("T", "T"), "en", (q,), bilingual=False)


# --- Moodle XML: xmlformat_test.php -------------------------------------------------------


def xml(*questions: str) -> str:
    return '<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n' + "\n".join(questions) + "\n</quiz>\n"


MULTICHOICE_19 = """  <question type="multichoice">
    <name>
      <text>Multiple choice question</text>
    </name>
    <questiontext format="html">
      <text>Which are the even numbers?</text>
    </questiontext>
    <generalfeedback>
      <text>The even numbers are 2 and 4.</text>
    </generalfeedback>
    <defaultgrade>2</defaultgrade>
    <penalty>0.3333333</penalty>
    <hidden>0</hidden>
    <single>false</single>
    <shuffleanswers>false</shuffleanswers>
    <answernumbering>abc</answernumbering>
    <correctfeedback>
      <text><![CDATA[<p>Your answer is correct.</p>]]></text>
    </correctfeedback>
    <partiallycorrectfeedback>
      <text><![CDATA[<p>Your answer is partially correct.</p>]]></text>
    </partiallycorrectfeedback>
    <incorrectfeedback>
      <text><![CDATA[<p>Your answer is incorrect.</p>]]></text>
    </incorrectfeedback>
    <shownumcorrect/>
    <answer fraction="0">
      <text>1</text>
      <feedback>
        <text></text>
      </feedback>
    </answer>
    <answer fraction="100">
      <text>2</text>
      <feedback>
        <text></text>
      </feedback>
    </answer>
    <answer fraction="0">
      <text>3</text>
      <feedback>
        <text></text>
      </feedback>
    </answer>
    <answer fraction="100">
      <text>4</text>
      <feedback>
        <text></text>
      </feedback>
    </answer>
    <hint>
      <text>Hint 1.</text>
    </hint>
  </question>"""


def test_xml_multichoice_several_100_0_100_0() -> None:
    """test_import_multichoice_19: ``<single>false</single>``, fractions 0, 1, 0, 1: the wrong
    options cost nothing, so ticking all four earns full marks, as in Moodle; its default
    combined feedback is not copied onto the options."""
    q = one("mc19.xml", xml(MULTICHOICE_19))
    assert q.kind == "multiple" and q.rights == (1, 3)
    assert q.fractions == (0, 1, 0, 1)
    assert grade_choice(q, {0, 1, 2, 3}) == 1
    assert grade_choice(q, {1}) == 1 and grade_choice(q, {0, 2}) == 0
    assert feedbacks(q) == [None, None, None, None]
    assert q.note is not None and q.note.en == "The even numbers are 2 and 4."


def test_xml_moodle_default_feedback_in_french_is_not_copied() -> None:
    french = (
        MULTICHOICE_19.replace("Your answer is correct.", "Votre réponse est correcte.")
        .replace("Your answer is partially correct.", "Votre réponse est partiellement correcte.")
        .replace("Your answer is incorrect.", "Votre réponse est incorrecte.")
    )
    quiz, lines = imported("fr.xml", xml(french))
    assert feedbacks(quiz.questions[0]) == [None, None, None, None]
    assert not any("partiallycorrectfeedback" in line for line in lines)


def test_xml_numerical() -> None:
    """test_import_numerical_19: 42 ± 0.001 full marks, 13 ± 1 nothing with its feedback,
    ``*`` any other answer."""
    q = one(
        "num19.xml",
        xml(
            """  <question type="numerical">
    <name><text>Numerical question</text></name>
    <questiontext format="html"><text>What is the answer?</text></questiontext>
    <generalfeedback><text>General feedback: Think Hitch-hikers guide to the Galaxy.</text>
      </generalfeedback>
    <defaultgrade>1</defaultgrade>
    <penalty>0.1</penalty>
    <hidden>0</hidden>
    <answer fraction="100"><text>42</text><feedback><text>Well done!</text></feedback>
      <tolerance>0.001</tolerance></answer>
    <answer fraction="0"><text>13</text><feedback><text>What were you thinking?!</text>
      </feedback><tolerance>1</tolerance></answer>
    <answer fraction="0"><text>*</text><feedback><text>Completely wrong.</text></feedback>
      <tolerance></tolerance></answer>
  </question>"""
        ),
    )
    assert q.kind == "numeric"
    assert [(a.value, a.tolerance, a.fraction) for a in q.accepted] == [(42, 0.001, 1), (13, 1, 0)]
    assert [a.feedback.en for a in q.accepted if a.feedback] == [
        "Well done!",
        "What were you thinking?!",
    ]
    assert q.wrong_feedback is not None and q.wrong_feedback.en == "Completely wrong."
    assert q.note is not None and q.note.en.startswith("General feedback: Think")


def test_xml_shortanswer() -> None:
    """test_import_shortanswer_19: Beta full marks, ``*`` any other answer, letter case
    ignored (usecase 0)."""
    q = one(
        "sa19.xml",
        xml(
            """  <question type="shortanswer">
    <name><text>Short answer question</text></name>
    <questiontext format="html">
      <text>Fill in the gap in this sequence: Alpha, ________, Gamma.</text></questiontext>
    <generalfeedback><text>The answer is Beta.</text></generalfeedback>
    <usecase>0</usecase>
    <answer fraction="100" format="plain_text"><text>Beta</text><feedback>
      <text>Well done!</text></feedback></answer>
    <answer fraction="0" format="plain_text"><text>*</text><feedback><text>Doh!</text>
      </feedback></answer>
  </question>"""
        ),
    )
    assert q.kind == "short" and not q.case_sensitive
    assert [(a.text, a.fraction) for a in q.accepted] == [("Beta", 1)]
    assert q.wrong_feedback is not None and q.wrong_feedback.en == "Doh!"
    assert grade_typed(q, "beta") == (1.0, 0)


def test_xml_truefalse() -> None:
    """test_import_truefalse_19: true is right, "Well done!" for it, "Doh!" for false."""
    q = one(
        "tf19.xml",
        xml(
            """  <question type="truefalse">
    <name><text>True false question</text></name>
    <questiontext format="html"><text>The answer is true.</text></questiontext>
    <generalfeedback><text>General feedback: You should have chosen true.</text></generalfeedback>
    <penalty>1</penalty>
    <answer fraction="100"><text>true</text><feedback><text>Well done!</text></feedback></answer>
    <answer fraction="0"><text>false</text><feedback><text>Doh!</text></feedback></answer>
  </question>"""
        ),
    )
    assert q.kind == "truefalse" and q.correct == 0
    assert q.explanation is not None and q.explanation.en == "Well done!"
    assert q.wrong_feedback is not None and q.wrong_feedback.en == "Doh!"


def test_xml_kinds_not_held_are_named() -> None:
    """test_import_multianswer (cloze), essay, match, description: each named."""
    report = import_bytes(
        "kinds.xml",
        xml(
            '<question type="cloze"><questiontext><text>{1:SHORTANSWER:=Owl}</text>'
            "</questiontext></question>",
            '<question type="essay"><questiontext><text>Why?</text></questiontext></question>',
            '<question type="matching"><questiontext><text>Pair.</text></questiontext></question>',
            '<question type="description"><questiontext><text>Read.</text></questiontext>'
            "</question>",
            MULTICHOICE_19,
        ).encode(),
        quiz_id="k",
    )
    assert [p.text("en") for p in report.problems] == [
        f"kinds.xml question #{n}: a type of question the bot does not ask ({kind}); skipped."
        for n, kind in enumerate(("cloze", "essay", "matching", "a description"), start=1)
    ]


def test_xml_markdown_answers_are_converted() -> None:
    q = one(
        "md.xml",
        xml(
            """<question type="multichoice">
    <questiontext format="markdown"><text>Is it **so**?</text></questiontext>
    <single>true</single>
    <answer fraction="100" format="markdown"><text>**yes**</text></answer>
    <answer fraction="0" format="markdown"><text>*no*</text></answer></question>"""
        ),
    )
    assert q.text.en == "Is it so?" and [o.en for o in q.options] == ["yes", "no"]


# --- Moodle's CSV layout (qformat_csv) -----------------------------------------------------

MOODLE_CSV = (
    "questionname,questiontext,A,B,C,D,Answer 1,Answer 2\n"
    "Question1,The dmesg command,Shows user login logoff attempts,"
    "Shows the syslog file for info messages,kernel log messages,"
    "Shows the daemon log messages,C,\n"
    "Question2,The command “mknod myfifo b 4 16”,Will create a block device if user is root,"
    "Will create a block device for all users,Will create a FIFO if user is not root,"
    '"None ,of the mentioned",A,B\n'
)


def test_moodles_csv_layout_is_read() -> None:
    """The plugin's own sample: one right letter a one-answer question; ``Answer 2`` makes a
    tick-several question, each right option worth half and the wrong ones nothing."""
    quiz, lines = imported("sample.csv", MOODLE_CSV)
    assert lines == []
    first, second = quiz.questions
    assert first.kind == "single" and first.correct == 2
    assert [o.en for o in first.options][2] == "kernel log messages"
    assert second.kind == "multiple" and second.rights == (0, 1)
    assert second.fractions == (0.5, 0.5, 0, 0)
    assert second.options[3].en == "None ,of the mentioned"
    assert grade_choice(second, {0, 1, 2, 3}) == 1  # as Moodle: wrong ones cost nothing


def test_a_one_answer_question_with_two_right_options_is_stored_and_revealed() -> None:
    """Written ``type: single`` with ``correct: [2, 4]``, read back the same; the reveal names
    both right options; a list without ``type: single`` still means tick every right one."""
    quiz, _ = imported("eq.gift", "Which are even? {~1 =2 ~3 =4 ~5}\n")
    text = write_yaml(quiz)
    assert "type: single" in text and "correct:\n  - 2\n  - 4" in text
    again = parse_quiz(text, "eq.yaml", "eq", bank_limits())
    assert again.questions[0].kind == "single" and again.questions[0].right_options == (1, 3)
    listed = text.replace("  type: single\n", "")
    assert parse_quiz(listed, "eq.yaml", "eq", bank_limits()).questions[0].kind == "multiple"
    q = again.questions[0]
    counts = (0,) * len(q.options)
    reveal = Reveal(0, q, (0, 1, 2, 3, 4), counts, 1, 0, 0, (1, 3))
    shown = reveal_message(reveal, "en", total=1)
    assert "Right answers: B, D" in plain_text(shown)
