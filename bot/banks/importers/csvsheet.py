"""Spreadsheets saved as CSV: Kahoot's template, Quizizz's, or a plain header row.

- Kahoot: ``Question, Answer 1..4, Time limit, Correct answer(s)`` (numbers 1-4);
- Quizizz: ``Question Text, Question Type, Option 1..5, Correct Answer, Time in seconds``;
- plain: ``question, A, B, C, D, answer, explanation`` (answer as a letter, a number or the
  option's text);
- Moodle's CSV layout (the qformat_csv plugin): ``questionname, questiontext, A, B, C, D,
  Answer 1, Answer 2``: one right letter, or two (each right option worth half).

Header cells are matched loosely (case, "- max 120 characters" tails), rows before the header
(Kahoot's instructions) are passed over. UTF-8 with or without BOM; comma, semicolon or tab.
The answer may be a letter (A, B... or ক, খ...), a number or the option's text; several of
them ("1,3") make a question with several right answers, as Quizizz's ``Checkbox`` type is;
Quizizz's ``Fill-in-the-Blank`` accepts each answer written in its option columns (a typed short
answer); a ``True/False`` row with those two options is a true/false question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.banks.importers.model import (
    FALSE,
    TRUE,
    Answer,
    Draft,
    Parsed,
    Place,
    Problem,
    clean,
    fraction_of,
)
from bot.banks.importers.scan import csv_records, header_key, letter_index, small_number
from bot.i18n import ascii_digits

_HEAD_ROWS = 20  # how far down to look for the header row
_LETTERED = 10  # an answer A to J (or ক to ঞ) names an option by its letter


@dataclass(slots=True)
class _Columns:
    question: int
    options: list[int] = field(default_factory=list)
    correct: int | None = None
    explanation: int | None = None
    seconds: int | None = None
    kind: int | None = None
    tag: int | None = None
    #: Moodle's CSV layout (qformat_csv): "Answer 1" and "Answer 2" hold right letters, not
    #: options; a second one makes a tick-several question, each right option worth half
    moodle: list[int] = field(default_factory=list)


def _key(cell: str) -> str:
    cell = cell.strip().strip("\ufeff").casefold()
    cell = header_key(cell)
    return " ".join(cell.replace("_", " ").split())


def _numbered(key: str) -> int | None:
    """3 for "answer 3", "option3" or "choice 3" (at most 3 digits), else None."""
    for word in ("answer", "option", "choice"):
        if key.startswith(word):
            return small_number(key[len(word) :].lstrip(), 3)
    return None


def _columns(row: list[str]) -> _Columns | None:
    keys = [_key(c) for c in row]
    question = next(
        (
            i
            for i, k in enumerate(keys)
            if k in ("question", "question text", "questions", "questiontext")
        ),
        None,
    )
    if question is None:
        return None
    cols = _Columns(question)
    if keys[question] == "questiontext":  # Moodle's: questionname,questiontext,A,B,C,D,...
        return _moodle_columns(keys, cols)
    numbered: list[tuple[int, int]] = []
    for i, k in enumerate(keys):
        number = _numbered(k)
        if number is not None:
            numbered.append((number, i))
        elif re.fullmatch(r"(?:option )?[a-z]", k):
            numbered.append((ord(k[-1]) - ord("a") + 1, i))
        elif k in (
            "correct answer(s)",
            "correct answer",
            "correct answers",
            "correct",
            "answer",
            "right answer",
            "key",
        ):
            cols.correct = i
        elif k in ("explanation", "feedback", "answer explanation"):
            cols.explanation = i
        elif k in ("time limit", "time in seconds", "time", "seconds"):
            cols.seconds = i
        elif k in ("question type", "type"):
            cols.kind = i
        elif k in ("category", "tag", "topic"):
            cols.tag = i
    cols.options = [i for _, i in sorted(numbered)]
    return cols if cols.options and cols.correct is not None else None


def _moodle_columns(keys: list[str], cols: _Columns) -> _Columns | None:
    """Moodle's CSV question layout: ``questionname, questiontext, A, B, C, D, Answer 1,
    Answer 2`` (then, in its extended form, ``answernumbering``, the combined feedbacks, which
    repeat the verdict, and ``defaultmark``); a ``generalfeedback`` column is the note."""
    for i, k in enumerate(keys):
        if re.fullmatch(r"[a-z]", k):
            cols.options.append(i)
        elif _numbered(k) is not None and k.startswith("answer"):
            cols.moodle.append(i)
        elif k == "generalfeedback":
            cols.explanation = i
    if not cols.options or not cols.moodle:
        return None
    cols.correct = cols.moodle[0]
    return cols


def _delimiter(text: str) -> str:
    first = next((line for line in text.split("\n") if line.strip()), "")
    counts = {d: first.count(d) for d in (",", ";", "\t")}
    return max(counts, key=lambda d: counts[d])


def parse(name: str, text: str) -> Parsed:
    """Every question row of the sheet. Rows are numbered as a spreadsheet shows them (a cell
    with line breaks is one row); a row that holds no question, options or answer (Kahoot's
    numbered empty rows) is passed over; a stray quote is reported with its row."""
    out = Parsed()
    rows, stray = csv_records(text, _delimiter(text))
    cols: _Columns | None = None
    header = 0
    for index, row in enumerate(rows[:_HEAD_ROWS]):
        cols = _columns(row)
        if cols is not None:
            header = index
            break
    if cols is None:
        out.fatal = Problem(name, "imp_csv_header", {})
        return out
    for index in range(header + 1, len(rows)):
        row = rows[index]
        if _empty(row, cols):
            continue
        where = Place(name, "row", index + 1)
        if index in stray:
            out.notes.append(Problem(where, "imp_csv_quote", {}))
        draft = _row(out, where, row, cols)
        if draft is not None:
            out.drafts.append(draft)
    return out


def _empty(row: list[str], cols: _Columns) -> bool:
    """A row with no question, option or answer: a template's numbered empty row (its number
    and default time limit do not make it a question)."""
    used = (cols.question, cols.correct, *cols.options)
    return not any(_cell(row, i) for i in used)


def _cell(row: list[str], index: int | None) -> str:
    return row[index].strip() if index is not None and index < len(row) else ""


_CHOICE = ("multiple choice", "multiple-choice", "mcq", "quiz")
_TRUE_FALSE = ("true/false", "true or false", "true-false", "truefalse")
_SEVERAL = ("checkbox", "checkboxes", "multiple select", "multi-select", "select all")
_TYPED = ("fill-in-the-blank", "fill in the blank", "fill-in-the-blanks", "type answer")


def _row(out: Parsed, where: Place, row: list[str], cols: _Columns) -> Draft | None:
    kind = " ".join(_cell(row, cols.kind).casefold().split())
    if kind and kind not in (*_CHOICE, *_TRUE_FALSE, *_SEVERAL, *_TYPED):
        out.skip(where, "imp_not_mcq", kind=_cell(row, cols.kind)[:40])
        return None
    # options by their column number, so "correct: 3" names the third column even when the
    # second is left empty
    numbered = [(n, clean(_cell(row, i))) for n, i in enumerate(cols.options, start=1)]
    present = [(n, text) for n, text in numbered if text]
    seconds = small_number(ascii_digits(_cell(row, cols.seconds)))
    text = clean(_cell(row, cols.question))
    explanation = clean(_cell(row, cols.explanation)) or None
    tag = _cell(row, cols.tag) or None
    if kind in _TYPED:  # Quizizz: every answer written in the option columns is accepted
        answers = tuple(Answer(text=t) for _, t in present)
        return Draft(
            where, text, (), 0, None, explanation, tag, seconds, kind="short", answers=answers
        )
    if cols.moodle:
        return _moodle_row(out, where, row, cols, present)
    chosen = _chosen(out, where, present, clean(_cell(row, cols.correct)))
    if chosen is None:
        return None
    numbers = [n for n, _ in present]
    picked = sorted(numbers.index(n) for n in chosen)
    options = tuple(t for _, t in present)
    if len(picked) > 1 or kind in _SEVERAL:
        return Draft(
            where,
            text,
            options,
            picked[0],
            explanation,
            None,
            tag,
            seconds,
            kind="multiple",
            rights=tuple(picked),
        )
    words = tuple(o.casefold() for o in options)
    true_false = kind in _TRUE_FALSE and sorted(words) == [FALSE, TRUE]
    return Draft(
        where,
        text,
        words if true_false else options,
        picked[0],
        explanation,
        None,
        tag,
        seconds,
        true_false=true_false,
    )


def _moodle_row(
    out: Parsed, where: Place, row: list[str], cols: _Columns, present: list[tuple[int, str]]
) -> Draft | None:
    """A row of Moodle's CSV layout, as its reader grades it: one right letter a one-answer
    question; a second one (``Answer 2``) a tick-several question whose right options are
    worth half each and wrong ones nothing; its general feedback the note."""
    given = [clean(_cell(row, i)) for i in cols.moodle]
    letters = ",".join(g for g in given if g)
    chosen = _chosen(out, where, present, letters)
    if chosen is None:
        return None
    numbers = [n for n, _ in present]
    picked = sorted(numbers.index(n) for n in chosen)
    options = tuple(t for _, t in present)
    text = clean(_cell(row, cols.question))
    note = clean(_cell(row, cols.explanation)) or None
    if len(given) > 1 and given[1]:
        share = fraction_of(100 / len(picked))
        fractions = tuple(share if i in picked else 0.0 for i in range(len(options)))
        return Draft(
            where,
            text,
            options,
            picked[0],
            None,
            note,
            kind="multiple",
            rights=tuple(picked),
            fractions=fractions,
        )
    return Draft(where, text, options, picked[0], None, note)


def _chosen(
    out: Parsed, where: Place, present: list[tuple[int, str]], answer: str
) -> list[int] | None:
    """The option numbers the answer cell names (one, or several: "1,3", "A;C"); None, said,
    when it names none or one that is not there."""
    answer = ascii_digits(answer)
    # the right option's own text first: "Rest, water, no strain" is one answer
    whole = next((n for n, text in present if text == answer), None)
    if whole is not None:
        return [whole]
    picks = [p.strip() for p in re.split(r"[,;|]", answer) if p.strip()]
    if not picks:
        out.skip(where, "imp_right_count", count=0)
        return None
    numbers = [n for n, _ in present]
    chosen: list[int] = []
    for pick in picks:
        number = small_number(pick)
        index = letter_index(pick)
        if number is None and index is not None and index < _LETTERED:
            number = index + 1
        elif number is None:
            number = next((n for n, text in present if text.casefold() == pick.casefold()), None)
        if number not in numbers:
            out.skip(where, "imp_csv_answer", answer=pick[:40])
            return None
        if number not in chosen:
            chosen.append(number)
    return chosen
