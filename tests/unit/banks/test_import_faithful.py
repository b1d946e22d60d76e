"""Imports that lose nothing silently. Each defect found on real files, held
by a real-shaped fixture (tests/data/import/: Moodle's GIFT and Aiken fixtures' shapes, Kahoot's
template, a French GIFT bank, a Spanish Aiken one): a question is imported as written, or
skipped for a reason the report names at its line, row or element, in the file's order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from importkit import DATA, imported
from shipkit import LOCALE

from bot.banks.importers import import_bytes, quiz_id_for
from bot.banks.importers.language import detect
from bot.banks.yaml_reader import load_quiz
from bot.cli import main
from bot.core.bank import MAX_QUESTIONS, Quiz
from bot.render import bank_limits


def options(quiz: Quiz) -> list[list[str]]:
    return [[o.en for o in q.options] for q in quiz.questions]


# --- GIFT -------------------------------------------------------------------------------------


def test_gift_tilde_equals_marks_the_right_answer_and_format_markers_are_not_text() -> None:
    quiz, lines = imported("listening.gift")
    assert [q.text.en for q in quiz.questions] == [
        "Écoutez: «Bonjour». What does it mean?",
        "Is it raining?",
        "What is pi to two decimals?",
        "1 + 1 = 2.",
    ]
    assert options(quiz) == [
        ["Hello", "Goodbye", "Thank you"],
        ["yes", "no", "maybe"],
        [],
        ["True", "False"],
    ]
    assert [q.correct for q in quiz.questions] == [0, 0, 0, 0]
    first, second, number, third = quiz.questions
    # a right answer's feedback (behind its own format marker) is that option's own feedback
    said = first.options[0].feedback
    assert said is not None and said.en == "Oui: bonjour is hello."
    assert second.note is not None and second.note.en == "Look outside!"
    # true/false whose feedback holds "=": read as true/false, not as a broken answer list
    assert third.kind == "truefalse"
    assert third.explanation is not None and third.explanation.en == "Yes, 1 + 1 = 2."
    assert not any("[" in o for row in options(quiz) for o in row)
    # a numerical question with a tolerance and its feedback (holding an escaped "=")
    assert number.kind == "numeric" and lines == []
    (accepted,) = number.accepted
    assert (accepted.value, accepted.tolerance) == (3.14, 0.005)
    assert accepted.feedback is not None and accepted.feedback.en == "Right, 3.14 = pi rounded."


def test_problems_come_in_the_files_order() -> None:
    """A question the validator refuses (line 1) is listed before one the reader skipped
    (line 3), though the validator runs after the reader."""
    gift = b"::a::Twice?{=ok ~ok}\n\n::b::Essay?{}\n\n::c::Fine?{=yes ~no}\n"
    _, lines = imported("order.gift", gift)
    assert lines == [
        "order.gift:1: question skipped: options[2]: duplicate of option 1",
        "order.gift:3: a type of question the bot does not ask (essay); skipped.",
    ]


# --- Aiken ------------------------------------------------------------------------------------


def test_aiken_as_moodles_fixture_writes_it() -> None:
    quiz, lines = imported("moodle-aiken.txt")
    assert lines == []
    assert options(quiz) == [
        ["Paris", "London", "Berlin"],
        ["Spanish", "Portuguese", "English"],
        ["Artificial intelligence", "Automatic input"],
    ]
    assert [q.correct for q in quiz.questions] == [0, 1, 0]
    assert quiz.questions[2].text.en == "A.I. stands for what?"  # not taken for an option


def test_bengali_letters_name_the_options() -> None:
    quiz, lines = imported("bangla-aiken.txt")
    assert lines == [] and quiz.language == "bn"
    assert [q.correct for q in quiz.questions] == [1, 2]
    assert options(quiz)[0] == ["চট্টগ্রাম", "ঢাকা", "খুলনা", "সিলেট"]
    sheet, lines = imported("bangla-letters.csv")
    assert lines == [] and [q.correct for q in sheet.questions] == [2, 0]
    # options differing only in case are two options (gigabyte, gigabit)
    assert options(sheet)[1] == ["GB", "Gb", "MB", "Mb"]


# --- CSV --------------------------------------------------------------------------------------


def test_csv_cells_are_read_as_a_spreadsheet_wrote_them() -> None:
    quiz, lines = imported("first-aid.csv")
    sprain, order, bandage = quiz.questions
    assert sprain.options[0].en == "Rest, water, no strain"  # one answer, not three
    assert sprain.correct == 0
    assert sprain.explanation is not None
    assert sprain.explanation.en == "R.I.C.E.: rest, ice,\ncompression, elevation."
    assert order.text.en == "Put these in order:\n1. check, 2. call, 3. care"
    assert bandage.text.en == 'The 5" bandage is for?'
    assert lines == ['first-aid.csv row 4: a stray quote mark ("), kept as text; check this row.']


def test_a_quote_never_closed_is_named_with_its_row() -> None:
    sheet = b'question,A,B,answer\nFine?,a,b,A\n"Broken?,a,b,A\nLater?,c,d,B\n'
    quiz, lines = imported("open.csv", sheet)
    assert lines == ['open.csv row 3: a stray quote mark ("), kept as text; check this row.']
    assert [q.text.en for q in quiz.questions] == ["Fine?", '"Broken?', "Later?"]


def test_kahoots_template_rows_left_empty_are_not_problems() -> None:
    quiz, lines = imported("kahoot-template.csv")
    assert lines == []
    assert [q.text.en for q in quiz.questions] == [
        "What is the capital of Spain?",
        "Which planet is red?",
    ]


# --- the report -------------------------------------------------------------------------------


def test_a_long_explanation_moves_to_the_note_and_says_so() -> None:
    why = "Because " + "the handshake needs both sides to agree on sequence numbers, " * 4
    gift = f"::a::Handshake segments?{{=Three#{why.strip()} ~Two}}\n".encode()
    quiz, lines = imported("long.gift", gift)
    [question] = quiz.questions
    assert question.explanation is None
    assert question.note is not None and question.note.en == why.strip()
    assert lines == [
        f"long.gift:1: the explanation ({len(why.strip())} characters) is too long for the tap "
        "alert (at most 143); moved to the note shown at the reveal."
    ]


def test_the_question_cap_is_one_line() -> None:
    results = [
        {
            "type": "multiple",
            "category": "General Knowledge",
            "question": f"Question {n}?",
            "correct_answer": "yes",
            "incorrect_answers": ["no", "maybe", "never"],
        }
        for n in range(1, 5251)
    ]
    data = json.dumps({"response_code": 0, "results": results}).encode()
    quiz, lines = imported("opentdb-dump.json", data)
    assert len(quiz.questions) == MAX_QUESTIONS
    assert lines == [
        "opentdb-dump.json result #201: 5050 more questions not imported: the limit is 200."
    ]
    report = import_bytes("opentdb-dump.json", data, quiz_id="x")
    assert [p.text("bn") for p in report.problems] == [
        "opentdb-dump.json, প্রশ্ন ২০১: আরও ৫০৫০টি প্রশ্ন আনা হয়নি: সীমা ২০০টি প্রশ্ন।"
    ]


def test_broken_xml_is_named_where_the_unclosed_element_opened() -> None:
    report = import_bytes("broken.xml", (DATA / "broken.xml").read_bytes(), quiz_id="x")
    assert report.fatal is not None
    assert report.fatal.text("en") == (
        "broken.xml:9: the element text opened here is never closed (the XML breaks at line "
        "10); nothing imported."
    )


def test_ids_are_cut_at_a_word_and_titles_come_from_the_name_or_the_teacher(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert quiz_id_for("Networking fundamentals week one revision.gift") == (
        "networking-fundamentals-week-one"
    )
    assert quiz_id_for("Révision de géographie.gift") == "revision-de-geographie"
    # the first $CATEGORY is a tag, not the title
    quiz, _ = imported("listening.gift")
    assert quiz.title.en == "Listening" and quiz.questions[0].tag == "Default for FR101/Listening"
    out = tmp_path / "out"
    out.mkdir()
    source = tmp_path / "Networking fundamentals week one revision.gift"
    source.write_bytes((DATA / "listening.gift").read_bytes())
    args = ["import", str(source), "--out", str(out), "--title", "Écoute — semaine 1"]
    assert main(args, env={"LANG": LOCALE["en"]}) == 0
    capsys.readouterr()
    bank = load_quiz(out / "networking-fundamentals-week-one.yaml", bank_limits())
    assert bank.title.en == "Écoute — semaine 1"


# --- languages --------------------------------------------------------------------------------


def test_a_bank_in_another_language_is_labelled_and_served_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    quiz, lines = imported("francais.gift")
    assert quiz.text_language == "fr" and quiz.kind == "fr only"
    # true/false: the bot's own two buttons, in each chat's language
    assert quiz.questions[2].kind == "truefalse"
    assert lines == [
        "francais.gift: French: imported as a one-language bank (its texts shown as written, "
        "the bot's own words in each chat's language)."
    ]
    report = import_bytes("francais.gift", (DATA / "francais.gift").read_bytes(), quiz_id="x")
    assert [p.text("bn") for p in report.notes] == [
        "francais.gift: ফরাসি: এক-ভাষার প্রশ্নব্যাংক হিসেবে আনা হয়েছে (প্রশ্নগুলো যেমন লেখা "
        "তেমনই দেখানো হবে, বটের নিজের কথা প্রতিটি চ্যাটের ভাষায়)।"
    ]
    spanish, lines = imported("espanol-aiken.txt")
    assert spanish.text_language == "es" and lines[0].startswith("espanol-aiken.txt: Spanish:")
    # the bank file says so, loads, validates and reads back the same
    out = tmp_path / "out"
    out.mkdir()
    code = main(
        ["import", str(DATA / "francais.gift"), "--out", str(out)], env={"LANG": LOCALE["en"]}
    )
    assert code == 0  # a note is not something left out
    text = (out / "francais.yaml").read_text(encoding="utf-8")
    assert "language: fr\n" in text and "language: en" not in text
    loaded = load_quiz(out / "francais.yaml", bank_limits())
    assert loaded.text_language == "fr" and loaded.language == "en"
    assert Quiz.from_json(loaded.to_json(), "francais").text_language == "fr"
    capsys.readouterr()
    assert main(["validate", str(out / "francais.yaml")], env={"LANG": LOCALE["bn"]}) == 0
    assert "শুধু ফরাসি" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("texts", "language"),
    [
        (["Quelle est la capitale de la France ?", "Paris", "Lyon"], "fr"),
        (["¿Cuál es el río más largo de España?", "El Tajo"], "es"),
        (["Welche Stadt ist die Hauptstadt von Deutschland?", "Berlin"], "de"),
        (["Qual é a capital do Brasil?", "Brasília", "São Paulo"], "pt"),
        (["Qual è la capitale d'Italia? Non è Milano.", "Roma"], "it"),
        (["What is the capital of France?", "Paris", "Lyon"], "en"),
        (["Which layer routes packets?", "Network", "Data link"], "en"),
        (["বাংলাদেশের রাজধানী কোনটি?", "ঢাকা"], "bn"),
        (["ما هي عاصمة مصر؟", "القاهرة"], "ar"),
        (["Какая столица России?", "Москва"], "ru"),
        (["GPU?", "CUDA", "ROCm"], "en"),  # too little to tell: English
    ],
)
def test_the_language_is_told_from_the_texts(texts: list[str], language: str) -> None:
    assert detect(texts) == language
