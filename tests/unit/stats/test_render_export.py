"""The results CSV of ``/export``, cell by cell: each answer as the student gave it, the options
by their text, math readable, cells safe in a spreadsheet, and a file name from any title."""

from __future__ import annotations

from bot.core.bank import TRUE_FALSE, Option, Question, Text
from bot.render.export import answer_cells, file_part, number
from bot.storage import ExportAnswer

SEVERAL = Question(
    id="primes",
    number=1,
    text=Text("মৌলিক?", "Prime?"),
    options=(
        Option("২", "2"),
        Option("৪", "4"),
        Option(r"\(x^{2}\)", r"\(x^{2}\)"),
        Option("৬", "6"),
    ),
    correct=0,
    explanation=None,
    kind="multiple",
    rights=(0, 2),
)
TRUE_OR_FALSE = Question(
    id="sky",
    number=2,
    text=Text("আকাশ সবুজ।", "The sky is green."),
    options=TRUE_FALSE,
    correct=1,
    explanation=None,
    kind="truefalse",
)


def exported(option: int, given: str | None) -> ExportAnswer:
    return ExportAnswer(1, 7, "Mita", None, 0, "primes", option, False, 0, 0.0, given, 0.5)


def test_letters_are_those_the_student_saw_and_options_their_text() -> None:
    # shown D, C, B, A: bank options 0 and 2 ("AC" in bank order) were shown as D and B
    cells = answer_cells(exported(0, "AC"), (3, 2, 1, 0), SEVERAL, "en")
    assert cells == ("B,D", "2 | x²")  # math readable, never TeX
    assert answer_cells(exported(0, "AC"), (0, 1, 2, 3), SEVERAL, "bn") == ("A,C", "২ | x²")
    # one option, no letters stored: the option itself
    assert answer_cells(exported(3, None), (3, 2, 1, 0), SEVERAL, "en") == ("A", "6")
    # the quiz deleted since: the run still knows how it showed the options
    assert answer_cells(exported(0, "AC"), (3, 2, 1, 0), None, "en") == ("B,D", "")


def test_true_false_is_its_word_and_typed_text_is_kept_safe() -> None:
    assert answer_cells(exported(1, None), (0, 1), TRUE_OR_FALSE, "bn") == ("মিথ্যা", "মিথ্যা")
    for typed, cell in [("-2", "'-2"), ("=1+1", "'=1+1"), ("১০.৫", "১০.৫"), ("a=b", "a=b")]:
        assert answer_cells(exported(-1, typed), (), None, "en") == (cell, "")


def test_file_part_keeps_any_script_readable() -> None:
    assert file_part("নবম শ্রেণি: পদার্থবিজ্ঞান") == "নবম-শ্রেণি-পদার্থবিজ্ঞান"
    assert file_part("ZeRO study group") == "ZeRO-study-group"
    assert file_part('../a\\b:"c"*?<>|\u202e') == "a-b-c"
    assert file_part("") == file_part("!!!") == "group"
    assert len(file_part("x" * 100)) == 40


def test_numbers_are_short() -> None:
    assert [number(v) for v in (1.0, 0.5, 0.0, 2.25, 1 / 3, -0.0)] == [
        "1",
        "0.5",
        "0",
        "2.25",
        "0.333",
        "0",
    ]
