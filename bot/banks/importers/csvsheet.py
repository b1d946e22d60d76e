"""Spreadsheets saved as CSV: Kahoot's template, Quizizz's, or a plain header row.

- Kahoot: ``Question, Answer 1..4, Time limit, Correct answer(s)`` (numbers 1-4);
- Quizizz: ``Question Text, Question Type, Option 1..5, Correct Answer, Time in seconds``;
- plain: ``question, A, B, C, D, answer, explanation`` (answer as a letter, a number or the
  option's text).

Header cells are matched loosely (case, "- max 120 characters" tails), rows before the header
(Kahoot's instructions) are passed over. UTF-8 with or without BOM; comma, semicolon or tab.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field

from bot.banks.importers.model import Draft, Parsed, Place, Problem, clean
from bot.i18n import ascii_digits, letter_index

_HEAD_ROWS = 20  # how far down to look for the header row
csv.field_size_limit(64 * 1024)


@dataclass(slots=True)
class _Columns:
    question: int
    options: list[int] = field(default_factory=list)
    correct: int | None = None
    explanation: int | None = None
    seconds: int | None = None
    kind: int | None = None
    tag: int | None = None


def _key(cell: str) -> str:
    cell = cell.strip().strip("\ufeff").casefold()
    cell = re.split(r"\s[-–—(]|\s*\(", cell, maxsplit=1)[0]
    return " ".join(cell.replace("_", " ").split())


def _columns(row: list[str]) -> _Columns | None:
    keys = [_key(c) for c in row]
    question = next(
        (i for i, k in enumerate(keys) if k in ("question", "question text", "questions")), None
    )
    if question is None:
        return None
    cols = _Columns(question)
    numbered: list[tuple[int, int]] = []
    for i, k in enumerate(keys):
        match = re.fullmatch(r"(?:answer|option|choice)\s*(\d+)", k)
        if match:
            numbered.append((int(match.group(1)), i))
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


def _delimiter(text: str) -> str:
    first = next((line for line in text.split("\n") if line.strip()), "")
    counts = {d: first.count(d) for d in (",", ";", "\t")}
    return max(counts, key=lambda d: counts[d])


def parse(name: str, text: str) -> Parsed:
    """Every question row of the sheet."""
    out = Parsed()
    try:
        rows = list(csv.reader(text.splitlines(), delimiter=_delimiter(text)))
    except csv.Error as exc:
        out.fatal = Problem(name, "imp_csv_invalid", {"error": str(exc)[:80]})
        return out
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
        if not any(cell.strip() for cell in row):
            continue
        draft = _row(out, Place(name, "row", index + 1), row, cols)
        if draft is not None:
            out.drafts.append(draft)
    return out


def _cell(row: list[str], index: int | None) -> str:
    return row[index].strip() if index is not None and index < len(row) else ""


def _row(out: Parsed, where: Place, row: list[str], cols: _Columns) -> Draft | None:
    kind = _cell(row, cols.kind).casefold()
    if kind and kind not in (
        "multiple choice",
        "multiple-choice",
        "mcq",
        "quiz",
        "true/false",
        "true or false",
    ):
        out.skip(where, "imp_not_mcq", kind=_cell(row, cols.kind)[:40])
        return None
    # options by their column number, so "correct: 3" names the third column even when the
    # second is left empty
    numbered = [(n, clean(_cell(row, i))) for n, i in enumerate(cols.options, start=1)]
    present = [(n, text) for n, text in numbered if text]
    answer = ascii_digits(_cell(row, cols.correct))
    picks = [p.strip() for p in re.split(r"[,;|]", answer) if p.strip()]
    if len(picks) != 1:
        out.skip(where, "imp_right_count", count=len(picks))
        return None
    pick = picks[0]
    chosen: int | None = None
    if pick.isdigit():
        chosen = int(pick)
    elif (letter := letter_index(pick)) is not None:  # A–J, or the Bengali ক–ঞ
        chosen = letter + 1
    else:
        chosen = next((n for n, text in present if text.casefold() == pick.casefold()), None)
    numbers = [n for n, _ in present]
    if chosen not in numbers:
        out.skip(where, "imp_csv_answer", answer=pick[:40])
        return None
    seconds_text = ascii_digits(_cell(row, cols.seconds))
    seconds = int(seconds_text) if seconds_text.isdigit() else None
    return Draft(
        where,
        clean(_cell(row, cols.question)),
        tuple(t for _, t in present),
        numbers.index(chosen),
        clean(_cell(row, cols.explanation)) or None,
        None,
        _cell(row, cols.tag) or None,
        seconds,
    )
