"""Each option's own feedback, and math rendered by Telegram.

End to end over the fake Bot API (which checks every request against the Bot API 10.1 spec):
a wrong tap in a group shows that option's own feedback; a question holding math is posted as a
rich message with ``<tg-math>``, its count and reveal edits keep it rich, and a question
without math is sent exactly as before. Around them: the bank format, the validator's lengths
(UTF-16 units, as Telegram counts), the importers' mapping of GIFT and Moodle XML feedback and
math, the readable Unicode form of a formula, and a reveal whose note no longer fits.
"""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from fakebot import Call, FakeTelegram
from harness import BotHarness
from quizkit import bank_env, button_data, open_question, populate

from bot import render
from bot.banks.importers import import_bytes
from bot.banks.yaml_reader import parse_quiz
from bot.banks.yaml_writer import write_yaml
from bot.core.bank import Quiz, Text
from bot.core.engine import Reveal
from bot.core.limits import bank_limits
from bot.core.mathtext import has_math, readable, tidy
from bot.core.problems import BankError
from bot.features.homework import views as homework_views
from bot.features.review import views as review_views
from bot.i18n.markup import Safe
from bot.render import group_reveal, note_left_out, rich_html

MATH_BANK = textwrap.dedent(
    r"""
    title: Algebra
    language: en
    settings:
      shuffle: false
    questions:
      - id: roots
        question: 'How many real roots has \(- 3 x^{2} - 3 x - 2=0\)?'
        options:
          - text: Two
            feedback: 'No: its discriminant \(b^2 - 4ac = 9 - 24\) is negative.'
          - text: None
            feedback: 'Right: \(9 - 24 < 0\), so no real root.'
          - One
        correct: 2
        explanation: 'A quadratic has real roots when \(b^2 \ge 4ac\).'
        note: |-
          The roots are complex:

          \[x = \frac{3 \pm \sqrt{-15}}{-6}\]
      - id: plain
        question: What is 2 + 2?
        options: ['4', '5']
        correct: 1
    """
)


