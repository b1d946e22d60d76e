"""The first CSV of ``/export``: every student's result in every group run, and each answer.

One row per student and run (a live quiz, or one homework attempt), the runs in the order they
started and, within a run, its ranking order. Columns:

- ``season``, ``run`` (1 = the group's first run in this file: never an internal id), ``quiz``
  (its name and title), ``date`` (UTC, ISO 8601, of the run's start), ``user_id`` (Telegram's),
  ``name``, ``username``, ``correct`` (full marks), ``credit`` (the fractions scored, summed),
  ``answered``, ``points``;
- per question K of the quiz, in the bank's order (a run that left questions out, such as a
  live quiz without the typed ones or a ``pick`` of a few, leaves their cells empty, so each
  column holds one question in every row of a quiz; a quiz deleted since keeps the order its
  run asked them in):

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
from bot.core.scoring import earned, stored_choice
from bot.i18n.lang import Lang
from bot.render.text import label
from bot.storage import Export, ExportAnswer, ExportRun

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

    run: ExportRun
    first: ExportAnswer
    cells: dict[int, tuple[str, str, str]] = field(default_factory=dict)
    correct: int = 0
    credit: float = 0.0
    points: int = 0
    last_at: float = 0.0


def results_csv(
    export: Export,
    quizzes: Callable[[str], Quiz | None],
    quiz_label: Callable[[str], str],
    lang: Lang,
) -> str:
    """The CSV text (see the module's doc), options' texts in ``lang`` (the group's); only the
    head row when nothing was answered."""
    runs = {run.run_id: run for run in export.runs}
    order = {run.run_id: n for n, run in enumerate(export.runs, start=1)}
    cells = _Cells(quizzes, lang)
    rows: dict[tuple[int, int], _Row] = {}
    for a in export.answers:
        row = rows.get((a.run_id, a.user_id))
        if row is None:
            row = rows[(a.run_id, a.user_id)] = _Row(runs[a.run_id], a)
        fraction = earned(a.credit, a.correct)
        row.cells[cells.column(row.run, a)] = cells(row.run, a, fraction)
        row.correct += a.correct
        row.credit += fraction
        row.points += a.points
        row.last_at = max(row.last_at, a.answered_at)
    answered = sorted({run_id for run_id, _ in rows}, key=order.__getitem__)
    numbered = {run_id: n for n, run_id in enumerate(answered, start=1)}
    width = max((cells.width(row.run) for row in rows.values()), default=0)
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_MINIMAL)
    writer.writerow([*HEAD, *(f"q{k + 1}{s}" for k in range(width) for s in PER_QUESTION)])
    labels: dict[str, str] = {}
    ordered = sorted(
        rows.values(),
        key=lambda r: (order[r.run.run_id], -r.points, -r.correct, r.last_at, r.first.user_id),
    )
    empty = ("", "", "")
    for row in ordered:
        run, ex = row.run, row.first
        if run.quiz_id not in labels:
            labels[run.quiz_id] = safe_cell(quiz_label(run.quiz_id))
        date = datetime.fromtimestamp(run.started_at, UTC).isoformat(timespec="seconds")
        writer.writerow(
            [
                run.season,
                numbered[run.run_id],
                labels[run.quiz_id],
                date,
                ex.user_id,
                safe_cell(ex.name),
                safe_cell(ex.username or ""),
                row.correct,
                number(row.credit),
                len(row.cells),
                row.points,
                *(cell for k in range(width) for cell in row.cells.get(k, empty)),
            ]
        )
    return out.getvalue()


class _Cells:
    """The three cells of each answer; the same answer to the same question of one run (a
    group's live quiz: most of a class) is written once, and each quiz looked up once."""

    def __init__(self, quizzes: Callable[[str], Quiz | None], lang: Lang) -> None:
        self._quizzes = quizzes
        self._lang = lang
        self._known: dict[str, dict[str, tuple[int, Question]]] = {}
        self._done: dict[tuple[int, int, int, str | None, float], tuple[str, str, str]] = {}

    def __call__(self, run: ExportRun, a: ExportAnswer, fraction: float) -> tuple[str, str, str]:
        key = (a.run_id, a.q_index, a.option, a.given, fraction)
        done = self._done.get(key)
        if done is None:
            permutation = run.permutations[a.q_index] if a.q_index < len(run.permutations) else ()
            given, options = answer_cells(
                a, permutation, self._question(run.quiz_id, a.question_id), self._lang
            )
            done = self._done[key] = (given, options, number(fraction))
        return done

    def column(self, run: ExportRun, a: ExportAnswer) -> int:
        """The column (0-based) of an answer: its question's place in the quiz's bank, else
        (a quiz deleted since) its place in the run."""
        known = self._bank(run.quiz_id)
        found = known.get(a.question_id)
        return a.q_index if found is None else found[0]

    def width(self, run: ExportRun) -> int:
        """How many question columns a run's quiz needs."""
        return max(len(self._bank(run.quiz_id)), run.question_count)

    def _question(self, quiz_id: str, question_id: str) -> Question | None:
        found = self._bank(quiz_id).get(question_id)
        return None if found is None else found[1]

    def _bank(self, quiz_id: str) -> dict[str, tuple[int, Question]]:
        """A quiz's questions by id, with their place in the bank (looked up once)."""
        known = self._known.get(quiz_id)
        if known is None:
            quiz = self._quizzes(quiz_id)
            known = self._known[quiz_id] = (
                {q.id: (n, q) for n, q in enumerate(quiz.questions)} if quiz is not None else {}
            )
        return known


def answer_cells(
    a: ExportAnswer, permutation: Sequence[int], question: Question | None, lang: Lang
) -> tuple[str, str]:
    """(``qK``, ``qK_options``) of one answer: the letters as the student saw them (a
    true/false question's word) or the text typed; the options' text. Without the question
    (a quiz deleted since), the letters alone: the run kept how it showed the options
    (``permutation``: shown position -> bank index)."""
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
    shown = sorted(permutation.index(i) if i in permutation else i for i in chosen)
    return ",".join(label(s) for s in shown), options
