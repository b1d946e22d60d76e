"""Imports that never lose a question to a long text or a repeated option, and reports a
teacher can read: lines within 600 characters, alike problems counted ("… and 37 more like
this"), at most 40 lines a file, the YAML alias bomb answered briefly, no base64 or data URI
ever printed; and the texts: Moodle's default combined feedback never copied, Catalan told from
Spanish, Aiken's several-answers dialect read."""

from __future__ import annotations

import base64
from dataclasses import replace
from pathlib import Path

import pytest

from bot import render
from bot.banks.importers import import_bytes
from bot.banks.importers.digest import LINE_CHARS, MAX_LINES, digest
from bot.banks.importers.language import guess
from bot.banks.importers.model import Problem
from bot.banks.yaml_reader import parse_quiz
from bot.cli import main
from bot.core.bank import MAX_NOTE_CHARS, Text, utf16_len
from bot.core.engine import Reveal
from bot.core.limits import MESSAGE_LIMIT, bank_limits
from bot.features.authoring.views import import_text
from bot.features.homework.views import attempt_closed
from bot.features.review import views as review_views
from bot.i18n.lang import Lang
from bot.render.text import plain_text


def words(count: int, word: str = "because") -> str:
    return " ".join(f"{word}{n}" for n in range(count))


# --- long texts ----------------------------------------------------------------------------


def test_a_long_general_feedback_keeps_its_question_whole() -> None:
    why = words(300)  # about 2,400 characters: over the 1,000 a note held before
    report = import_bytes("long.gift", f"Q? {{=yes ~no ####{why}}}\n".encode(), quiz_id="t")
    assert report.imported == 1 and report.problems == ()
    assert report.quiz is not None and report.quiz.questions[0].note is not None
    assert report.quiz.questions[0].note.en == why


def test_past_a_message_the_note_is_cut_at_a_word_and_said() -> None:
    why = words(900)  # about 7,900 characters
    report = import_bytes("huge.gift", f"Q? {{=yes ~no ####{why}}}\n".encode(), quiz_id="t")
    assert report.imported == 1 and report.problems == ()
    assert report.quiz is not None
    note = report.quiz.questions[0].note
    assert note is not None and note.en.endswith("…") and utf16_len(note.en) <= MAX_NOTE_CHARS
    assert why.startswith(note.en[:-1]) and note.en[-2].isdigit()  # a whole word, then "…"
    assert [p.text("en") for p in report.notes] == [
        f"huge.gift:1: the general feedback ({len(why)} characters) is longer than a message "
        f"holds; kept up to a word before {MAX_NOTE_CHARS} characters."
    ]


def test_a_long_wrong_options_feedback_is_kept_and_cut_only_in_the_alert() -> None:
    said = words(60)  # about 470 characters: longer than any tap alert
    report = import_bytes("fb.gift", f"Q? {{=yes ~no#{said}}}\n".encode(), quiz_id="t")
    assert report.imported == 1 and report.problems == ()
    assert report.quiz is not None
    feedback = report.quiz.questions[0].options[1].feedback
    assert feedback is not None and feedback.en == said
    (note,) = [p.text("en") for p in report.notes]
    assert note.startswith(f"fb.gift:1: the feedback of option 2 ({len(said)} characters)")


def test_a_yaml_bank_may_hold_a_long_note_and_a_long_option_feedback() -> None:
    bank = (
        "title: T\nlanguage: en\nquestions:\n  - id: q1\n    question: Q?\n"
        f"    options: [yes, {{text: no, feedback: {words(60)}}}]\n    correct: 1\n"
        f"    note: {words(300)}\n"
    )
    quiz = parse_quiz(bank, "long.yaml", "long", bank_limits())
    assert quiz.questions[0].note is not None


# --- repeated options ----------------------------------------------------------------------