async def test_a_wrong_tap_shows_its_own_feedback_and_math_goes_as_a_rich_message(
    tg: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    cls = populate(tg, students=3)
    chat = cls.chat_id
    env = bank_env(tmp_path, "algebra", MATH_BANK)
    async with BotHarness(tg, db_path, env=env):
        tg.user_says(chat, cls.creator, "/quiz algebra 600")
        q1 = await tg.wait_for(lambda: open_question(tg, chat, 1))
        # posted with sendRichMessage: the formula as <tg-math>, the same keyboard
        assert q1.rich is not None
        assert q1.math == [r"- 3 x^{2} - 3 x - 2=0"]
        assert "<tg-math>- 3 x^{2} - 3 x - 2=0</tg-math>" in q1.rich.markup
        assert [t for row in q1.buttons for t, _ in row] == ["A", "B", "C"]
        assert len(visible_rich(tg)) == 1

        two, none_, one = cls.students
        wrong = await tg.wait_answered(tg.tap(chat, two, q1.message_id, button_data(q1, "A")))
        right = await tg.wait_answered(tg.tap(chat, none_, q1.message_id, button_data(q1, "B")))
        bare = await tg.wait_answered(tg.tap(chat, one, q1.message_id, button_data(q1, "C")))
        # the option tapped says why, formulas readable (an alert renders no math)
        assert wrong.text == (
            "❌ Wrong. 0 points\n\nNo: its discriminant b² − 4ac = 9 − 24 is negative."
        )
        assert right.text is not None and right.text.startswith("✅")
        assert right.text.endswith("Right: 9 − 24 < 0, so no real root.")
        # an option without feedback falls back on the question's explanation
        assert bare.text == "❌ Wrong. 0 points\n\nA quadratic has real roots when b² ≥ 4ac."
        for answer in (wrong, right, bare):
            assert answer.text is not None and "\\(" not in answer.text

        # the count refresh edits the rich message as a rich message
        await tg.wait_for(
            lambda: "3 answered" in (tg.stored_message(chat, q1.message_id) or q1).text
        )
        tg.user_says(chat, cls.creator, "/next")
        q2 = await tg.wait_for(lambda: open_question(tg, chat, 2))
        revealed = tg.stored_message(chat, q1.message_id)
        assert revealed is not None and revealed.rich is not None and revealed.buttons == []
        assert revealed.math == [
            r"- 3 x^{2} - 3 x - 2=0",
            r"b^2 \ge 4ac",
            r"x = \frac{3 \pm \sqrt{-15}}{-6}",
        ]
        assert "<tg-math-block>" in revealed.rich.markup  # the note's display formula
        assert "Right answer: B" in revealed.text
        edits = [
            c for c in tg.calls_to("editMessageText") if c.params.get("message_id") == q1.message_id
        ]
        assert edits and all("rich_message" in c.params and "text" not in c.params for c in edits)

        # a question without math goes exactly as before: sendMessage, HTML
        assert q2.rich is None and q2.html is not None
        assert len(visible_rich(tg)) == 1
        # each tapper also read the whole explanation, its formulas rendered, alone
        for student in cls.students:
            (seen,) = tg.ephemeral_for(chat, student)
            assert seen.message.rich is not None and seen.message.math
        assert all(c.status == 200 for c in tg.calls), [
            (c.method, c.description) for c in tg.calls if c.status != 200
        ]


def visible_rich(tg: FakeTelegram) -> list[Call]:
    """The rich messages the whole group sees (not those sent to one student alone)."""
    return [
        c for c in tg.calls_to("sendRichMessage") if "ephemeral_message_parameters" not in c.params
    ]


async def test_a_quiz_without_math_sends_no_rich_message(tg: FakeTelegram, db_path: Path) -> None:
    cls = populate(tg, students=1)
    async with BotHarness(tg, db_path):
        tg.user_says(cls.chat_id, cls.creator, "/quiz zero 600")
        await tg.wait_for(lambda: open_question(tg, cls.chat_id, 1))
        tg.user_says(cls.chat_id, cls.creator, "/next")
        await tg.wait_for(lambda: open_question(tg, cls.chat_id, 2))
    assert tg.calls_to("sendRichMessage") == []
    assert all("rich_message" not in c.params for c in tg.calls)


# --- the bank format and the validator --------------------------------------------------------


def test_option_feedback_reads_writes_and_round_trips() -> None:
    quiz = parse_quiz(MATH_BANK, "algebra.yaml", "algebra", bank_limits())
    roots = quiz.questions[0]
    assert [o.en for o in roots.options] == ["Two", "None", "One"]
    assert roots.options[0].feedback is not None
    assert roots.options[0].feedback.en.startswith("No: its discriminant")
    assert roots.options[2].feedback is None
    again = parse_quiz(write_yaml(quiz), "algebra.yaml", "algebra", bank_limits())
    assert again == quiz
    assert Quiz.from_json(quiz.to_json(), "algebra", "algebra.yaml") == quiz
    bilingual = textwrap.dedent(
        """
        title: {bn: বীজগণিত, en: Algebra}
        language: bn
        questions:
          - id: a
            question: {bn: প্রশ্ন?, en: Question?}
            options:
              - text: {bn: হ্যাঁ, en: 'Yes'}
                feedback: {bn: কারণ আছে।, en: Because.}
              - {bn: না, en: 'No'}
            correct: 1
        """
    )
    two = parse_quiz(bilingual, "b.yaml", "b", bank_limits())
    feedback = two.questions[0].options[0].feedback
    assert feedback is not None and (feedback.bn, feedback.en) == ("কারণ আছে।", "Because.")
    assert parse_quiz(write_yaml(two), "b.yaml", "b", bank_limits()) == two


def test_feedback_is_checked_against_the_alert_in_utf16_units() -> None:
    # 80 emoji are 160 UTF-16 units: with the verdict line over the alert, as Telegram counts
    bank = textwrap.dedent(
        f"""
        title: T
        language: en
        questions:
          - id: a
            question: Q?
            options:
              - text: A
                feedback: '{"😀" * 80}'
              - text: B
                feedback: ''
            correct: 1
        """
    )
    with pytest.raises(BankError) as caught:
        parse_quiz(bank, "t.yaml", "t", bank_limits())
    lines = [p.text("en") for p in caught.value.problems]
    assert lines == ["t.yaml:11: question 1 (id a): options[2].feedback: must not be empty"], lines
    # an option's own feedback is cut where an alert shows it and shown whole elsewhere: the
    # bank takes it; the explanation, which only an alert shows, must fit one
    bank = bank.replace("feedback: ''", "feedback: fine")
    assert parse_quiz(bank, "t.yaml", "t", bank_limits()).questions[0].options[0].feedback
    bank += f"    explanation: '{'😀' * 80}'\n"
    with pytest.raises(BankError) as caught:
        parse_quiz(bank, "t.yaml", "t", bank_limits())
    [problem] = caught.value.problems
    assert problem.line == 13 and problem.where.path == "explanation"
    assert problem.values["length"] == 160  # UTF-16 units (len() says 80: it would pass)


# --- math ---------------------------------------------------------------------------------------


def test_formulas_read_as_unicode_never_as_tex() -> None:
    assert readable(r"Solve \(- 3 x^{2} - 3 x - 2=0\)") == "Solve −3x² − 3x − 2 = 0"
    assert readable(r"\(\alpha + \sqrt{x}\), \(\frac{a}{b}\)") == "α + √x, a/b"
    assert readable(r"\[\frac{-b \pm \sqrt{b^2-4ac}}{2a}\]") == "(−b ± √(b² − 4ac))/(2a)"
    assert readable(r"$$16\Psi$$ and \(2\Psi + 2\Psi + K\Psi\)") == "16Ψ and 2Ψ + 2Ψ + KΨ"
    assert readable("no math, $5") == "no math, $5"
    assert not has_math(r"empty \(\) marker") and has_math(r"\(x\)")
    assert tidy(r"\(\)What is \(x\)?\(\) ") == r"What is \(x\)?"
    # Moodle's $x$, but money stays money
    assert tidy("$x^2$ costs $5 or $10", dollars=True) == r"\(x^2\) costs $5 or $10"
    # an opening marker without its closing one is text; scanning stays linear
    assert readable(r"\(" * 10_000) == r"\(" * 10_000


def test_rich_html_keeps_the_message_and_renders_its_formulas() -> None:
    html = rich_html(
        Safe("<b>Q 1/2</b>\n\nIs \\(a &lt; b\\)?\nA) yes\n\n\\[x^2\\]\n\n<b>B) \\[y\\]</b> ✅")
    )
    assert html == (
        "<p><b>Q 1/2</b></p>"
        "<p>Is <tg-math>a &lt; b</tg-math>?<br>A) yes</p>"
        "<tg-math-block>x^2</tg-math-block>"
        "<p><b>B) <tg-math>y</tg-math></b> ✅</p>"
    )


# --- importers ----------------------------------------------------------------------------------

MOODLE = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="multichoice">
    <name><text>roots</text></name>
    <questiontext format="html">
      <text><![CDATA[<p>Roots of $x^2 + 1 = 0$?\\(\\)</p>]]></text>
    </questiontext>
    <single>true</single>
    <correctfeedback format="html"><text>Your answer is correct.</text></correctfeedback>
    <partiallycorrectfeedback format="html"><text>Half way.</text></partiallycorrectfeedback>
    <incorrectfeedback format="html"><text>Try the discriminant.</text></incorrectfeedback>
    <answer fraction="100"><text>None real</text>
      <feedback><text>Right: \\(b^2 - 4ac = -4\\).</text></feedback></answer>
    <answer fraction="0"><text>Two</text>
      <feedback><text>Both would be real.</text></feedback></answer>
    <answer fraction="0"><text>One</text><feedback><text></text></feedback></answer>
  </question>
</quiz>
"""


def test_moodle_xml_feedback_maps_to_the_options() -> None:
    report = import_bytes("roots.xml", MOODLE.encode(), quiz_id="roots")
    assert report.quiz is not None, [p.text("en") for p in report.problems]
    [q] = report.quiz.questions
    assert q.text.en == r"Roots of \(x^2 + 1 = 0\)?"  # $…$ kept as math, empty \(\) dropped
    assert [o.feedback.en if o.feedback else None for o in q.options] == [
        r"Right: \(b^2 - 4ac = -4\).",
        "Both would be real.",
        "Try the discriminant.",  # <incorrectfeedback> for a wrong option without its own
    ]
    assert q.explanation is None  # "Your answer is correct." is Moodle's default: not kept
    assert [p.text("en") for p in report.problems] == [
        "roots.xml question #1: its partiallycorrectfeedback dropped (a question with one "
        "right answer has no partial credit)."
    ]


def test_reveal_note_too_long_for_one_message_stays_out_of_the_group() -> None:
    """Each student read it in their own explanation (or recap): no group message of its own."""
    quiz = parse_quiz(MATH_BANK, "algebra.yaml", "algebra", bank_limits())
    q = quiz.questions[0]
    short = Reveal(0, q, (0, 1, 2), (1, 1, 1), 1, 3, 1)
    assert "📖" in group_reveal(short, "en", total=2)
    assert not note_left_out(q, "en")
    long_q = replace(q, note=Text("ন" * 4000, "n " * 2000))
    body = group_reveal(Reveal(0, long_q, (0, 1, 2), (1, 1, 1), 1, 3, 1), "en", total=2)
    assert "📖" not in body and "Right answer: <b>B</b>" in body
    assert note_left_out(long_q, "en")


def test_recaps_review_practice_and_homework_show_the_students_own_pick() -> None:
    quiz = parse_quiz(MATH_BANK, "algebra.yaml", "algebra", bank_limits())
    q = quiz.questions[0]
    perm = (2, 0, 1)  # shown: A) One, B) Two, C) None
    own = "💬 No: its discriminant"
    [recap] = review_views.recap_messages(
        quiz,
        "en",
        points=0,
        correct=0,
        asked=1,
        total=2,
        rank=1,
        players=1,
        best_streak=0,
        missed=[review_views.Missed(1, q, perm, chosen=1)],  # B) Two
    )
    review = review_views.review_answered(
        quiz, q, list(perm), "en", chosen=1, verdict="v", schedule=Safe("s")
    )
    reveal = Reveal(0, q, perm, (0, 1, 0), 2, 1, 0)
    practice = render.practice_answered(reveal, "en", total=1, verdict="v", picked=0)
    homework = homework_views.attempt_closed(reveal, "en", total=1, verdict="v", chosen=1)
    for text in (recap, review, practice, homework):
        assert own in text and "💡 A quadratic has real roots" in text, text
    assert "B) Two ❌" in homework and "B) Two ❌" in practice
    # a pick without feedback of its own: the explanation alone; the group's reveal: no pick
    bare = homework_views.attempt_closed(reveal, "en", total=1, verdict="v", chosen=0)
    assert "💬" not in bare and "💡 A quadratic" in bare
    assert "💬" not in render.reveal_message(reveal, "en", total=1)


def test_a_wrong_true_false_tap_shows_the_wrong_sides_feedback() -> None:
    """GIFT ``{T#wrong#right}``: the wrong side's feedback is the alert of a wrong tap (and of a
    recap's wrong pick); the right side's is the explanation every right tap shows."""
    from bot.banks.importers import import_bytes
    from bot.render.quiz import alert_note, explained

    gift = b"::tf:: The sun is a star. {T#No: it is a star.#Yes: a G-type star.}\n"
    report = import_bytes("tf.gift", gift, quiz_id="tf")
    assert report.quiz is not None, report.problems
    [q] = report.quiz.questions
    assert q.kind == "truefalse"
    right, wrong = q.correct, 1 - q.correct
    assert alert_note(q, wrong, "en") == "No: it is a star."
    assert alert_note(q, right, "en") == "Yes: a G-type star."
    assert any("No: it is a star." in str(line) for line in explained(q, "en", picked=wrong))
