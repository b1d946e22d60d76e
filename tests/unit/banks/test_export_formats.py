"""``quizbot export-quiz NAME --format gift|moodle-xml|yaml`` writes a quiz
the teacher's tools import. Round trips (GIFT → bank → GIFT, Moodle XML → bank → Moodle XML)
keep every field the model carries: texts, options, the right one, explanation, note, tag."""

from __future__ import annotations

from pathlib import Path

import pytest
from parsekit import as_exported
from shipkit import LOCALE

from bot.banks.gift_writer import write_gift
from bot.banks.importers import import_bytes
from bot.banks.moodle_writer import write_moodle_xml
from bot.banks.yaml_reader import load_quiz, parse_quiz
from bot.cli import main
from bot.core.bank import Option, Question, Quiz, Text
from bot.render import bank_limits

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "tests" / "data" / "import"
Fields = list[tuple[object, ...]]


def fields(quiz: Quiz) -> Fields:
    """What a question carries, question by question (ids and numbers aside: an import numbers
    its questions afresh)."""
    return [
        (
            q.text,
            q.options,
            q.correct,
            q.explanation,
            q.note,
            q.tag,
            q.kind,
            q.rights,
            q.fractions,
            q.accepted,
            q.units,
            q.case_sensitive,
            q.wrong_feedback,
        )
        for q in quiz.questions
    ]


def reimported(name: str, text: str) -> Quiz:
    report = import_bytes(name, text.encode("utf-8"), quiz_id="again")
    assert report.fatal is None and report.problems == (), [p.text("en") for p in report.lines()]
    assert report.quiz is not None
    return report.quiz


def first(name: str) -> Quiz:
    report = import_bytes(name, (DATA / name).read_bytes(), quiz_id="first")
    assert report.quiz is not None
    return report.quiz


@pytest.mark.parametrize(
    "source",
    [
        "networking.gift",
        "listening.gift",
        "networking-aiken.txt",
        "kahoot.csv",
    ],
)
def test_gift_to_bank_to_gift_keeps_every_field(source: str) -> None:
    quiz = first(source)
    again = reimported(f"{Path(source).stem}.gift", write_gift(quiz, quiz.language))
    assert fields(again) == fields(as_exported(quiz))
    # and once more: the GIFT written from the round trip is the same text
    assert write_gift(again, again.language) == write_gift(quiz, quiz.language)


@pytest.mark.parametrize("source", ["moodle.xml", "networking.gift", "first-aid.csv"])
def test_moodle_xml_to_bank_to_moodle_xml_keeps_every_field(source: str) -> None:
    quiz = first(source)
    again = reimported(f"{Path(source).stem}.xml", write_moodle_xml(quiz, quiz.language))
    assert fields(again) == fields(as_exported(quiz))
    assert write_moodle_xml(again, again.language) == write_moodle_xml(quiz, quiz.language)


HOSTILE = "a ~ b = c # d {e} f: g \\ h // i ]]> <b>j</b> &amp; \\(x^{2}\\) %50%"


def test_every_special_character_survives_both_formats() -> None:
    """GIFT's ``~ = # { } : \\``, XML's ``< & ]]>``, line breaks and LaTeX, in every field."""
    text = Text(f"{HOSTILE}\nsecond line", f"{HOSTILE}\nsecond line")
    question = Question(
        "q1",
        1,
        text,
        (Option(f"right {HOSTILE}", f"right {HOSTILE}"), Option("wrong: {x}", "wrong: {x}")),
        0,
        Text("why = #1", "why = #1"),
        Text(f"note {HOSTILE}", f"note {HOSTILE}"),
        "unit 1/part {a}",
    )
    quiz = Quiz("x", Text("T", "T"), "en", (question,), bilingual=False)
    gift = write_gift(quiz, "en")
    assert "\\~ b \\= c \\# d \\{e\\} f\\: g \\\\ h" in gift
    assert fields(reimported("x.gift", gift)) == fields(as_exported(quiz))
    xml = write_moodle_xml(quiz, "en")
    assert "]]]]><![CDATA[>" not in xml  # escaped to &gt; before CDATA: nothing to split
    assert "&lt;b&gt;j&lt;/b&gt; &amp;amp;" in xml
    assert fields(reimported("x.xml", xml)) == fields(as_exported(quiz))