def test_a_repeated_wrong_option_is_dropped_and_the_question_kept() -> None:
    sheet = "question,A,B,C,D,answer\nWhat is 120 + 3?,124,122,123,122,C\n"
    report = import_bytes("generated.csv", sheet.encode(), quiz_id="t")
    assert report.imported == 1 and report.problems == ()
    assert report.quiz is not None
    q = report.quiz.questions[0]
    assert [o.en for o in q.options] == ["124", "122", "123"]
    assert q.options[q.correct].en == "123"
    assert [p.text("en") for p in report.notes] == [
        "generated.csv row 2: option 4 (“122”) repeats option 2; the repeat was left out and "
        "the question kept."
    ]


def test_a_repeat_of_the_right_option_is_still_refused() -> None:
    report = import_bytes("twice.gift", b"Q? {=ok ~no ~ok}\n\nR? {=a ~b}\n", quiz_id="t")
    assert report.imported == 1
    assert [p.text("en") for p in report.problems] == [
        "twice.gift:1: question skipped: options[3]: duplicate of option 1"
    ]


# --- reports -------------------------------------------------------------------------------


def many_problems(count: int) -> bytes:
    return "\n\n".join(f"Essay {n}? {{}}" for n in range(count)).encode() + b"\n\nQ? {=a ~b}\n"


@pytest.mark.parametrize("lang", ["en", "bn"])
def test_alike_problems_are_counted(lang: Lang) -> None:
    report = import_bytes("essays.gift", many_problems(39), quiz_id="t")
    lines = digest(report.lines(), lang)
    assert len(lines) == 3
    more = {"en": "… and 37 more like this.", "bn": "… এবং এমন আরও ৩৭টি।"}[lang]
    assert lines[2] == more


def test_at_most_40_lines_a_file_then_a_count() -> None:
    problems = [Problem(f"f.gift:{n}", "imp_not_mcq", {"kind": f"kind {n}"}) for n in range(90)]
    lines = digest(problems, "en")
    assert len(lines) == MAX_LINES
    assert lines[-1] == "… and 51 more lines of this report, not shown here."


def test_a_line_is_at_most_600_characters_and_never_base64() -> None:
    png = base64.b64encode(b"\x89PNG" + bytes(range(256)) * 40).decode()
    long = Problem("f.gift:1", "imp_gift_stray", {"text": "x " * 2000})
    data = Problem("f.gift:2", "imp_image_missing", {"name": f"data:image/png;base64,{png}"})
    raw = Problem("f.gift:3", "imp_gift_stray", {"text": png})
    lines = digest([long, data, raw], "en")
    assert all(len(line) <= LINE_CHARS for line in lines)
    assert not any(png[:40] in line or "base64," in line for line in lines)


@pytest.mark.parametrize("lang", ["en", "bn"])
def test_the_yaml_alias_bomb_is_answered_in_600_characters(lang: Lang) -> None:
    """Every option of every question an alias: one problem each, 120 in all."""
    questions = "".join(
        f"  - id: q{n}\n    question: Q{n}?\n    options: [*o, *o, *o]\n    correct: 1\n"
        for n in range(40)
    )
    bomb = "title: Bomb\nlanguage: en\nx: &o yes\nquestions:\n" + questions
    report = import_bytes("bomb.yaml", bomb.encode(), quiz_id="t")
    assert report.imported == 0
    text = import_text(lang, None, report)
    assert len(text) <= 600, text


def test_the_cli_prints_the_report_as_a_teacher_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "essays.gift"
    source.write_bytes(many_problems(39))
    main(["import", str(source), "--out", str(tmp_path)])
    out = capsys.readouterr().out.splitlines()
    assert len(out) <= MAX_LINES and "… and 37 more like this." in out


def test_the_uploads_reply_fits_and_counts() -> None:
    report = import_bytes("essays.gift", many_problems(39), quiz_id="t")
    text = import_text("en", None, report)
    assert utf16_len(text) <= MESSAGE_LIMIT and "… and 37 more like this." in text


