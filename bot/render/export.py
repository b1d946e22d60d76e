"""The first CSV of ``/export``: every student's result in every group run, and each answer.

One row per student and run (a live quiz, or one homework attempt), the runs in the order they
started and, within a run, its ranking order. Columns:

- ``season``, ``run`` (1 = the group's first run in this file: never an internal id), ``quiz``
  (its name and title), ``date`` (UTC, ISO 8601, of the run's start), ``user_id`` (Telegram's),
  ``name``, ``username``, ``correct`` (full marks), ``credit`` (the fractions scored, summed),
  ``answered``, ``points``;
- per question K of the run, in the order the student was asked:

  - ``qK``: the answer as the student gave it: the letters of the options as that student saw
    them ("A,C": options are shuffled in each run, so the same letter may name different
    options in two rows), a true/false question's word, or the text typed;
  - ``qK_options``: the text of the options chosen (" | " between them), in the group's
    language: the same in every row, whatever the letters were;
  - ``qK_credit``: the fraction scored, 0 to 1.

Math is written in its readable Unicode form, never as TeX; a cell that would start a formula
in a spreadsheet is prefixed with ``'``.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.core.bank import Question, Quiz
from bot.core.mathtext import readable
from bot.core.scoring import stored_choice
from bot.i18n.lang import Lang
from bot.render.text import label
from bot.storage import ExportAnswer

_FORMULA_START = frozenset("=+-@\t\r\n")
HEAD = (
    "season",
    "run",
    "quiz",
    "date",
    "user_id",
    "name",
    "username",
    "correct",
    "credit",
    "answered",
    "points",
)
PER_QUESTION = ("", "_options", "_credit")
OPTIONS_SEPARATOR = " | "


def safe_cell(text: str) -> str:
    """Neutralize spreadsheet formula injection: prefix ``'`` to text that would start a formula.

    Invisible leading characters (spaces, bidi marks, zero-width joiners) are looked through, since
    a spreadsheet may drop them and still see the ``=``.
    """
    for ch in text:
        if ch in _FORMULA_START:
            return "'" + text
        if ch.isspace() or unicodedata.category(ch) in ("Cf", "Zs"):
            continue
        break
    return text


def file_part(title: str) -> str:
    """A group's title as part of a file name: its letters (with their vowel signs and other
    marks: a Bengali title stays readable) and digits, in any script, '-' between words, at most
    40 characters; "group" when nothing is left."""
    kept = "".join(ch if unicodedata.category(ch)[0] in "LMN" else " " for ch in title)
    return "-".join(kept.split())[:40].strip("-") or "group"


def number(value: float) -> str:
    """A fraction or a sum of them: at most three decimals, no trailing zeros ("0.5", "2")."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


@dataclass(slots=True)
class _Row:
    """One student's line in one run, gathered from their answers."""

    first: ExportAnswer
    cells: dict[int, tuple[str, str, str]] = field(default_factory=dict)
    correct: int = 0
    credit: float = 0.0
    points: int = 0
    last_at: float = 0.0


def results_csv(
    answers: Sequence[ExportAnswer],
    quizzes: Callable[[str], Quiz | None],
    quiz_label: Callable[[str], str],
    lang: Lang,
) -> str:
    """The CSV text (see the module's doc), options' texts in ``lang`` (the group's); only the
    head row when nothing was answered."""
    question_of = _Questions(quizzes)
    rows: dict[tuple[int, int], _Row] = {}
    runs: dict[int, int] = {}  # run id -> its number in this file
    width = 0
    for ex in answers:
        runs.setdefault(ex.run_id, len(runs) + 1)
        width = max(width, ex.question_count)
        row = rows.get((ex.run_id, ex.user_id))
        if row is None:
            row = rows[(ex.run_id, ex.user_id)] = _Row(ex)
        a = ex.answer
        fraction = a.credit if a.credit is not None else float(a.correct)
        row.cells[a.q_index] = (*answer_cells(ex, question_of(ex), lang), number(fraction))
        row.correct += a.correct
        row.credit += fraction
        row.points += a.points
        row.last_at = max(row.last_at, a.answered_at)
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_MINIMAL)
    writer.writerow([*HEAD, *(f"q{k + 1}{s}" for k in range(width) for s in PER_QUESTION)])
    labels: dict[str, str] = {}
    ordered = sorted(
        rows.values(),
        key=lambda r: (runs[r.first.run_id], -r.points, -r.correct, r.last_at, r.first.user_id),
    )
    for row in ordered:
        ex = row.first
        if ex.quiz_id not in labels:
            labels[ex.quiz_id] = quiz_label(ex.quiz_id)
        date = datetime.fromtimestamp(ex.started_at, UTC).isoformat(timespec="seconds")
        writer.writerow(
            [
                ex.season,
                runs[ex.run_id],
                safe_cell(labels[ex.quiz_id]),
                date,
                ex.user_id,
                safe_cell(ex.name),
                safe_cell(ex.username or ""),
                row.correct,
                number(row.credit),
                len(row.cells),
                row.points,
                *(cell for k in range(width) for cell in row.cells.get(k, ("", "", ""))),
            ]
        )
    return out.getvalue()


class _Questions:
    """The questions answered, by quiz and question id (each quiz looked up once)."""

    def __init__(self, quizzes: Callable[[str], Quiz | None]) -> None:
        self._quizzes = quizzes
        self._known: dict[str, dict[str, Question]] = {}

    def __call__(self, ex: ExportAnswer) -> Question | None:
        known = self._known.get(ex.quiz_id)
        if known is None:
            quiz = self._quizzes(ex.quiz_id)
            known = self._known[ex.quiz_id] = (
                {q.id: q for q in quiz.questions} if quiz is not None else {}
            )
        return known.get(ex.answer.question_id)


def answer_cells(ex: ExportAnswer, question: Question | None, lang: Lang) -> tuple[str, str]:
    """(``qK``, ``qK_options``) of one answer: the letters as the student saw them (a
    true/false question's word) or the text typed; the options' text. Without the question
    (a quiz deleted since), the letters alone: the run kept how it showed the options."""
    a = ex.answer
    if a.option < 0:  # typed
        return safe_cell(a.given or ""), ""
    chosen = stored_choice(a.option, a.given)
    texts = (
        [readable(question.options[i](lang)) for i in chosen if i < len(question.options)]
        if question is not None
        else []
    )
    options = safe_cell(OPTIONS_SEPARATOR.join(texts))
    if question is not None and question.kind == "truefalse":
        return options, options
    shown = sorted(ex.permutation.index(i) if i in ex.permutation else i for i in chosen)
    return ",".join(label(s) for s in shown), options