def test_the_cli_writes_each_format_moodle_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env = {"LANG": LOCALE["en"], "QUIZBOT_QUESTIONS": str(ROOT / "questions")}
    zero = load_quiz(ROOT / "questions" / "zero.yaml", bank_limits())
    gift, xml = tmp_path / "zero.gift", tmp_path / "zero.xml"
    assert main(["export-quiz", "zero", "--format", "gift", "--out", str(gift)], env) == 0
    assert capsys.readouterr().err == f"quiz zero written to {gift}\n"
    from_gift = reimported("zero.gift", gift.read_text(encoding="utf-8"))
    assert [q.text.en for q in from_gift.questions] == [q.text.en for q in zero.questions]
    assert [q.correct for q in from_gift.questions] == [q.correct for q in zero.questions]
    # the right option's feedback comes back as written (GIFT's =right#feedback): its own, or
    # the explanation when it has none; one too long for the alert moved to the note
    said = [q.options[q.correct].feedback or q.explanation for q in zero.questions]
    back = [q.options[q.correct].feedback or q.note for q in from_gift.questions]
    assert all(
        (s is None and b is None) or (s is not None and b is not None and b.en.startswith(s.en))
        for s, b in zip(said, back, strict=True)
    )
    # a bilingual quiz in the language asked for
    args = ["export-quiz", "zero", "--format", "moodle-xml", "--lang", "bn", "--out", str(xml)]
    assert main(args, env) == 0
    from_xml = reimported("zero.xml", xml.read_text(encoding="utf-8"))
    assert from_xml.language == "bn"
    assert [q.text.bn for q in from_xml.questions] == [q.text.bn for q in zero.questions]
    assert [[o.bn for o in q.options] for q in from_xml.questions] == [
        [o.bn for o in q.options] for q in zero.questions
    ]
    # default file names carry the format's extension; yaml stays the default format
    capsys.readouterr()
    here = tmp_path / "here"
    here.mkdir()
    import os

    cwd = Path.cwd()
    os.chdir(here)
    try:
        assert main(["export-quiz", "zero", "--format", "moodle-xml"], env) == 0
        assert main(["export-quiz", "zero"], env) == 0
    finally:
        os.chdir(cwd)
    assert sorted(p.name for p in here.iterdir()) == ["zero.xml", "zero.yaml"]


EXPLAINED = """\
title: Capitals
language: en
settings:
  shuffle: false
questions:
  - id: paris
    question: Which city is the capital of France?
    options:
      - text: Paris
        feedback: Yes, since 987.
      - text: Lyon
        feedback: No, Lyon is the third city.
      - Nice
    correct: 1
    explanation: The capital is where the government sits.
    note: Chapter 2 tells its history.
  - id: rome
    question: Which city is the capital of Italy?
    options:
      - text: Rome
        feedback: Right, Rome.
      - Milan
    correct: 1
    explanation: Italy's government sits in Rome.
  - id: pi
    type: numeric
    question: Pi to two places?
    answers:
      - answer: 3.14
        tolerance: 0.01
        feedback: Right.
    explanation: Pi is about 3.14159.
"""


def test_an_explanation_beside_the_right_answers_own_feedback_is_kept_in_both_formats() -> None:
    """The right option's own feedback stays its feedback, and the explanation, which no option
    carries then (nor a typed question), goes before the note as the general feedback."""
    quiz = parse_quiz(EXPLAINED, "capitals.yaml", "capitals", bank_limits())
    gift = write_gift(quiz, "en")
    assert "=Paris#Yes, since 987." in gift
    assert "####The capital is where the government sits.\\n\\nChapter 2 tells its history." in gift
    assert "####Italy's government sits in Rome." in gift
    assert "####Pi is about 3.14159." in gift
    xml = write_moodle_xml(quiz, "en")
    assert xml.count("<generalfeedback") == 3
    assert (
        "<![CDATA[The capital is where the government sits.<br><br>Chapter 2 tells its history.]]>"
        in xml
    )
    assert "<![CDATA[Yes, since 987.]]>" in xml
    for name, text, write in (("c.gift", gift, write_gift), ("c.xml", xml, write_moodle_xml)):
        again = reimported(name, text)
        assert fields(again) == fields(as_exported(quiz))
        paris, rome, pi = again.questions
        assert [o.feedback for o in paris.options] == [
            Text("Yes, since 987.", "Yes, since 987."),
            Text("No, Lyon is the third city.", "No, Lyon is the third city."),
            None,
        ]
        assert paris.note is not None and paris.note.en == (
            "The capital is where the government sits.\n\nChapter 2 tells its history."
        )
        assert rome.options[0].feedback == Text("Right, Rome.", "Right, Rome.")
        assert rome.note is not None and rome.note.en == "Italy's government sits in Rome."
        assert pi.note is not None and pi.note.en == "Pi is about 3.14159."
        # GIFT → bank → GIFT and Moodle XML → bank → Moodle XML: the same file again
        written = write(again, "en")
        assert write(reimported(name, written), "en") == written
        assert "Italy's government sits in Rome." in written and "Right, Rome." in written