# --- texts ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("texts", "code", "second"),
    [
        (
            [
                "Quina és la capital de Catalunya?",
                "Barcelona",
                "Quin riu passa per Lleida?",
                "Els Pirineus són al nord i també a l'oest.",
            ],
            "ca",
            None,
        ),
        (
            ["¿Cuál es la capital de España?", "Madrid", "¿Qué río pasa por Sevilla?"],
            "es",
            None,
        ),
        (["La casa de la ciutat", "el gat"], "es", "ca"),  # too alike to tell: said
    ],
)
def test_catalan_is_told_from_spanish(texts: list[str], code: str, second: str | None) -> None:
    found = guess(texts)
    assert (found.code, found.second) == (code, second)


def test_a_catalan_bank_is_labelled_catalan() -> None:
    gift = (
        "Quina és la capital de Catalunya? {=Barcelona ~Girona ~Lleida}\n\n"
        "Quin riu passa per Lleida? {=El Segre ~L'Ebre}\n\n"
        "Els Pirineus són al nord? {T}\n"
    )
    report = import_bytes("ca.gift", gift.encode(), quiz_id="t")
    assert report.quiz is not None and report.quiz.text_language == "ca"
    assert [p.text("en") for p in report.notes] == [
        "ca.gift: Catalan: imported as a one-language bank (its texts shown as written, the "
        "bot's own words in each chat's language)."
    ]


def test_aikens_several_answers_dialect_is_read() -> None:
    aiken = "Which are prime?\nA. 2\nB. 3\nC. 4\nD. 9\nANSWER: A, B\n"
    report = import_bytes("primes.txt", aiken.encode(), quiz_id="t")
    assert report.problems == () and report.quiz is not None
    q = report.quiz.questions[0]
    assert q.kind == "multiple" and q.rights == (0, 1)
    assert [p.text("en") for p in report.notes] == [
        "primes.txt:1: ANSWER: A, B names several right options; imported as a question where "
        "students tick every right one (Moodle's own Aiken reader takes one letter only)."
    ]


def test_the_recap_and_homework_show_long_texts_within_messages() -> None:
    """An imported question's long general feedback and a wrong option's long feedback: the
    recap carries both whole across messages that each fit; homework's reveal fits one."""
    why, said = words(300), words(400, "since")  # about 3,200 and 3,500 characters
    gift = f"Which layer routes packets? {{=Network ~Link#{said} ~Transport ####{why}}}\n"
    report = import_bytes("long.gift", gift.encode(), quiz_id="t")
    assert report.quiz is not None and report.problems == ()
    quiz = report.quiz
    q = quiz.questions[0]
    messages = review_views.recap_messages(
        quiz,
        "en",
        points=0,
        correct=0,
        asked=1,
        total=1,
        rank=1,
        players=1,
        best_streak=0,
        missed=[review_views.Missed(1, q, (0, 1, 2), chosen=1)],
    )
    shown = [plain_text(m) for m in messages]
    assert all(utf16_len(m) <= MESSAGE_LIMIT for m in shown)
    assert any(why in m for m in shown) and any(said in m for m in shown)
    reveal = Reveal(0, q, (0, 1, 2), (0, 1, 0), 0, 1, 0)
    homework = attempt_closed(reveal, "en", total=1, verdict="v", chosen=1)
    assert utf16_len(plain_text(homework)) <= MESSAGE_LIMIT


def test_a_typed_questions_long_note_comes_whole_on_its_own_in_practice() -> None:
    why = words(300)  # about 3,200 characters
    context = words(100, "context")
    gift = f"{context}: how many layers has the OSI model? {{#7 ####{why}}}\n"
    report = import_bytes("typed.gift", gift.encode(), quiz_id="t")
    assert report.quiz is not None
    q = report.quiz.questions[0]
    reveal = Reveal(0, q, (), (), 0, 1, 1)
    text, aside = render.typed_parts(reveal, "en", total=1, given="7", verdict="Right")
    assert aside is not None and plain_text(aside) == f"📖 {why}"
    assert "📖" not in plain_text(text) and utf16_len(plain_text(text)) <= MESSAGE_LIMIT
    short = replace(q, note=Text("Seven.", "Seven."))
    text, aside = render.typed_parts(
        replace(reveal, question=short), "en", total=1, given="7", verdict="Right"
    )
    assert aside is None and "📖 Seven." in plain_text(text)
